"""Moves two phones send at once: the contestants' cards (each once, "in any order", the draws
in the order the plays are stored), a forfeit before a card, pretzels eaten meanwhile. Each is
judged against the round it was sent for, never against the log's length, and refused once
that round is over."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.rules import get_game
from games.services import new_tables, reading, validating, writing

pytestmark = pytest.mark.django_db

GAME = get_game("contest")
ATTRS = {"brains": 3, "muscle": 3, "moves": 3, "coolness": 3, "extra_points": 0}
# Dealt one at a time from Ana's seat: Ana 4♣ K♥ Q♥ J♥, Bo 5♣ K♦ Q♦ J♦. Then the draws: 2♥,
# 3♦, then what the replayed round draws.
DECK = ["4C", "5C", "KH", "KD", "QH", "QD", "JH", "JD", "2H", "3D", "6S", "7S", "8S", "9S"]


def contest_table(gm, before=(), accept=True):
    """A virtual contest of muscle, Ana against Bo (``before`` played ahead of the challenge),
    accepted: both are to play a card (or, without ``accept``, Bo is to answer)."""
    table = new_tables.create_table(
        gm, "contest", ["Ana", "Bo"], start="Ana", deck=DECK, options={"hand_size": 4}
    )
    moves = [
        {"by": "Ana", "do": "character", "name": "Zed", **ATTRS},
        {"by": "Bo", "do": "character", "name": "Yum", **ATTRS},
        *before,
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "x", "attribute": "muscle"},
    ]
    if accept:
        moves.append({"by": "Bo", "do": "accept", "attribute": "muscle"})
    writing.play_many(table, moves, 0, gm)
    table.refresh_from_db()
    assert reading.state_of(table)["phase"] == ("contest" if accept else "response")
    return table


def now(table):
    table.refresh_from_db()
    state = reading.state_of(table)
    return table.last_seq, GAME.turn_marker(state), state


def test_both_cards_sent_from_one_version_are_kept_in_the_order_stored(gm):
    table = contest_table(gm)
    seq, turn, _ = now(table)
    # Both phones were drawn at the same version; Bo's card reaches the table first.
    writing.play_many(table, [{"by": "Bo", "do": "play", "card": "5C"}], seq, expected_turn=turn)
    writing.play_many(table, [{"by": "Ana", "do": "play", "card": "4C"}], seq, expected_turn=turn)
    assert [m.payload["by"] for m in table.moves.order_by("seq")][-2:] == ["Bo", "Ana"]
    _, replay, state = now(table)
    # The draws follow the order stored: Bo's club drew the first card (2♥), Ana's the next.
    first = state["contest"]["rounds"][0]
    assert first["draws"] == {"Bo": ["2H"], "Ana": ["3D"]}
    # 3 + 5 + 2 = 3 + 4 + 3: a tie, replayed (the default rule) as a new round.
    assert first["outcome"] == "tie" and state["phase"] == "contest"
    assert state["contest"]["round"] == 2 and replay != turn
    # A card still on its way for the tied round is not a card for the replay.
    with pytest.raises(validating.StaleTurn):
        writing.play_many(
            table, [{"by": "Ana", "do": "play", "card": "KH"}], seq, expected_turn=turn
        )
    with pytest.raises(validating.StaleTurn):
        writing.play_many(
            table, [{"by": "Ana", "do": "forfeit", "penalty": "drink"}], seq, expected_turn=turn
        )
    assert state["contest"]["played"] == [] and now(table)[0] == seq + 2
    # Sent for the replay, both count again, whatever the log's length the pages saw.
    writing.play_many(table, [{"by": "Ana", "do": "play", "card": "KH"}], seq, expected_turn=replay)
    writing.play_many(
        table, [{"by": "Bo", "do": "forfeit", "penalty": "drink"}], 0, expected_turn=replay
    )
    _, _, state = now(table)
    assert state["last_contest"]["winner"] == "Ana" and state["last_contest"]["how"] == "forfeit"


def test_a_pretzel_eaten_and_a_forfeit_sent_while_the_other_plays_count(gm):
    table = contest_table(gm, before=[{"by": "Bo", "do": "throw_pretzel"}])
    seq, turn, _ = now(table)
    writing.play_many(table, [{"by": "Bo", "do": "play", "card": "5C"}], seq, expected_turn=turn)
    writing.play_many(
        table, [{"by": "Ana", "do": "eat_pretzels", "count": 1}], seq, expected_turn=turn
    )
    # Ana has not played: she may still forfeit, from the page Bo's card has not reached.
    writing.play_many(
        table, [{"by": "Ana", "do": "forfeit", "penalty": "drink"}], seq, expected_turn=turn
    )
    _, _, state = now(table)
    assert state["players"]["Ana"]["pretzels"] == 0 and state["players"]["Ana"]["eaten"] == 1
    assert state["last_contest"]["winner"] == "Bo" and state["last_contest"]["how"] == "forfeit"
    # The contest is over: a late card for it is refused, never played into what follows.
    with pytest.raises(validating.StaleTurn):
        writing.play_many(
            table, [{"by": "Ana", "do": "play", "card": "4C"}], seq, expected_turn=turn
        )


def test_the_answer_to_a_challenge_is_still_judged_against_the_log(gm):
    """Forfeiting is also the challenged player's answer; that one depends on the challenge,
    and a second challenge in the same narrator's turn carries the same marker."""
    table = contest_table(gm, accept=False)
    seq, turn, _ = now(table)
    refuse = {"by": "Bo", "do": "refuse", "penalty": ["drink", "drink"]}
    again = {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "y", "attribute": "moves"}
    writing.play_many(table, [refuse, again], seq, gm)
    assert now(table)[1] == turn  # the narrator's turn goes on: the pretzels' marker stays
    # Bo's forfeit of the first challenge, sent with that marker, is not an answer to this one.
    with pytest.raises(validating.StaleMove) as refused:
        writing.play_many(
            table, [{"by": "Bo", "do": "forfeit", "penalty": "card"}], seq, expected_turn=turn
        )
    assert not isinstance(refused.value, validating.StaleTurn)
    # A pretzel from that page still lands: the narrator's turn is the same.
    writing.play_many(table, [{"by": "Bo", "do": "throw_pretzel"}], seq, expected_turn=turn)
    assert now(table)[2]["players"]["Ana"]["pretzels"] == 1


