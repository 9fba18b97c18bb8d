"""The contest's pages against hostile input, resends and pretzels at once: malformed
characters and seat moves get a 400 and keep nothing, a resend is kept once, pretzels thrown
from one page at once all land."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.contest.models import Character, SeatCharacter
from tests.games.contest.pages import new_table, post, state, virtual_game

pytestmark = pytest.mark.django_db


# -- hostile input, resends and pretzels at once -------------------------------------------------
def test_a_character_that_is_no_number_or_no_character_gets_400(gm_client, gm):
    table = new_table(gm_client)
    url = reverse("contest:bring", args=[table.pk])
    for raw in ("abc", "", "-1", "1" * 40, "１"):
        response = post(gm_client, url, table, by="Bo", character=raw)
        assert response.status_code == 400, raw
        assert "Choose one of your saved characters" in response.content.decode()
    # No text may hold a NUL (amnesia_site.middleware): refused before the view.
    response = post(gm_client, url, table, by="Bo", character="3\x00")
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not table.moves.exists() and not SeatCharacter.objects.exists()


def test_a_saved_character_brought_twice_by_a_resend_sits_once(gm_client, gm):
    zed = Character.objects.create(owner=gm, name="Zed", brains=3, muscle=3, moves=3, coolness=3)
    table = new_table(gm_client)
    url = reverse("contest:bring", args=[table.pk])
    data = {"by": "Bo", "character": zed.pk, "expected_seq": 0, "client_id": "bring-1"}
    assert gm_client.post(url, data).status_code == gm_client.post(url, data).status_code == 302
    assert table.moves.count() == 1 and SeatCharacter.objects.count() == 1


def test_a_character_made_and_kept_by_a_resend_is_kept_once(gm_client, gm):
    table = new_table(gm_client)
    url = reverse("contest:table_character", args=[table.pk])
    data = {"by": "Ana", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
    data |= {"extra_points": 0, "keep": "true", "expected_seq": 0, "client_id": "make-1"}
    assert gm_client.post(url, data).status_code == gm_client.post(url, data).status_code == 302
    assert Character.objects.count() == 1 and table.moves.count() == 1


@pytest.mark.parametrize(
    "fields, says",
    [
        ({"name": "Z" * 61}, "not one this move can take"),
        ({"name": "Zed\x00"}, "NUL"),
        ({"extra_points": "9" * 5000}, "The points won before must be a whole number"),
        ({"extra_points": 2**40, "brains": 3 + 2**40}, "not one this move can take"),
        ({"mood": "grim"}, "reads no field called"),
        ({"move": "[" * 50_000 + "]" * 50_000}, "levels deep"),
        ({"move": '{"by": "Ana", "name": "Zed", "brains": 1' + "0" * 5000 + "}"}, "too long"),
    ],
)
def test_a_malformed_character_at_the_table_gets_400_and_keeps_nothing(gm_client, fields, says):
    table = new_table(gm_client)
    data = {"by": "Ana", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
    data |= {"extra_points": 0, "keep": "true", **fields}
    response = post(gm_client, reverse("contest:table_character", args=[table.pk]), table, **data)
    assert response.status_code == 400 and says in response.content.decode()
    assert not table.moves.exists() and not Character.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"do": "character", "name": "Zed", "mood": "grim"},
        {"move": "[" * 50_000 + "]" * 50_000},
        {"move": '{"do": "character", "brains": ' + "7" * 5000 + "}"},
        {"move": '{"do": "character", "name": "Zed", "brains": NaN}'},
        {"do": "character", "name": "Zed", "expected_turn": "x" * 500},
        {"do": "character", "name": "Zed", "client_id": "no spaces allowed"},
    ],
)
def test_a_malformed_seat_move_gets_400_and_plays_nothing(gm_client, client, fields):
    """A seat's link needs no login: whoever holds it may send anything."""
    table = new_table(gm_client)
    seat = table.seats.get(name="Ana")
    data = {"brains": 3, "muscle": 3, "moves": 3, "coolness": 3, "extra_points": 0, **fields}
    response = client.post(reverse("contest:seat_move", args=[seat.token]), data)
    assert response.status_code == 400
    assert 'class="alert error"' in response.content.decode()
    assert not table.moves.exists()


def test_a_seat_move_with_a_nul_gets_400_in_words_and_plays_nothing(gm_client, client):
    table = new_table(gm_client)
    seat = table.seats.get(name="Ana")
    data = {"do": "character", "name": "Zed\x00", "brains": 3, "muscle": 3, "moves": 3}
    response = client.post(reverse("contest:seat_move", args=[seat.token]), data)
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not table.moves.exists()


@pytest.mark.parametrize(
    "move_text",
    [
        "[" * 50_000 + "]" * 50_000,
        '{"do": "play", "by": "Ana", "ham": ' + "9" * 5000 + "}",
        '{"do": "play", "by": "Ana", "draws": 5}',
        '{"do": "play", "by": "Ana", "card": ["7H"]}',
        '{"do": "play", "by": "Ana", "junk": 1}',
        '{"do": "play", "by": "An\\u0000a"}',
        '{"do": "play", "by": "' + "y" * 20_000 + '"}',  # it would ride in the next address
        '{"do": "refuse", "by": "Ana", "penalty": "' + "p" * 20_000 + '"}',
    ],
)
def test_the_builder_refuses_what_it_cannot_build(gm_client, move_text):
    table = new_table(gm_client)
    response = post(gm_client, reverse("contest:build", args=[table.pk]), table, move=move_text)
    assert response.status_code == 400 and not table.moves.exists()


def test_pretzels_thrown_from_one_page_at_once_all_land(gm_client):
    table = virtual_game(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    form = re.search(r'<form [^>]*class="pretzels move-row".*?</form>', page, re.S)
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))
    assert hidden["expected_turn"] == "control/1"
    url = reverse("games:move", args=[table.pk])
    for thrower in ("Bo", "Cy"):  # both tapped before the page heard of the other's throw
        response = gm_client.post(url, {**hidden, "client_id": f"p-{thrower}", "by": thrower})
        assert response.status_code == 302
    assert state(table)["players"]["Ana"]["pretzels"] == 2
