"""A long Amnesia Stories game: the page's points-by-turn table shows the last two rounds, and
every turn only on the page that asks for them (a plain link, no script); the referee's copies
share the judged turns' rows without ever changing them."""

from __future__ import annotations

import copy
import re

import pytest
from django.urls import reverse

from games.rules import get_game
from games.services import reading
from tests.games.long_games import long_game

pytestmark = pytest.mark.django_db


def by_turn_rows(html: str) -> list[int]:
    part = html[html.index('id="by-turn"') :]
    part = part[: part.index("</table>")]
    return [
        int(n) for n in re.findall(r'<th scope="row">(?:<a href="#tale-\d+"[^>]*>)?(\d+)', part)
    ]


def linked_rows(html: str) -> list[int]:
    part = html[html.index('id="by-turn"') :]
    part = part[: part.index("</table>")]
    return [int(n) for n in re.findall(r'<a href="#tale-(\d+)"', part)]


def test_a_long_games_page_and_answers(long_table, gm_client, django_assert_max_num_queries):
    """One 300-move table read by the page checks (a GET writes nothing) and then played on
    by the answers' check: each of the three built its own when they were tests of their own."""
    table = long_table("amnesia_stories", 300)
    the_page_shows_the_last_two_rounds_and_every_turn_on_demand(table, gm_client)
    the_page_draws_the_last_stories_and_links_to_the_ones_before(table, gm_client)
    every_kind_of_moves_answer_takes_few_queries(table, gm_client, django_assert_max_num_queries)


def the_page_shows_the_last_two_rounds_and_every_turn_on_demand(table, gm_client):
    state = reading.state_of(table)
    seats = len(state["seats"])
    judged = [t["turn_number"] for t in state["history"]]
    last_round = (judged[-1] - 1) // seats + 1
    assert last_round > 3  # long enough to have earlier rounds
    url = reverse("games:table", args=[table.pk])
    html = gm_client.get(url).content.decode()
    shown = by_turn_rows(html)
    first = (last_round - 2) * seats + 1
    assert shown == [n for n in judged if n >= first]
    earlier = last_round - 2
    assert 'href="?turns=all#by-turn"' in html
    assert f"{earlier} earlier rounds" in html
    everything = gm_client.get(url + "?turns=all").content.decode()
    assert by_turn_rows(everything) == judged
    assert "?turns=all#by-turn" not in everything
    # a move's answer (the panel) carries the short table too
    panel = gm_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert by_turn_rows(panel) == shown


def test_a_short_game_shows_every_turn_and_no_link(long_table, gm_client):
    table = long_table("amnesia_stories", 12)
    state = reading.state_of(table)
    assert 0 < len(state["history"]) < 2 * len(state["seats"])  # within the last two rounds
    html = gm_client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert by_turn_rows(html) == [t["turn_number"] for t in state["history"]]
    assert "?turns=all" not in html


def test_apply_and_view_leave_the_state_as_it_was():
    referee = get_game("amnesia_stories")
    script = long_game("amnesia_stories", 120)
    from games.rules.script import parse_setup

    state = referee.initial_state(parse_setup(script))
    for move in script["moves"]:
        before = copy.deepcopy(state)
        after = referee.apply(state, move)
        assert state == before  # the state it was given is untouched
        seen = referee.view(after, None)
        assert seen["history"] is not after["history"]
        assert seen["history"] == after["history"]
        state = after
    assert state["history"]


def the_page_draws_the_last_stories_and_links_to_the_ones_before(table, gm_client):
    from games.amnesia_stories.page import TALES_SHOWN

    html = gm_client.get(reverse("games:table", args=[table.pk])).content.decode()
    story = html[html.index('class="story"') :]
    drawn = [int(n) for n in re.findall(r'id="tale-(\d+)"', story)]
    assert len(drawn) == TALES_SHOWN
    # a points-by-turn row links to its story when the page draws it, and only then
    assert linked_rows(html) == [n for n in by_turn_rows(html) if n in drawn]
    assert linked_rows(html)
    earlier = re.search(r'class="story-earlier"><a href="([^"]+)"', story)
    assert earlier is not None
    before = gm_client.get(earlier.group(1).replace("&amp;", "&")).content.decode()
    older = [int(n) for n in re.findall(r'id="tale-(\d+)"', before)]
    assert older and max(older) == min(drawn) - 1  # the ones just before, none twice


def every_kind_of_moves_answer_takes_few_queries(table, gm_client, django_assert_max_num_queries):
    """Answers, the judging answer (which reads the reveal's progress) and the tell that
    follows: each within the query-count tests' limit on a long game."""
    import json

    from tests.games.test_query_counts import MAX_QUERIES, next_move

    judged = len(reading.state_of(table)["history"])
    verbs = set()
    for _ in range(12):  # more than a turn of eight players
        move = next_move(table)
        verbs.add(move["do"])
        with django_assert_max_num_queries(MAX_QUERIES):
            answer = gm_client.post(
                reverse("games:move", args=[table.pk]),
                {"move": json.dumps(move), "expected_seq": table.last_seq},
                HTTP_HX_REQUEST="true",
            )
        assert answer.status_code == 200
        table.refresh_from_db()
    assert len(reading.state_of(table)["history"]) > judged  # a turn was judged on the way
    assert {"answer", "tell"} <= verbs