def seat_play_form(client, seat) -> dict[str, str]:
    """The hidden fields of the play form on a seat's own page, as the phone drew it."""
    page = client.get(reverse("contest:seat", args=[seat.token])).content.decode()
    form = re.search(r'<form [^>]*class="hand-form".*?</form>', page, re.S)
    assert form, "no card to play on the page"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0)))


def test_two_phones_play_their_cards_from_the_same_page_version(gm):
    table = contest_table(gm)
    ana, bo = (Client(), table.seats.get(name="Ana")), (Client(), table.seats.get(name="Bo"))
    # Both pages are drawn before either card is sent: the same version on both phones.
    forms = {seat.name: (client, seat, seat_play_form(client, seat)) for client, seat in (bo, ana)}
    assert forms["Ana"][2]["expected_seq"] == forms["Bo"][2]["expected_seq"]
    for name, card in (("Bo", "5C"), ("Ana", "4C")):
        client, seat, hidden = forms[name]
        url = reverse("contest:seat_move", args=[seat.token])
        response = client.post(url, {**hidden, "card": card}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, (name, response.status_code)
    moves = [m.payload for m in table.moves.order_by("seq")][-2:]
    assert [(m["by"], m["card"]) for m in moves] == [("Bo", "5C"), ("Ana", "4C")]
    rounds = now(table)[2]["contest"]["rounds"]
    assert rounds[0]["draws"] == {"Bo": ["2H"], "Ana": ["3D"]}


def test_the_laptop_forfeits_for_one_contestant_while_the_other_plays(gm, gm_client):
    table = contest_table(gm)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    forms = re.findall(r'<form method="post".*?</form>', page, re.S)
    forfeit = next(f for f in forms if "&quot;forfeit&quot;" in f and "&quot;Ana&quot;" in f)
    fields = {k: html.unescape(v) for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', forfeit)}
    # Bo's phone plays first; the laptop's forfeit for Ana, from the page drawn before, counts.
    seq, turn, _ = now(table)
    writing.play_many(table, [{"by": "Bo", "do": "play", "card": "5C"}], seq, expected_turn=turn)
    response = gm_client.post(reverse("games:move", args=[table.pk]), fields)
    assert response.status_code == 302
    assert now(table)[2]["last_contest"]["how"] == "forfeit"
