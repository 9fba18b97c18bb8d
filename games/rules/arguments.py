"""Reading a move's arguments in a handler: a whole number within limits (``require_int``),
the narration typed with it (``move_text``), an optional text (``optional_text``); a value
that does not fit is refused as ``bad_argument``."""

from __future__ import annotations

from typing import Any

from games.rules.errors import N_, IllegalMove


def require_int(
    move: dict[str, Any],
    key: str,
    lo: int | None = None,
    hi: int | None = None,
    what: str | None = None,
) -> int:
    """``move[key]``, a whole number from ``lo`` to ``hi``. ``what`` names the value for a
    reader (marked with ``N_``: "The tokens to take"); the sentence never names the key,
    which is a program's word, not a player's."""
    value = move.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        if what is None:
            raise IllegalMove("bad_argument", N_("A whole number is needed here."))
        raise IllegalMove("bad_argument", N_("{what} must be a whole number."), what=what)
    if lo is not None and value < lo:
        if what is None:
            raise IllegalMove("bad_argument", N_("The number must be at least {lo}."), lo=lo)
        raise IllegalMove("bad_argument", N_("{what} must be at least {lo}."), what=what, lo=lo)
    if hi is not None and value > hi:
        if what is None:
            raise IllegalMove("bad_argument", N_("The number must be at most {hi}."), hi=hi)
        raise IllegalMove("bad_argument", N_("{what} must be at most {hi}."), what=what, hi=hi)
    return value


def move_text(move: dict[str, Any]) -> str:
    """The narration typed with a move ('' when none); it never changes the rules."""
    text = move.get("text")
    return text if isinstance(text, str) else ""


def optional_text(move: dict[str, Any], key: str) -> str:
    value = move.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise IllegalMove("bad_argument", N_("Text is needed here."))
    return value
