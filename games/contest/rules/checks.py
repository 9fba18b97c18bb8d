"""Contest: checks on move fields shared by the move handlers."""

from __future__ import annotations

from typing import Any

from games.contest.rules.core import (
    PENALTIES,
    State,
    check_unseen,
)
from games.rules.errors import N_, IllegalMove

# The contest modules raise ``_fail(code, N_(template), **params)``: IllegalMove by a short name.
_fail = IllegalMove

# How a reader names the fields a contest move reads: a refusal says these, never a key.
FIELD_WORDS = {
    "name": N_("The character's name"),
    "contest": N_("What the contest is"),
    "target": N_("Whom to challenge"),
    "attribute": N_("The attribute the contest tests"),
    "with": N_("How to take control"),
    "penalty": N_("The penalty"),
    "choice": N_("How to heal"),
    "brains": N_("Brains"),
    "muscle": N_("Muscle"),
    "moves": N_("Moves"),
    "coolness": N_("Coolness"),
    "count": N_("The pretzels to eat"),
    "ham": N_("Extra draws for a laugh"),
}


def _text(move: dict, key: str, required: bool = True) -> str | None:
    value = move.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        if key in FIELD_WORDS:
            raise _fail("bad_argument", N_("{what} cannot be left empty."), what=FIELD_WORDS[key])
        raise _fail("bad_argument", N_("A box that must be filled in was left empty."))
    return value.strip()


def _flag(move: dict, key: str, default: bool) -> bool:
    value = move.get(key, default)
    if not isinstance(value, bool):
        raise _fail("bad_argument", N_("A yes-or-no choice was sent as something else."))
    return value


def _names(move: dict, key: str) -> list[str]:
    value = move.get(key, [])
    if value is None:
        value = []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail("bad_argument", N_("A list of players holds something that is no name."))
    return value


def _choice(move: dict, key: str, allowed: tuple) -> Any:
    value = move.get(key)
    if value not in allowed:
        if key in FIELD_WORDS:
            raise _fail(
                "bad_argument",
                N_("{what}: choose one of the choices offered."),
                what=FIELD_WORDS[key],
            )
        raise _fail("bad_argument", N_("Choose one of the choices offered."))
    return value


def _penalty_list(move: dict, count: int) -> list[str]:
    value = move.get("penalty")
    if not isinstance(value, list) or len(value) != count or not all(v in PENALTIES for v in value):
        raise _fail(
            "bad_argument",
            N_("Choose exactly {count} penalties, each a drink or a card."),
            count=count,
        )
    return value


class Checks:
    """Field and player checks used by every group of moves."""

    # -- shared checks -----------------------------------------------------------------------
    @staticmethod
    def _target(state: State, name: str, role: str = "target") -> str:
        if name not in state["seats"]:
            raise _fail(
                "unknown_player", N_("There is no player called “{name}” at this table."), name=name
            )
        if state["players"][name]["out"]:
            raise _fail(
                "unknown_player",
                N_("{name} is out of the game and cannot be the {role}."),
                name=name,
                role=role,
            )
        return name

    @staticmethod
    def _physical_cards(state: State, move: dict, count: int) -> list[str]:
        """Physical mode: the lost cards named in 'cards' (one per card penalty)."""
        if state["deck_mode"] == "virtual":
            return []
        value = move.get("cards", [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _fail("bad_argument", N_("Name the lost cards by their codes (e.g. 7H, QS)."))
        if len(value) != count:
            raise _fail("bad_argument", N_("Name the {count} lost card(s)."), count=count)
        if len(set(value)) != len(value):
            raise _fail("rule_violation", N_("The same card cannot be lost twice."))
        for code in value:
            check_unseen(state, code)
        return list(value)

    @staticmethod
    def _require_option(state: State, option: str, what: str) -> None:
        if not state["options"][option]:
            raise _fail("rule_violation", N_("This table does not use the {what} rule."), what=what)
