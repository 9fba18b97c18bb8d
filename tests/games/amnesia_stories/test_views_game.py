"""Amnesia Stories played through the pages: a whole game, the reveal and what it says, pass
the laptop, a stale answer, htmx's panels."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games.amnesia_stories.rules.scoring import judge_turn
from games.models import Move, Table
from tests.games.amnesia_stories.pages import (
    PLAYERS,
    answer_by_laptop,
    media,  # noqa: F401 - autouse: each test's own media folder
    new_table,
    open_reveal,
    position,
    revealed_form,
    seen,
    tell,
)

pytestmark = pytest.mark.django_db


# -- a whole game -------------------------------------------------------------------------------
def test_a_whole_game_through_the_pages(gm_client):
    table = new_table(gm_client, opt_rounds=1)
    rng = random.Random(5)
    expected_vp = dict.fromkeys(PLAYERS, 0)
    for turn in range(3):
        state = seen(table)
        bard = state["bard"]
        page = gm_client.get(table.get_absolute_url()).content.decode()
        assert f"{bard} is the bard" in page and 'value="tell"' in page
        for card in state["journey"]:
            assert f'value="{card}"' in page  # the journey, offered for the story
        story = tell(gm_client, table, text=f"Tale number {turn + 1}, told by {bard}.")
        picks = {p: rng.sample(range(1, 6), 3) for p in PLAYERS}
        gains, _reds = judge_turn(table.options, bard, picks)
        for p in PLAYERS:
            expected_vp[p] += gains[p]
        if turn % 2 == 0:  # pass the laptop, in the order the page offers it
            for _ in PLAYERS:
                state = seen(table)
                page = gm_client.get(table.get_absolute_url()).content.decode()
                name = re.search(r"Hand the laptop to (\w+)", page).group(1)
                assert name not in state["answered"]
                response = answer_by_laptop(gm_client, table, name, picks[name])
                assert response.status_code == 302
        else:  # physical number cards: everyone's, entered after the reveal
            response = gm_client.post(
                reverse("amnesia_stories:revealed", args=[table.pk]), revealed_form(table, picks)
            )
            assert response.status_code == 302, response.content.decode()[:3000]
        state = seen(table)
        assert state["history"][-1]["picks"] == picks
        assert state["history"][-1]["story"] == story
        if turn < 2:
            open_reveal(gm_client, table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    state = seen(table)
    worst = max(state["red_cards"].values())
    for p in PLAYERS:
        penalty = worst if worst and state["red_cards"][p] == worst else 0
        assert state["vp"][p] == expected_vp[p] - penalty
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Final standings" not in page
    for turn in range(3):  # the story so far: every bard's narration
        assert f"Tale number {turn + 1}" in page
    # the last story is being revealed: no winner before its steps are open
    assert 'id="reveal"' in page and page.count('data-reveal-step="') == 4
    assert "wins!" not in page and "A draw between" not in page and "data-pick" not in page
    open_reveal(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    if len(state["winners"]) > 1:
        assert "A draw between" in page
    else:
        assert f"{state['winners'][0]} wins!" in page
    # once the reveal is open, the last turn's picks are shown
    last = state["last_turn"]
    assert f'data-pick="{last["picks"][last["bard"]][0]}"' in page


def test_the_reveal_says_who_matched_with_points_and_red_cards(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    # Ana is the bard: step 1 Bruno matches (some), step 2 both (all), step 3 nobody (red card)
    picks = {"Ana": [1, 2, 3], "Bruno": [1, 2, 4], "Caio": [5, 2, 4]}
    response = gm_client.post(
        reverse("amnesia_stories:revealed", args=[table.pk]), revealed_form(table, picks)
    )
    assert response.status_code == 302 and response["Location"].endswith("#reveal")
    open_reveal(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    reveal = page[page.index('id="reveal"') : page.index("</section>", page.index('id="reveal"'))]
    assert "Some of the audience matched: Ana gets +2." in reveal
    assert "Everyone matched" in reveal and "Nobody matched: Ana gets a red card." in reveal
    gains = re.findall(r'class="who">(\w+)</span> <strong>([+-]\d+) VP', reveal)
    assert gains == [("Ana", "+2"), ("Bruno", "+2"), ("Caio", "+1")]
    state = seen(table)
    assert state["vp"] == {"Ana": 2, "Bruno": 2, "Caio": 1}
    assert state["red_cards"]["Ana"] == 1


def test_revealed_cards_are_all_or_nothing(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    answer_by_laptop(gm_client, table, "Ana", [1, 2, 3])
    before = seen(table)
    picks = {"Bruno": [1, 2, 3], "Caio": [4, 4, 5]}  # Caio repeats a number
    response = gm_client.post(
        reverse("amnesia_stories:revealed", args=[table.pk]), revealed_form(table, picks)
    )
    assert response.status_code == 400
    assert "Caio: You hold one card of each number" in response.content.decode()
    table.refresh_from_db()
    assert seen(table)["answered"] == before["answered"] == ["Ana"]
    assert Move.objects.filter(table=table).count() == 2
    # the form offers only who has not answered yet
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert f'name="picks-{position(table, "Ana")}-1"' not in page
    assert f'name="picks-{position(table, "Bruno")}-1"' in page


def test_pass_the_laptop_goes_from_player_to_player_and_back_to_the_table(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    response = answer_by_laptop(gm_client, table, "Ana", [1, 2, 3])
    assert response["Location"] == reverse("amnesia_stories:handoff", args=[table.pk, 1])
    # Ana again: her screen now sends the laptop on, and a second answer is refused
    again = gm_client.get(reverse("amnesia_stories:answer", args=[table.pk, 0]))
    assert again.status_code == 302
    bad = answer_by_laptop(gm_client, table, "Bruno", [1, 1, 2])
    assert bad.status_code == 400 and "picks must all differ" in bad.content.decode()
    assert "checked" not in bad.content.decode()  # the refused picks are not echoed
    answer_by_laptop(gm_client, table, "Bruno", [3, 1, 2])
    response = answer_by_laptop(gm_client, table, "Caio", [3, 1, 2])
    assert response["Location"] == table.get_absolute_url() + "#reveal"


def test_stale_answer_is_409_and_changes_nothing(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    response = gm_client.post(
        reverse("amnesia_stories:answer", args=[table.pk, 1]),
        {"pick-1": 1, "pick-2": 2, "pick-3": 3, "expected_seq": 0},
    )
    assert response.status_code == 409 and "moved on" in response.content.decode()
    assert seen(table)["answered"] == []


def test_htmx_gets_the_panel_for_moves_and_revealed_cards(gm_client):
    table = new_table(gm_client)
    state = seen(table)
    response = gm_client.post(
        reverse("games:move", args=[table.pk]),
        {"by": "Ana", "do": "tell", "story": state["journey"][:3], "expected_seq": 0},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="table-panel"')
    assert "Everyone answers in secret" in body and "<html" not in body
    picks = {"Ana": [1, 2, 3], "Bruno": [3, 2, 1], "Caio": [2, 1, 3]}
    response = gm_client.post(
        reverse("amnesia_stories:revealed", args=[table.pk]),
        revealed_form(table, picks),
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and 'id="reveal"' in body and "<html" not in body
    assert "The reveal of Ana’s story" in body and "Bruno is the bard</h2>" not in body
    response = gm_client.post(
        reverse("amnesia_stories:reveal", args=[table.pk]),
        {"turn": 1, "step": 4},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="table-panel"')
    assert "Bruno is the bard</h2>" in body and "<html" not in body


def test_the_reveal_says_when_an_obvious_step_still_pays_the_bard():
    from types import SimpleNamespace

    from games.amnesia_stories import page

    turn = {
        "turn_number": 1,
        "bard": "Ana",
        "story": ["A01", "A02", "A03"],
        "picks": {"Ana": [1, 2, 3], "Bruno": [1, 2, 3], "Caio": [1, 2, 3]},
        "gains": {"Ana": 4, "Bruno": 5, "Caio": 5},
        "red_cards": {"Ana": 0, "Bruno": 0, "Caio": 0},
    }
    draft3 = {"audience_points": 1, "bard_points": 2, "set_bonus": 2}
    draft3 |= {"red_card_on_all_wrong": False, "all_matched": "zero_at_climax"}
    shown = page.reveal(turn, {}, draft3, lambda c: {"id": c})
    # every step all matched: the bard scores before the climax, not at it
    assert [(s["outcome"], s["bard_points"]) for s in shown["steps"]] == [
        ("all", 2),
        ("all", 2),
        ("all", 0),
    ]
    assert shown["bonus"] == [{"name": "Bruno", "points": 2}, {"name": "Caio", "points": 2}]
    shown = page.reveal(turn, {}, {**draft3, "all_matched": "zero"}, lambda c: {"id": c})
    assert [s["bard_points"] for s in shown["steps"]] == [0, 0, 0]
    # a physical table that cannot deal a journey may deal its discard again
    table = SimpleNamespace(extra={"area_ids": [f"c{i}" for i in range(1, 7)]})
    seen = {
        "turn_number": 2,
        "options": {"choices": 3},
        "discard": [],
        "selection": {"1": "c1", "2": "c2", "3": "c3"},
        "journey": ["c4", "c5", "c6"],
    }
    assert page.undealt(table, seen) == ["c1", "c2", "c3"]
    table.extra["area_ids"] = [f"c{i}" for i in range(1, 10)]
    assert page.undealt(table, seen) == ["c7", "c8", "c9"]
