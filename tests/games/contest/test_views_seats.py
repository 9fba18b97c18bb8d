"""The contest's seat pages: each seat sees only its own hand and the game master none, a wrong
token is not found, the seat link's QR code, polling and htmx panels, a refusal in two taps,
taking control with a face card, the winner's phone."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.services import new_tables
from tests.games.contest.pages import (
    build,
    hands,
    make_character,
    move,
    new_table,
    shown_cards,
    state,
    virtual_game,
)

pytestmark = pytest.mark.django_db


def test_each_seat_sees_only_its_own_hand_and_the_game_master_none(gm_client, gm):
    table = virtual_game(gm_client)
    real = hands(table)
    assert all(len(h) == 8 for h in real.values())
    every_card = {c for h in real.values() for c in h}

    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert not shown_cards(gm_page) & every_card
    assert "data-hand-card" not in gm_page
    for seat in table.seats.all():
        assert reverse("contest:seat_qr", args=[table.pk, seat.position]) in gm_page

    anonymous = Client()  # the token is the credential: no login
    for seat in table.seats.all():
        page = anonymous.get(reverse("contest:seat", args=[seat.token])).content.decode()
        mine = set(re.findall(r'data-hand-card="([^"]+)"', page))
        assert mine == set(real[seat.name])
        others = every_card - set(real[seat.name])
        assert not shown_cards(page) & others

    # A challenge, accepted: each contestant plays from their own page.
    move(
        gm_client,
        table,
        by="Ana",
        do="challenge",
        target="Bo",
        contest="a duel",
        attribute="muscle",
    )
    move(gm_client, table, by="Bo", do="accept", attribute="moves")
    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Waiting for Zed (Ana) to play a card from their own page." in gm_page
    assert not shown_cards(gm_page) & {c for h in hands(table).values() for c in h}

    ana = table.seats.get(name="Ana")
    url = reverse("contest:seat_move", args=[ana.token])
    card = real["Ana"][0]
    table.refresh_from_db()
    response = anonymous.post(
        url, {"expected_seq": table.last_seq, "do": "play", "card": card, "by": "Bo"}
    )
    assert response.status_code == 302
    s = state(table)
    assert s["contest"]["played"] == ["Ana"]  # in the seat's own name, whatever was posted
    assert s["contest"]["cards"]["Ana"][0] == card
    # A stale page gets a 409 and a message, and nothing is played.
    bo = table.seats.get(name="Bo")
    response = anonymous.post(
        reverse("contest:seat_move", args=[bo.token]),
        {"expected_seq": 0, "do": "play", "card": real["Bo"][0]},
    )
    assert response.status_code == 409
    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert not shown_cards(gm_page) & {c for h in hands(table).values() for c in h}
    assert "data-hand-card" not in gm_page


def test_a_wrong_token_is_not_found(gm_client, client):
    table = virtual_game(gm_client)
    assert client.get(reverse("contest:seat", args=["not-a-real-token"])).status_code == 404
    assert (
        client.post(reverse("contest:seat_move", args=["nope"]), {"do": "play"}).status_code == 404
    )
    amnesia = new_tables.create_table(table.owner, "amnesia", ["Ana", "Bo"])
    token = amnesia.seats.first().token
    assert client.get(reverse("contest:seat", args=[token])).status_code == 404


def test_the_qr_code_is_an_svg_of_the_seat_link_for_the_owner_only(gm_client, other_client):
    table = virtual_game(gm_client)
    url = reverse("contest:seat_qr", args=[table.pk, 0])
    response = gm_client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert other_client.get(url).status_code == 404
    assert other_client.get(table.get_absolute_url()).status_code == 404


def test_polling_answers_204_until_the_table_moves(gm_client):
    # The table page follows the table through the generic poll (games.live).
    table = virtual_game(gm_client)
    table.refresh_from_db()
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert f'data-version="{table.version}"' in page
    assert reverse("games:poll", args=[table.pk]) + "?key=" in page
    url = reverse("games:poll", args=[table.pk])
    hx = {"HTTP_HX_REQUEST": "true"}
    assert gm_client.get(url, {"since": table.version}, **hx).status_code == 204
    response = gm_client.get(url, {"since": table.version - 1}, **hx)
    assert response.status_code == 200 and response["HX-Trigger"] == "table-changed"
    # a seat's page polls its own token-guarded twin, answered the same way
    seat_poll = reverse("games:seat_poll", args=[table.seats.first().token])
    assert Client().get(seat_poll, {"since": table.version}).status_code == 204
    assert Client().get(seat_poll, {"since": table.version - 1}).status_code == 200


def test_htmx_moves_get_the_panel_only(gm_client):
    table = virtual_game(gm_client)
    response = move(gm_client, table, htmx=True, by="Bo", do="throw_pretzel")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="table-panel"') and "<html" not in body


def test_a_refusal_names_its_lost_card_in_two_taps(gm_client):
    table = new_table(gm_client)
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    move(gm_client, table, by="Ana", do="challenge", target="Bo", contest="x", attribute="brains")
    refusal = {"by": "Bo", "do": "refuse", "penalty": ["drink", "card"]}
    response = build(gm_client, table, refusal, htmx=True)
    body = response.content.decode()
    assert response.status_code == 200 and "Tap the card Yum (Bo) loses" in body
    assert "Take back the last card" not in body
    build(gm_client, table, refusal, "KS")
    s = state(table)
    assert s["phase"] == "story"
    assert s["players"]["Bo"]["lost"] == ["KS"] and s["players"]["Bo"]["drinks"] == 1


def test_a_player_takes_control_with_a_face_card_from_their_own_page(gm_client):
    table = virtual_game(gm_client)
    s = state(table)
    taker, face = next(
        (name, card)
        for name in ("Bo", "Cy")
        for card in s["players"][name]["hand"]
        if card[:-1] in ("J", "Q", "K")
    )
    seat = table.seats.get(name=taker)
    client = Client()
    page = client.get(reverse("contest:seat", args=[seat.token])).content.decode()
    assert "Take control of the story" in page and f'name="card" value="{face}"' in page
    gm_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "face card: from their phone" in gm_page
    table.refresh_from_db()
    response = client.post(
        reverse("contest:seat_move", args=[seat.token]),
        {"expected_seq": table.last_seq, "do": "take_control", "with": "face_card", "card": face},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and 'id="seat-panel"' in response.content.decode()
    s = state(table)
    assert s["controller"] == taker and face not in s["players"][taker]["hand"]
    assert len(s["players"][taker]["hand"]) == 8


def test_the_winners_phone_no_longer_says_it_controls_the_story(gm):
    """The referee keeps the last narrator in an ended game; the winner's phone showed them
    "you control the story" after the end (the demo's winner, Bo, held control at the last
    card)."""
    script = registry.kit("contest").demos(datetime(2026, 1, 2, tzinfo=UTC))[0][1]
    table = new_tables.import_script(script, gm)
    s = state(table)
    assert s["finished"] and s["winners"] == ["Bo"] and s["controller"] == "Bo"
    page = Client().get(reverse("contest:seat", args=[table.seats.get(name="Bo").token]))
    body = page.content.decode()
    assert "wins the game!" in body
    assert "you control the story" not in body and "narrates</span>" not in body
