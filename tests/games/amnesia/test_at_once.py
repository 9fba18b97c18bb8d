"""The stakes and the joins of a challenge, made "in any order" before its first card: sent at
once from several pages, all are kept; once the card is turned, a late one is refused."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.rules import get_game
from games.services import reading, validating, writing

pytestmark = pytest.mark.django_db

GAME = get_game("amnesia")
PLAYERS = ["Ana", "Bruno", "Caio", "Dora"]


def now(table):
    table.refresh_from_db()
    state = reading.state_of(table)
    return table.last_seq, GAME.turn_marker(state), state


def challenge(table, gm):
    """Bruno insists in Ana's scene and Ana refuses: a challenge before its first card."""
    seq = now(table)[0]
    moves = [{"by": "Bruno", "do": "insist"}, {"by": "Ana", "do": "refuse"}]
    writing.play_many(table, moves, seq, gm)
    assert now(table)[2]["phase"] == "challenge"


def test_stakes_and_joins_sent_at_once_are_all_kept(make_table, gm):
    table = make_table("amnesia", PLAYERS)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    challenge(table, gm)
    seq, turn, _ = now(table)
    # Four pages drawn at one version: both sides state their stakes, Caio joins.
    for by, do in (("Bruno", "stake"), ("Caio", "join"), ("Ana", "stake")):
        writing.play_many(table, [{"by": by, "do": do, "text": by}], seq, expected_turn=turn)
    _, after, state = now(table)
    assert after == turn and state["challenge"]["joined"] == ["Caio"]
    assert [m.payload["do"] for m in table.moves.order_by("seq")][-3:] == ["stake", "join", "stake"]
    # The first card is turned: Dora's join, sent before it, is refused and costs nothing.
    writing.play_many(table, [{"by": "Ana", "do": "open"}], seq + 3, gm)
    with pytest.raises(validating.StaleTurn):
        writing.play_many(table, [{"by": "Dora", "do": "join"}], seq, expected_turn=turn)
    assert now(table)[2]["tokens"]["Dora"] == 10
    # Every other side quits: the challenge is over, the scene goes on, and a second
    # challenge in it is not the first one: a stake sent for the first is refused.
    for _ in range(2):
        state = now(table)[2]
        writing.play_many(table, [{"by": state["challenge"]["to_act"], "do": "quit"}], None, gm)
    assert now(table)[2]["phase"] == "scene"
    challenge(table, gm)
    assert now(table)[1] != turn
    with pytest.raises(validating.StaleTurn):
        writing.play_many(table, [{"by": "Bruno", "do": "stake"}], seq, expected_turn=turn)


def test_the_laptop_sends_stakes_and_joins_with_their_challenge(make_table, gm, gm_client):
    table = make_table("amnesia", PLAYERS)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    challenge(table, gm)
    seq, turn, _ = now(table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    forms = re.findall(r'<form method="post".*?</form>', page, re.S)
    sent = {}
    for form in forms:
        verb = re.search(r'<button name="do" value="(stake|join)"', form)
        if verb:
            sent[verb.group(1)] = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    assert set(sent) == {"stake", "join"}
    assert all(fields.get("expected_turn") == html.escape(turn) for fields in sent.values())
    # Both posted from that one page, as two people at the laptop in turn would: both kept.
    url = reverse("games:move", args=[table.pk])
    for verb, by in (("join", "Caio"), ("stake", "Bruno")):
        fields = {**sent[verb], "by": by, "do": verb, "text": "mine", "client_id": by}
        fields["expected_turn"] = html.unescape(fields["expected_turn"])
        assert gm_client.post(url, fields).status_code == 302
    assert now(table)[0] == seq + 2
