"""Amnesia Stories' tables made through the pages: the new-table form and its presets, the
physical deal, a custom deck, the demo tables."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.amnesia_stories import decks
from games.models import Table
from games.services import reading
from tests.games.amnesia_stories.pages import (
    PLAYERS,
    answer_by_laptop,
    media,  # noqa: F401 - autouse: each test's own media folder
    new_table,
    open_reveal,
    post_move,
    seen,
    tell,
)

pytestmark = pytest.mark.django_db


# -- the new-table form -------------------------------------------------------------------------
def test_new_table_form_shows_draft_4_defaults_and_the_draft_3_preset(gm_client):
    url = reverse("games:table_new")
    page = gm_client.get(url + "?game=amnesia_stories").content.decode()
    for name, default in [("choices", 5), ("questions", 3), ("bard_points", 2), ("rounds", 2)]:
        assert re.search(rf'name="opt_{name}"[^>]*value="{default}"', page)
    assert "preset=draft3" in page and 'name="custom_deck"' in page
    page = gm_client.get(url + "?game=amnesia_stories&preset=draft3").content.decode()
    for name, value in [("choices", 6), ("questions", 4), ("bard_points", 1), ("set_bonus", 2)]:
        assert re.search(rf'name="opt_{name}"[^>]*value="{value}"', page), name
    # red cards for a step nobody matched came with draft 4 (the seed's changelog)
    assert re.search(r'name="opt_red_card_on_all_wrong"', page)
    assert not re.search(r'name="opt_red_card_on_all_wrong"[^>]*checked', page)
    # Amnesia's own form is unchanged: no preset, no deck
    amnesia = gm_client.get(url + "?game=amnesia").content.decode()
    assert "preset=" not in amnesia and "custom_deck" not in amnesia


def test_draft_3_table_and_more_players_on_the_built_in_deck(gm_client):
    table = new_table(gm_client, opt_choices=6, opt_questions=4, opt_bard_points=1)
    assert table.options["choices"] == 6 and table.options["questions"] == 4
    assert len(seen(table)["selection"]) == 6
    # The deck refills from the discarded selections (contract ruling): five players may play
    # the built-in 48 cards; only the 3..8 players of the game itself are checked.
    data = {"game": "amnesia_stories", "deck_mode": "virtual"}
    data |= {f"opt_{k}": v for k, v in table.options.items() if not isinstance(v, bool)}
    response = gm_client.post(reverse("games:table_new"), data | {"players": "A\nB\nC\nD\nE"})
    assert response.status_code == 302
    assert Table.objects.latest("pk").seats.count() == 5
    players = "\n".join("ABCDEFGHI")
    response = gm_client.post(reverse("games:table_new"), data | {"players": players})
    assert response.status_code == 400 and "3 to 8 players" in response.content.decode()


def test_the_draft_3_preset_starts_a_table_with_four_players(gm_client):
    """What the form shows for the draft 3 preset, posted back as it is, with 4 players:
    6 choices x 2 rounds x 4 players would draw 54 of the 48 cards without the refill."""
    url = reverse("games:table_new")
    page = gm_client.get(url + "?game=amnesia_stories&preset=draft3").content.decode()
    data = {"game": "amnesia_stories", "players": "Ana\nBruno\nCaio\nDuda"}
    data["deck_mode"] = "virtual"
    for name, value in re.findall(r'<input type="number" name="(opt_\w+)" value="(-?\d+)"', page):
        data[name] = value
    for name in re.findall(r'<input type="checkbox" name="(opt_\w+)"[^>]*checked', page):
        data[name] = "on"
    for name, body in re.findall(r'<select name="(opt_\w+)"[^>]*>(.*?)</select>', page, re.S):
        data[name] = re.search(r'<option value="(\w+)" selected', body).group(1)
    assert data["opt_all_matched"] == "zero_at_climax" and "opt_red_card_on_all_wrong" not in data
    response = gm_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.latest("pk")
    assert table.seats.count() == 4
    # the corrected draft 3 (version 2), not version 1, which missed the climax exception
    assert (table.ruleset.name, table.ruleset.version) == ("Amnesia Stories draft 3", 2)
    assert table.options == {
        "choices": 6,
        "questions": 4,
        "rounds": 2,
        "bard_points": 1,
        "audience_points": 1,
        "set_bonus": 2,
        "red_card_on_all_wrong": False,
        "starting_vp": 0,
        "all_matched": "zero_at_climax",
    }
    state = seen(table)
    assert (state["turns"], len(state["selection"]), len(state["journey"])) == (8, 6, 6)
    assert state["deck_count"] == 48 - 12


# -- physical deck --------------------------------------------------------------------------------
def test_physical_deal_through_the_page(gm_client):
    table = new_table(gm_client, deck_mode="physical", opt_rounds=1)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "deal the cards" in page
    assert page.count('name="slots"') == 5 and page.count('name="journey"') == 5
    assert page.count('class="deal-card"') == 48
    slots = ["A10", "A20", "A30", "A40", "A05"]
    journey = ["A01", "A02", "A03", "A04", "A06"]
    response = post_move(gm_client, table, by="Ana", do="deal", slots=slots, journey=journey)
    assert response.status_code == 302
    state = seen(table)
    assert state["phase"] == "tell" and list(state["selection"].values()) == slots
    tell(gm_client, table)
    for name in PLAYERS:
        answer_by_laptop(gm_client, table, name, [1, 2, 3])
    open_reveal(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    # turn 2: only the journey is dealt; the dealt cards are no longer offered
    assert page.count('name="slots"') == 0 and page.count('name="journey"') == 5
    assert page.count('class="deal-card"') == 38
    assert 'data-card="A01"' not in page


# -- custom decks ---------------------------------------------------------------------------------
def test_a_table_with_a_custom_deck(gm, gm_client):
    from tests.games.amnesia_stories.test_decks import IDS, good_files, make_zip

    deck = decks.import_deck(gm, "Forest deck", make_zip(good_files()))
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    assert "Forest deck" in page
    table = new_table(gm_client, custom_deck=deck.pk, opt_choices=3, opt_questions=2, opt_rounds=1)
    assert table.extra["area_ids"] == IDS and table.extra["custom_deck"] == deck.pk
    state = seen(table)
    assert set(state["selection"].values()) <= set(IDS)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    card = deck.cards.get(card_id=state["selection"]["1"])
    # The pictures come through the table's own door, never from MEDIA_URL (test_deck_pictures)
    assert reverse("games:picture", args=[table.pk, card.pk, "large"]) in page
    assert "/media/" not in page and card.image.name not in page
    assert "The hero passed by place" in page  # the journey's texts come from the CSV
    # too small a deck for the options: the referee says so on the form
    response = gm_client.post(
        reverse("games:table_new"),
        {
            "game": "amnesia_stories",
            "players": "A\nB\nC",
            "deck_mode": "virtual",
            "custom_deck": deck.pk,
        }
        | {f"opt_{k}": v for k, v in table.options.items() if not isinstance(v, bool)}
        | {"opt_choices": 7},
    )
    # 7 choices deal 14 cards at the start (the discard refills the deck after that)
    assert response.status_code == 400 and "deck holds only 12" in response.content.decode()


def test_demo_tables_load(gm):
    from io import StringIO

    from django.core.management import call_command

    call_command("demo", stdout=StringIO())
    finished = Table.objects.get(name="The hero who forgot")
    ongoing = Table.objects.get(name="Footprints in the sand")
    assert finished.status == Table.Status.FINISHED
    assert reading.state_of(finished)["penalty"]["Caio"] == 2
    assert finished.moves.exclude(text="").count() == 6
    state = reading.state_of(ongoing)
    assert state["phase"] == "answer" and len(state["seats"]) == 4
