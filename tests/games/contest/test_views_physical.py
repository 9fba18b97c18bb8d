"""A contest tapped in at the game master's screen: a whole physical game card by card, stale
moves and bad picks refused with a message, the unnamed challenge's penalty, drinks shown as
penalty points, the demo games."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.contest.models import Character, SeatCharacter
from games.models import Table
from games.services import new_tables, reading
from tests.games.contest.pages import build, make_character, move, new_table, state

pytestmark = pytest.mark.django_db


def test_a_whole_physical_game_tapped_in(gm_client, gm):
    table = new_table(gm_client, opt_pretzel_limit=1)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Make a new character" in page
    assert make_character(gm_client, table, "Ana", "Zed").status_code == 302
    response = make_character(gm_client, table, "Bo", "Yum", brains=2, muscle=4)
    assert response.status_code == 302
    assert state(table)["phase"] == "story"
    # Kept for later games, and linked to the seats that played them.
    assert set(Character.objects.filter(owner=gm).values_list("name", flat=True)) == {"Zed", "Yum"}
    assert SeatCharacter.objects.filter(seat__table=table).count() == 2

    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Zed (Ana) controls the story" in page
    assert "data-countdown" in page and 'data-seconds="60"' in page
    assert "Forgot to use the character’s name" in page

    response = move(
        gm_client,
        table,
        by="Ana",
        do="challenge",
        target="Bo",
        contest="a car chase",
        attribute="moves",
        named="true",
        text="Zed floors it through the market.",
    )
    assert response.status_code == 302
    response = move(gm_client, table, by="Bo", do="accept", attribute="brains")
    assert response.status_code == 302

    # Ana's 5♦ on moves chains K♦ (a face card keeps the chain) and stops at 3♠.
    play = {"by": "Ana", "do": "play"}
    response = build(gm_client, table, play, "5D", htmx=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert "chain goes on" in body and 'name="pick" value="5D"' in body
    assert re.search(r'value="5D"[^>]*disabled', body)  # already tapped
    pending = {"by": "Ana", "do": "play", "card": "5D"}
    response = build(gm_client, table, pending, "KD")  # plain post: redirect to the builder
    assert response.status_code == 302 and "/contest/build/?move=" in response["Location"]
    assert "chain goes on" in gm_client.get(response["Location"]).content.decode()
    response = build(gm_client, table, {**pending, "draws": ["KD"]}, "3S")
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    s = state(table)
    assert s["contest"]["cards"]["Ana"] == ["5D", "KD", "3S"]
    assert s["contest"]["totals"]["Ana"] == 11

    # Bo's 4♠ on brains chains 9♣: 2 + 4 + 9 = 15.
    build(gm_client, table, {"by": "Bo", "do": "play"}, "4S")
    build(gm_client, table, {"by": "Bo", "do": "play", "card": "4S"}, "9C")
    s = state(table)
    assert s["phase"] == "penalty" and s["owed"] == {"Ana": 1}
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "2 + 4 + 9 =" in page and "Lose a card…" in page

    # The loser names the card lost: two taps (open the grid, tap the card).
    response = build(gm_client, table, {"by": "Ana", "do": "lose_card"}, htmx=True)
    assert "Tap the card Zed (Ana) loses" in response.content.decode()
    build(gm_client, table, {"by": "Ana", "do": "lose_card"}, "10H")
    s = state(table)
    assert s["phase"] == "story" and s["players"]["Ana"]["lost"] == ["10H"]
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Zed floors it through the market." in page  # the narration, in the story
    assert "Yum (Bo) wins against Zed (Ana) with the higher total." in page

    # One pretzel is the limit at this table: Ana is out and Bo wins.
    assert move(gm_client, table, by="Bo", do="throw_pretzel").status_code == 302
    s = state(table)
    assert s["finished"] and s["winners"] == ["Bo"]
    assert table.status == Table.Status.FINISHED
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Yum (Bo) wins the game!" in page
    assert "buried under pretzels" in page
    assert "Yum earned 1 point: spend it on the character’s sheet." in page
    yum = Character.objects.get(name="Yum")
    assert yum.unspent_points == 1
    assert Character.objects.get(name="Zed").unspent_points == 0


def test_stale_moves_and_bad_picks_are_refused_with_a_message(gm_client):
    table = new_table(gm_client)
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    response = move(gm_client, table, expected_seq=0, by="Bo", do="throw_pretzel")
    assert response.status_code == 409 and "moved on" in response.content.decode()
    move(gm_client, table, by="Ana", do="challenge", target="Bo", contest="x", attribute="muscle")
    move(gm_client, table, by="Bo", do="accept", attribute="muscle")
    build(gm_client, table, {"by": "Ana", "do": "play"}, "5S")
    # 5♠ is face up on the table: tapping it again is refused and nothing is played.
    response = build(gm_client, table, {"by": "Bo", "do": "play"}, "5S", htmx=True)
    assert response.status_code == 400
    assert "already face up" in response.content.decode()
    assert state(table)["contest"]["played"] == ["Ana"]
    response = build(gm_client, table, {"by": "Ana", "do": "nonsense"})
    assert response.status_code == 400
    response = build(gm_client, table, {"by": "Bo", "do": "play"}, "ZZ")
    assert response.status_code == 400 and "no such card" in response.content.decode()


def test_the_unnamed_challenge_button_applies_the_penalty(gm_client):
    table = new_table(gm_client)
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    move(
        gm_client,
        table,
        by="Ana",
        do="challenge",
        target="Bo",
        contest="a staring match",
        attribute="coolness",
        named="false",
    )
    s = state(table)
    assert s["phase"] == "penalty" and s["owed"] == {"Ana": 1}
    move(gm_client, table, by="Ana", do="drink")
    assert state(table)["players"]["Ana"]["drinks"] == 1


def test_drinks_can_be_shown_as_penalty_points(gm_client):
    table = new_table(gm_client, drinks_as="penalty_points")
    assert table.extra == {"drinks_as": "penalty_points"}
    make_character(gm_client, table, "Ana", "Zed", keep=False)
    make_character(gm_client, table, "Bo", "Yum", keep=False)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "2 penalty points" in page and "Penalty points" in page
    url = reverse("contest:display", args=[table.pk])
    assert gm_client.post(url, {"drinks_as": "drinks"}).status_code == 302
    table.refresh_from_db()
    assert table.extra == {}
    assert "2 drinks" in gm_client.get(table.get_absolute_url()).content.decode()
    # A display setting, not a rule: the exported script replays to the same state.
    assert gm_client.post(url, {"drinks_as": "sips"}).status_code == 302
    table.refresh_from_db()
    assert reading.script_of(table)["drinks_as"] == "sips"
    assert reading.rebuild_state(table) == reading.state_of(table)


def test_the_demo_games_replay_one_finished_one_in_play(gm):
    from datetime import UTC, datetime

    from games.contest.demo import demos

    finished, playing = (
        new_tables.import_script(script, gm, name) for name, script in demos(datetime.now(UTC))
    )
    assert finished.status == Table.Status.FINISHED and finished.deck_mode == "physical"
    assert playing.status == Table.Status.ACTIVE and playing.deck_mode == "virtual"
    assert reading.state_of(playing)["phase"] == "contest"
