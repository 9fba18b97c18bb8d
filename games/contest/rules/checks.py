"""Contest: checks on move fields shared by the move handlers."""

from __future__ import annotations

from typing import Any

from games.contest.rules.core import (
    PENALTIES,
    State,
    check_unseen,
)
from games.rules.base import N_, IllegalMove

# The contest modules raise ``_fail(code, N_(template), **params)``: IllegalMove by a short name.
_fail = IllegalMove


def _text(move: dict, key: str, required: bool = True) -> str | None:
    value = move.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _fail("bad_argument", N_("'{key}' must be a non-empty text."), key=key)
    return value.strip()


def _flag(move: dict, key: str, default: bool) -> bool:
    value = move.get(key, default)
    if not isinstance(value, bool):
        raise _fail("bad_argument", N_("'{key}' must be true or false."), key=key)
    return value


def _names(move: dict, key: str) -> list[str]:
    value = move.get(key, [])
    if value is None:
        value = []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail("bad_argument", N_("'{key}' must be a list of player names."), key=key)
    return value


def _choice(move: dict, key: str, allowed: tuple, what: str) -> Any:
    value = move.get(key)
    if value not in allowed:
        raise _fail("bad_argument", N_("'{key}' must be {what}."), key=key, what=what)
    return value


def _penalty_list(move: dict, count: int) -> list[str]:
    value = move.get("penalty")
    if not isinstance(value, list) or len(value) != count or not all(v in PENALTIES for v in value):
        raise _fail(
            "bad_argument",
            N_("'penalty' must list exactly {count} penalties, each drink or card."),
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
                "unknown_player", N_("There is no player called {name!r} at this table."), name=name
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
            raise _fail("bad_argument", N_("'cards' must be a list of card codes."))
        if len(value) != count:
            raise _fail(
                "bad_argument", N_("Name the {count} lost card(s) in 'cards'."), count=count
            )
        if len(set(value)) != len(value):
            raise _fail("rule_violation", N_("The same card cannot be lost twice."))
        for code in value:
            check_unseen(state, code)
        return list(value)

    @staticmethod
    def _require_option(state: State, option: str, what: str) -> None:
        if not state["options"][option]:
            raise _fail("rule_violation", N_("This table does not use the {what} rule."), what=what)
