"""Amnesia Stories' refused moves, posted through its pages as a person would (the bard's
telling on the table page, a secret answer on a seat's page or on the passed laptop; plain
form posts and htmx where the page swaps a panel): each answered inside its page, with what
was chosen or typed kept and one sentence in the reader's language (tests/refusals.py says
what every answer must be)."""

from __future__ import annotations

from django.urls import reverse

from games.amnesia_stories.modes import PHONES
from games.models import Table
from games.rules import get_game
from games.services import reading, writing
from tests.refusals import Refusal, check_everywhere

GAME = get_game("amnesia_stories")
CODES = (*GAME.moves, *(key for fields in GAME.fields.values() for key in fields), "pick")
PLAYERS = ("Ana", "Bruno", "Caio")
OPTIONS = {"choices": 3, "questions": 2, "rounds": 1}


def _speaking(table: Table):
    def set_language(code: str) -> None:
        Table.objects.filter(pk=table.pk).update(language=code)  # a seat page speaks it

    return set_language


def _case(table: Table, id: str, url: str, data: dict, kept: dict, **kw) -> Refusal:
    return Refusal(
        id=id, url=url, data={"expected_seq": table.last_seq, **data}, kept=kept, codes=CODES, **kw
    )


def test_a_telling_with_a_step_left_unchosen(gm_client, make_table):
    table = make_table("amnesia_stories", PLAYERS, options=OPTIONS)
    state = reading.state_of(table)
    first = state["journey"][1]
    telling = "Once, the hero <crossed> the river & slept."
    case = _case(
        table,
        "tell: a step left unchosen",
        reverse("games:move", args=[table.pk]),
        {"by": state["bard"], "do": "tell", "story": [first, ""], "text": telling},
        {"story": [first, ""], "text": [telling]},
    )
    check_everywhere(gm_client, case, _speaking(table))


def test_a_secret_answer_with_a_step_left_unanswered(gm_client, make_table):
    table = make_table("amnesia_stories", PLAYERS, options=OPTIONS, extra={"answer_mode": PHONES})
    state = reading.state_of(table)
    writing.play_many(
        table, [{"by": state["bard"], "do": "tell", "story": state["journey"][:2]}], None
    )
    table.refresh_from_db()
    state = reading.state_of(table)
    name = next(n for n in PLAYERS if n != state["bard"])
    seat = table.seats.get(name=name)
    turn = GAME.turn_marker(state)
    answer = {"pick-2": "3", "expected_turn": turn}
    on_the_phone = _case(
        table,
        "seat answer: a step left unanswered",
        reverse("amnesia_stories:seat_move", args=[seat.token]),
        answer,
        {"pick-1": None, "pick-2": ["3"]},
        panel="seat-panel",
    )
    check_everywhere(gm_client, on_the_phone, _speaking(table))
    # The passed laptop's screen keeps the page and says why, but shows no pick again: the
    # next player may be the one who reads it.
    on_the_laptop = _case(
        table,
        "passed laptop answer: a step left unanswered",
        reverse("amnesia_stories:answer", args=[table.pk, seat.position]),
        answer,
        {"pick-1": None, "pick-2": None},
        panel=None,
    )
    check_everywhere(gm_client, on_the_laptop, _speaking(table))
