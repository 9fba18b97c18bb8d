"""Validating: what the write path checks before it writes, and what it refuses with.

What a move may hold. A move is ``by``, ``do``, ``text``, ``at`` and the fields its verb
declares (``Game.fields``), each of its declared kind and within its limits
(``Field.fits``): anything else is refused (``bad_argument``), whoever sends it (a form, a
JSON request, a seat's page, an import), so the append-only log never keeps what the rules
do not read. No text of a move may hold a NUL character (PostgreSQL cannot store one; SQLite
is refused it too, so both engines keep the same log).

A client names each move with an id of its own (``client_id``): one of the shape
``CLIENT_ID``, or none (see ``games.services.writing`` for resends).

Which position a move is judged against. A move that depends on where the table is (almost
every move: it is the mover's turn, a challenge is open...) carries ``expected_seq``, the
log's length when the page was drawn; a stale one is refused (StaleMove, 409). Some moves
do not depend on one another: every player's answer to one Amnesia Stories story, the
suggestions in one Amnesia scene and the stakes and joins before a challenge's first card,
the pretzels thrown at a contest's narrator and the contestants' cards in one round. Several
people send them at once, so judging them by ``expected_seq`` would refuse all but the
first for nothing. Each referee lists those verbs (``Game.independent_moves``) and names the
turn they belong to (``Game.turn_marker``); a client sends that marker as
``expected_turn``, and a move of those verbs is judged against it instead (StaleTurn, 409,
once the turn is over). A verb independent at one moment only (a contest's forfeit before a
card, not the same verb answering a challenge) is judged so only then
(``Game.is_independent``), and against the log anywhere else. The marker only stands in for
the log's position: the referee still judges every move on the table as it is. The generic
code never names a game: it asks the referee.

Every refusal is data (a code, a template and its parameters): ``games.answers`` puts it into
the reader's language. Nothing here writes, and nothing here reads the database.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.dateparse import parse_datetime

from games.models import Table
from games.rules import BadScript, IllegalMove
from games.rules.base import Game
from games.rules.errors import N_
from games.rules.script import (
    check_move_shape,
    holds_nul,
    misfit_field,
    rules_part,
    undeclared_fields,
)
from games.rules.setup import Setup

MAX_TEXT = 20_000
# The database's limits on a set-up: a seat's name, a table's seed (a signed 64-bit column).
MAX_NAME = 60
SEED_RANGE = (-(2**63), 2**63 - 1)
# What a client's move id may look like: a UUID, or any short word of these characters.
CLIENT_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


class StaleMove(Exception):
    """The client's view of the table is out of date (HTTP 409): nothing was applied.

    Data, as the referee's errors are: ``code``, a ``template`` (marked, %-style) and its
    ``params``, put into the reader's language by ``games.answers``; ``message`` (and
    ``str()``) is the English sentence, for logs and commands."""

    code = "stale"
    template: str = N_(
        "The table has moved on (you saw move %(expected)s, it is at move %(actual)s). "
        "Reload to see what changed; nothing was applied."
    )
    expected: int | str  # a move's seq here, a turn's marker in StaleTurn
    actual: int | str

    def __init__(self, expected: int | str, actual: int | str) -> None:
        self.expected = expected
        self.actual = actual
        self.params: dict[str, Any] = {"expected": expected, "actual": actual}
        self.message = self.template % self.params
        super().__init__(self.message)


class StaleTurn(StaleMove):
    """The turn an independent move belongs to is over (HTTP 409)."""

    template = N_(
        "That turn is over: the table has moved on to the next one. "
        "Reload to see what changed; nothing was applied."
    )

    def __init__(self, expected: str, actual: str) -> None:
        super().__init__(expected, actual)
        self.params = {}


class NothingToUndo(Exception):
    """Nothing is in force to take back (an undo on a table with no live move)."""

    code = "nothing_to_undo"
    template: str = N_("There is no move to undo.")
    params: dict[str, Any] = {}

    def __init__(self) -> None:
        self.message = self.template
        super().__init__(self.message)


def clean_move(move: dict[str, Any]) -> tuple[dict[str, Any], str]:
    if not isinstance(move, dict):
        raise IllegalMove("bad_argument", N_("A move must be an object."))
    text = move.get("text")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise IllegalMove("bad_argument", N_("The narration must be text."))
    when = move.get("at")  # a page's move is stamped when stored; an import passes its own
    if when is not None and not is_time(when):
        raise IllegalMove("bad_argument", N_("'at' must be an ISO 8601 time."))
    if len(text) > MAX_TEXT:
        raise IllegalMove(
            "bad_argument",
            N_("The narration is limited to {limit} characters."),
            limit=MAX_TEXT,
        )
    if "\x00" in text:
        raise IllegalMove("bad_argument", N_("The narration cannot hold a NUL character."))
    return rules_part(move), text.strip()


def is_time(value: Any) -> bool:
    try:
        return isinstance(value, str) and parse_datetime(value) is not None
    except ValueError:  # well formed, but no such time (a 13th month)
        return False


def check_client_id(client_id: Any) -> str | None:
    if client_id is None or client_id == "":
        return None
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        raise IllegalMove(
            "bad_argument",
            N_("The move's id is not one this site makes: reload the page and try again."),
        )
    return client_id


def verb(move: dict[str, Any]) -> str | None:
    """The move's verb, when it names one."""
    do = move.get("do")
    return do if isinstance(do, str) else None


