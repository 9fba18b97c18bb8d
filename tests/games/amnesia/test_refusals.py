"""Amnesia's refused moves, posted through its pages as a person would (the table page on the
laptop, a seat's page on a phone; plain form posts and htmx): each answered inside its page,
with what was typed or chosen kept and one sentence in the reader's language
(tests/refusals.py says what every answer must be)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.amnesia.rules import GAME
from games.models import Table
from games.services import reading, writing
from tests.refusals import Refusal, check_everywhere

PLAYERS = ("Ana", "Bruno", "Caio")
# The room may be remembered once one token is in the discard; passes may take up to 19.
OPTIONS = {"finale_factor": 0, "token_cap": 20}
CODES = (*GAME.moves, *(key for fields in GAME.fields.values() for key in fields))
LONG = "a memory of the sea " * 6  # longer than an ability may be


def _play(table: Table, *moves: tuple[str, str, dict]) -> Table:
    for by, verb, fields in moves:
        writing.play_many(table, [{"by": by, "do": verb, **fields}], None)
    table.refresh_from_db()
    return table


TURN = (("Ana", "continue", {}), ("Ana", "end_scene", {}))  # Bruno's turn
SCENE = (("Ana", "continue", {}),)  # Ana narrates
FINALE = (
    *TURN,
    ("Bruno", "flashback", {}),
    ("Bruno", "end_scene", {}),
    ("Caio", "room_flashback", {}),
    ("Caio", "end_scene", {}),
)  # Ana's turn, the room remembered: the story may end
CHALLENGE = (
    ("Ana", "continue", {}),
    ("Bruno", "insist", {"text": "She hid the key."}),
    ("Ana", "refuse", {}),
)


@pytest.fixture
def amnesia(make_table):
    def make(moves, **kwargs) -> Table:
        return _play(make_table("amnesia", PLAYERS, options=OPTIONS, **kwargs), *moves)

    return make


def _speaking(table: Table):
    def set_language(code: str) -> None:
        Table.objects.filter(pk=table.pk).update(language=code)  # a seat page speaks it

    return set_language


def _table_case(table: Table, id: str, data: dict, kept: dict, status: int = 400) -> Refusal:
    seq = table.last_seq if status == 400 else table.last_seq - 1
    return Refusal(
        id=id,
        url=reverse("games:move", args=[table.pk]),
        data={"expected_seq": seq, **data},
        kept=kept,
        status=status,
        codes=CODES,
    )


def _seat_case(table: Table, name: str, id: str, data: dict, kept: dict, status=400):
    token = table.seats.get(name=name).token
    seq = table.last_seq if status == 400 else table.last_seq - 1
    return Refusal(
        id=id,
        url=reverse("amnesia:seat_move", args=[token]),
        data={"expected_seq": seq, **data},
        kept=kept,
        panel="seat-panel",
        status=status,
        codes=CODES,
    )


def test_refusals_on_the_turn(gm_client, amnesia):
    table = amnesia(TURN)
    cases = [
        _table_case(
            table,
            "flashback: an ability too long",
            {"by": "Bruno", "do": "flashback", "abilities": f"surgery, {LONG}"},
            {"abilities": [f"surgery, {LONG}"]},
        ),
        _table_case(
            table,
            "pass: a word for the tokens to take",
            {"by": "Bruno", "do": "pass", "take": "many"},
            {"take": ["many"]},
        ),
        _table_case(
            table,
            "pass: more than the bank holds",
            {"by": "Bruno", "do": "pass", "take": "7"},
            {"take": ["7"]},
        ),
        _seat_case(
            table,
            "Bruno",
            "seat flashback: an ability too long",
            {"do": "flashback", "abilities": f"{LONG}, lock-picking"},
            {"abilities": [f"{LONG}, lock-picking"]},
        ),
        _seat_case(
            table,
            "Bruno",
            "seat pass: a page drawn before the last move",
            {"do": "pass", "take": "1"},
            {"take": ["1"]},
            status=409,
        ),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))


def test_refusals_of_the_end(gm_client, amnesia):
    table = amnesia(FINALE)
    cases = [
        _table_case(
            table,
            "end_story: nobody ticked",
            {"by": "Ana", "do": "end_story", "text": "And the sea took the house."},
            {"text": ["And the sea took the house."]},
        ),
        _table_case(
            table,
            "end_story: not everyone agrees",
            {"by": "Ana", "do": "end_story", "agreed": ["Ana", "Caio"], "text": "Quiet."},
            {"agreed": ["Ana", "Caio"], "text": ["Quiet."]},
        ),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))


def test_refusals_in_a_scene(gm_client, amnesia):
    table = amnesia(SCENE)
    turn = GAME.turn_marker(reading.state_of(table))
    story = "The door gave way, and behind it <the cellar> & its stairs."
    cases = [
        _table_case(
            table,
            "end_scene: a page drawn before the last move",
            {"by": "Ana", "do": "end_scene", "text": story},
            {"text": [story]},
            status=409,
        ),
        _table_case(
            table,
            "end_story: in the middle of a scene",
            {"by": "Ana", "do": "end_story", "agreed": ["Ana", "Bruno", "Caio"]},
            {},
        ),
        _table_case(
            table,
            "suggest: by the narrator",
            {"by": "Ana", "do": "suggest", "text": "A cat", "expected_turn": turn},
            {"text": ["A cat"]},
        ),
        _table_case(
            table,
            "suggest: a turn that is over",
            {"by": "Caio", "do": "suggest", "text": "The cat saw it", "expected_turn": "old"},
            {"by": ["Caio"], "text": ["The cat saw it"]},
            status=409,
        ),
        _seat_case(
            table,
            "Caio",
            "seat suggest: a turn that is over",
            {"do": "suggest", "text": "It rains", "expected_turn": "old"},
            {"text": ["It rains"]},
            status=409,
        ),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))


def test_refusals_in_a_challenge(gm_client, amnesia):
    table = amnesia(CHALLENGE, deck_mode="physical")
    cases = [
        _table_case(
            table,
            "open: no such card",
            {"by": "Ana", "do": "open", "card": "ZZ"},
            {},
        ),
        _table_case(
            table,
            "stake: a page drawn before the last move",
            {"by": "Bruno", "do": "stake", "text": "She keeps the key"},
            {"by": ["Bruno"], "text": ["She keeps the key"]},
            status=409,
        ),
        _table_case(
            table,
            "join: by a side of the challenge",
            {"by": "Ana", "do": "join", "text": "The key was never hers"},
            {"text": ["The key was never hers"]},
        ),
    ]
    for case in cases:
        check_everywhere(gm_client, case, _speaking(table))
    _play(table, ("Ana", "open", {"card": "7H"}))
    lower = _table_case(
        table,
        "lower: a card already turned",
        {"by": "Bruno", "do": "lower", "card": "7H"},
        {"do": ["lower"]},
    )
    check_everywhere(gm_client, lower, _speaking(table))
