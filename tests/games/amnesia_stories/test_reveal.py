"""The step-by-step reveal of a judged turn: table state on the server (not a move), opened by
the owner only, the same on every screen and after a reload; and nothing of a turn's result on
any page before its step is opened. Then the pictures beside each step of the story: the slot
the bard chose, on the table page and in the book."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.amnesia_stories import reveal
from games.amnesia_stories.models import RevealProgress
from games.models import Move, Table
from games.services import new_tables, reading
from stories.models import story_for
from tests.games.amnesia_stories.pages import (
    answer_by_laptop,
    new_table,
    normalise,
    seen,
    tell,
)

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "amnesia_stories"
# Ana is the bard. Step 1: Bruno matches (Ana +2, Bruno +1); step 2: everyone matches (Bruno
# +1, Caio +1, Ana nothing); step 3: nobody (a red card for Ana). No set bonus.
PICKS = {"Ana": [1, 2, 3], "Bruno": [1, 2, 4], "Caio": [5, 2, 4]}
# The same story judged otherwise: step 1 nobody, step 2 some, step 3 everyone, a set bonus.
OTHER = {"Ana": [1, 2, 3], "Bruno": [3, 2, 1], "Caio": [4, 2, 3]}


def judged_table(client, picks=PICKS, **extra) -> Table:
    table = new_table(client, name="Twin", **extra)
    # the same deck on every table of a test (the cache was built with the old seed: replay)
    Table.objects.filter(pk=table.pk).update(seed=1234, state=None)
    table.refresh_from_db()
    tell(client, table, text="Up the mountain, across the sea.")
    for name, p in picks.items():
        assert answer_by_laptop(client, table, name, p).status_code == 302
    table.refresh_from_db()
    return table


def open_step(client, table, step, turn=1, **headers):
    return client.post(
        reverse("amnesia_stories:reveal", args=[table.pk]),
        {"turn": turn, "step": step},
        **headers,
    )


def page_of(client, table) -> str:
    return client.get(table.get_absolute_url()).content.decode()


def projector_of(client, table) -> str:
    return client.get(reverse("amnesia_stories:projector", args=[table.pk])).content.decode()


def scoreboard(html: str) -> dict[str, tuple[int, int]]:
    """``{name: (VP, red cards)}`` as the sidebar shows them."""
    body = html[html.index('class="tokens scoreboard"') :]
    body = body[: body.index("</tbody>")]
    rows = re.findall(
        r'<th scope="row">(\w+).*?<td class="num">(-?\d+)</td>\s*<td class="num red[^"]*">(\d+)</td>',
        body,
        re.S,
    )
    return {name: (int(vp), int(red)) for name, vp, red in rows}


def by_turn_row(html: str, turn: int) -> list[str]:
    body = html[html.index("Points by turn") :]
    row = re.search(rf'href="#tale-{turn}".*?</tr>', body, re.S)
    assert row, f"no row for turn {turn}"
    cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', row.group(0), re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in cells]  # "+2" and a red card: "+21"


def tale(html: str, turn: int) -> str:
    start = html.index(f'id="tale-{turn}"')
    return html[start : html.index("</article>", start)]


# -- nothing of the result before its step ------------------------------------------------------
def test_before_the_first_step_no_page_depends_on_the_result(gm_client):
    """Two tables, the same story judged with different picks (different points, red cards,
    matches): until a step is opened, the table page, its htmx panel and the projector are
    the same HTML. Whatever they show cannot depend on the result, so it cannot spoil it."""
    tables = [judged_table(gm_client, picks) for picks in (PICKS, OTHER)]
    states = [seen(t) for t in tables]
    assert states[0]["vp"] != states[1]["vp"]  # the results do differ
    views = []
    for table in tables:
        views.append(
            [
                normalise(page_of(gm_client, table), table),
                normalise(
                    gm_client.get(
                        table.get_absolute_url(), HTTP_HX_REQUEST="true"
                    ).content.decode(),
                    table,
                ),
                normalise(projector_of(gm_client, table), table),
            ]
        )
    for a, b, where in zip(*views, ("page", "panel", "projector"), strict=True):
        assert a == b, f"the {where} shows something of the result before the reveal"
        assert "data-pick" not in a and "+1" not in a and "+2" not in a, where
    page = views[0][0]
    assert scoreboard(page) == {"Ana": (0, 0), "Bruno": (0, 0), "Caio": (0, 0)}
    assert by_turn_row(page, 1) == ["·", "·", "·"]
    assert "Being revealed" in tale(page, 1)
    assert "Open step 1" in page


def test_each_step_shows_what_it_gave_and_no_more(gm_client):
    table = judged_table(gm_client)
    url = table.get_absolute_url()
    expected = [
        # opened steps: (scores, red cards), the turn's row
        ({"Ana": (2, 0), "Bruno": (1, 0), "Caio": (0, 0)}, ["+2", "+1", "·"]),
        ({"Ana": (2, 0), "Bruno": (2, 0), "Caio": (1, 0)}, ["+2", "+2", "+1"]),
        ({"Ana": (2, 1), "Bruno": (2, 0), "Caio": (1, 0)}, ["+21", "+2", "+1"]),
    ]
    for step, (scores, row) in enumerate(expected, start=1):
        response = open_step(gm_client, table, step)
        assert response.status_code == 302 and response["Location"] == url + "#reveal"
        page = page_of(gm_client, table)
        assert scoreboard(page) == scores, step
        assert by_turn_row(page, 1) == row, step
        assert page.count('class="reveal-step is-open') == step
        assert f"Open step {step + 1}" in page if step < 3 else "Open the points" in page
        # the total of the turn (the set bonus, the gains) only at the last step
        assert "gain-list" not in page
        assert "Being revealed" in tale(page, 1) and "tale-gains" not in tale(page, 1)
    # the red card of step 3 is in the sidebar and the turn's row
    assert 'class="num red has-red">1<' in page
    open_step(gm_client, table, 4)
    page = page_of(gm_client, table)
    assert scoreboard(page) == {"Ana": (2, 1), "Bruno": (2, 0), "Caio": (1, 0)}
    assert "gain-list" in page and "tale-gains" in tale(page, 1)
    assert "Bruno is the bard</h2>" in page  # the next turn goes on once all is open
    assert re.search(r"Ana\s*<strong>\+2</strong>", tale(page, 1))


def test_the_projector_shows_the_same_step(gm_client):
    table = judged_table(gm_client)
    projector = projector_of(gm_client, table)
    assert 'data-reveal-opened="0"' in projector and "not open yet" in projector
    assert "matched:" not in projector and "picked" not in projector
    # the slots the turn was played with, not the next turn's
    entry = reading.state_of(table)["history"][0]
    first = seen(table)["journey"]
    assert entry["turn_number"] == 1 and first  # a new journey is dealt already
    old = story_for_slots(table)
    for card in old.values():
        assert f"/areas/{card}/large/" in projector
    open_step(gm_client, table, 1)
    projector = projector_of(gm_client, table)
    assert 'data-reveal-opened="1"' in projector
    assert "Ana picked 1" in projector and "matched: Bruno" in projector
    assert 'data-slot-step="1"' in projector
    assert "Ana picked 2" not in projector
    page = page_of(gm_client, table)
    assert 'data-reveal-opened="1"' in page  # the table page and the projector agree
    open_step(gm_client, table, 4)
    projector = projector_of(gm_client, table)
    assert "not open yet" not in projector and "Bruno is the bard" in projector


def story_for_slots(table: Table) -> dict[str, str]:
    """The selection the judged turn was played with (before the next turn replaced it)."""
    from games.snapshot import Snapshot

    entry = Snapshot(table).narrative()[0]
    return entry["selection"]


def test_the_projector_poll_notices_an_opened_step(gm_client):
    table = judged_table(gm_client)
    page = projector_of(gm_client, table)
    poll = html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))
    version = re.search(r'data-version="([^"]+)"', page).group(1)
    assert gm_client.get(f"{poll}&since={version}").status_code == 204
    open_step(gm_client, table, 1)
    assert gm_client.get(f"{poll}&since={version}").status_code == 200
    page = projector_of(gm_client, table)
    assert 'data-reveal-opened="1"' in page
    assert re.search(r'data-version="([^"]+)"', page).group(1) == str(int(version) + 1)
    # opening the same step again (a second phone, a resend) changes nothing anyone must see
    open_step(gm_client, table, 1)
    assert gm_client.get(f"{poll}&since={int(version) + 1}").status_code == 204


def test_the_reveal_survives_a_reload_and_another_screen(gm, gm_client):
    table = judged_table(gm_client)
    moves = Move.objects.filter(table=table).count()
    open_step(gm_client, table, 2)
    assert Move.objects.filter(table=table).count() == moves  # not a move of the log
    assert RevealProgress.objects.get(table=table, turn=1).opened == 2
    for client in (gm_client, logged_in(gm)):  # a reload; the same owner on another device
        page = page_of(client, table)
        assert 'data-reveal-opened="2"' in page
        assert page.count('class="reveal-step is-open') == 2 and "Open step 3" in page
    # the snapshot cache dropped and rebuilt: the reveal is where it was
    Table.objects.filter(pk=table.pk).update(state=None)
    table.refresh_from_db()
    assert 'data-reveal-opened="2"' in page_of(gm_client, table)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_opening_is_at_least_up_to_and_never_closes(gm_client):
    table = judged_table(gm_client)
    assert open_step(gm_client, table, 1).status_code == 302
    assert open_step(gm_client, table, 1).status_code == 302  # a second phone, a resend
    assert reveal.opened(table, seen(table)["last_turn"]) == 1
    open_step(gm_client, table, 3)
    open_step(gm_client, table, 2)  # a stale page's button
    assert reveal.opened(table, seen(table)["last_turn"]) == 3
    for bad in ("0", "5", "x", "", "²"):
        response = open_step(gm_client, table, bad)
        assert response.status_code == 400 and "no such step" in response.content.decode()
    stale = open_step(gm_client, table, 1, turn=7)
    assert stale.status_code == 409 and "That reveal is over" in stale.content.decode()
    assert reveal.opened(table, seen(table)["last_turn"]) == 3


def test_htmx_gets_the_panel_and_a_get_opens_nothing(gm_client):
    table = judged_table(gm_client)
    response = open_step(gm_client, table, 1, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="table-panel"')
    assert 'data-reveal-opened="1"' in body and "<html" not in body
    assert response["HX-Replace-Url"] == table.get_absolute_url()
    url = reverse("amnesia_stories:reveal", args=[table.pk])
    # a reload of this address (a GET) opens nothing and shows the table
    again = gm_client.get(url + "?turn=1&step=4")
    assert again.status_code == 302 and again["Location"] == table.get_absolute_url() + "#reveal"
    assert reveal.opened(table, seen(table)["last_turn"]) == 1


def test_only_the_owner_opens_a_step(gm, gm_client, other_client, client):
    table = judged_table(gm_client)
    url = reverse("amnesia_stories:reveal", args=[table.pk])
    data = {"turn": 1, "step": 4}
    # anonymous: sent to the login page; another user: no such table
    anonymous = client.post(url, data)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert other_client.post(url, data).status_code == 404
    # a seat's secret link is no key to a table's reveal: there is no seat route to it, and
    # a seat's token posted as if it were the table's id finds nothing
    token = table.seats.first().token
    assert client.post(f"/seat/{token}/reveal/", data).status_code == 404
    # the owner's own browser without the CSRF token is refused
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(gm)
    assert strict.post(url, data).status_code == 403
    assert reveal.opened(table, seen(table)["last_turn"]) == 0
    assert not RevealProgress.objects.filter(table=table).exists()
    # and through the projector, the others see nothing of the table
    assert (
        other_client.get(reverse("amnesia_stories:projector", args=[table.pk])).status_code == 404
    )


def test_a_turn_undone_and_judged_again_is_revealed_afresh(gm_client):
    table = judged_table(gm_client)
    open_step(gm_client, table, 4)
    table.refresh_from_db()
    response = gm_client.post(
        reverse("games:undo", args=[table.pk]), {"expected_seq": table.last_seq}
    )
    assert response.status_code == 302
    assert seen(table)["phase"] == "answer"
    assert answer_by_laptop(gm_client, table, "Caio", [1, 2, 3]).status_code == 302
    page = page_of(gm_client, table)
    assert 'data-reveal-opened="0"' in page  # another result: nothing of it shown yet
    assert scoreboard(page) == {"Ana": (0, 0), "Bruno": (0, 0), "Caio": (0, 0)}


def test_open_step_is_the_one_write_and_announces_it(gm_client):
    table = judged_table(gm_client)
    heard = []

    def listener(sender, **kwargs):
        heard.append((kwargs["table"].pk, kwargs["turn"], kwargs["opened"]))

    reveal.step_opened.connect(listener)
    try:
        turn = seen(table)["last_turn"]
        assert reveal.open_step(table, turn, 2) == 2
        assert reveal.open_step(table, turn, 1) == 2  # nothing opened: nothing announced
        assert reveal.open_step(table, turn, 99) == 4  # at most every step
    finally:
        reveal.step_opened.disconnect(listener)
    assert heard == [(table.pk, 1, 2), (table.pk, 1, 4)]


def test_the_end_of_the_game_waits_for_the_last_reveal(gm_client):
    table = new_table(gm_client, opt_rounds=1)
    for _turn in range(3):
        tell(gm_client, table)
        for name in ("Ana", "Bruno", "Caio"):
            answer_by_laptop(gm_client, table, name, [1, 2, 3])
        if seen(table)["phase"] != "ended":
            open_step(gm_client, table, 4, turn=seen(table)["last_turn"]["turn_number"])
    state = seen(table)
    assert state["phase"] == "ended" and state["winners"]
    page = page_of(gm_client, table)
    assert "wins!" not in page and "A draw between" not in page and "Final standings" not in page
    assert "then the final standings" in page
    open_step(gm_client, table, 4, turn=3)
    page = page_of(gm_client, table)
    assert "Final standings" in page and ("wins!" in page or "A draw between" in page)


# -- the pictures beside the story's steps --------------------------------------------------------
def imported(gm, name: str = "01_judging_branches.json") -> Table:
    script = json.loads((SCRIPTS / name).read_text())["script"]
    return new_tables.import_script(script, gm)


def test_the_story_so_far_shows_the_slot_the_bard_chose(gm, gm_client):
    """Turn 1: Ana told A08, A06, A10 and matched them to slots 2, 4 and 1 of the selection
    A01..A05: beside each step stands the picture of A02, A04, A01, never the journey's."""
    table = imported(gm)
    page = page_of(gm_client, table)
    first = tale(page, 1)
    shown = re.findall(r"/areas/(A\d\d)/thumb/", first)
    assert shown == ["A02", "A04", "A01"]
    assert "Ana matched slot 2" in first and "so did Bruno" in first
    assert "nobody followed" in first  # step 3: nobody matched Ana
    # the last turn is still to be revealed: no picture, no match, no gain beside it yet
    last = tale(page, 3)
    assert "/areas/" not in last and "matched slot" not in last and "tale-gains" not in last


def test_the_book_shows_the_slot_the_bard_chose(gm, gm_client):
    table = imported(gm)
    story = story_for(table, "en")
    page = gm_client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    chapter = page[page.index('class="journey-steps"') :]
    chapter = chapter[: chapter.index("</ol>")]
    assert re.findall(r"/areas/(A\d\d)/large/", chapter) == ["A02", "A04", "A01"]
    for journey_card in ("A08", "A06", "A10"):
        assert f"/areas/{journey_card}/" not in chapter