def check_seq(locked: Table, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != locked.last_seq:
        raise StaleMove(expected_seq, locked.last_seq)


def check_position(
    locked: Table,
    referee: Game,
    state: dict[str, Any],
    moves: list[Any],
    expected_seq: int | None,
    expected_turn: str | None,
) -> None:
    """Moves of the referee's independent verbs sent with the turn they belong to are judged
    against that turn; every other move against the log's position (see the module's
    docstring)."""
    independent = bool(moves) and all(
        isinstance(m, dict) and isinstance(m.get("do"), str) and referee.is_independent(state, m)
        for m in moves
    )
    if expected_turn is not None and independent:
        actual = referee.turn_marker(state)
        if expected_turn != actual:
            raise StaleTurn(expected_turn, actual)
        return
    check_seq(locked, expected_seq)


def judge(
    referee: Game, setup: Setup, state: dict[str, Any], payload: dict[str, Any]
) -> dict[str, Any]:
    """The referee's new state after ``payload``, or its IllegalMove. A move is its verb's
    declared fields, each as declared, and nothing else (see the module's docstring)."""
    try:
        # What a script calls malformed (an unknown card code) is a bad field here.
        check_move_shape(setup, payload, 0)
    except BadScript as exc:
        raise IllegalMove("bad_argument", exc.template, **exc.params) from exc
    if holds_nul(payload):
        raise IllegalMove("bad_argument", N_("A move cannot hold a NUL character."))
    misfit = misfit_field(referee, payload)
    if misfit is not None:
        try:
            referee.apply(state, payload)
        except IllegalMove:
            raise  # the referee's own sentence says best what is wrong with the value
        except Exception:
            # A value of the wrong kind may trip the referee up (it reads declared values
            # only): the move is refused just below, whatever the referee made of it.
            pass
        declared = referee.field(payload["do"], misfit)
        if declared is not None and declared.label:
            raise IllegalMove(
                "bad_argument",
                N_("{what}: the value sent is not one this move can take."),
                what=declared.label,
            )
        raise IllegalMove("bad_argument", N_("A value sent with this move is not one it can take."))
    after = referee.apply(state, payload)
    extra = undeclared_fields(referee, payload)
    if extra:
        raise IllegalMove(
            "bad_argument",
            N_("'{verb}' reads no field called {names}: a move holds only the fields it reads."),
            verb=payload["do"],
            names=", ".join(repr(key[:40]) for key in extra[:5]),
        )
    return after


def check_storable(setup: Setup, name: str) -> None:
    """What the rules accept but the database could not store: BadScript before any write."""
    if holds_nul([setup.players, setup.options, setup.deck, setup.extra, name]):
        raise BadScript(N_("The set-up holds a NUL character, which no text may hold."))
    if any(len(p) > MAX_NAME for p in setup.players):
        raise BadScript(N_("Player names are limited to {limit} characters."), limit=MAX_NAME)
    lo, hi = SEED_RANGE
    if not lo <= setup.seed <= hi:
        raise BadScript(N_("'seed' must be between {lo} and {hi}."), lo=lo, hi=hi)
