"""The referee's errors and its marker of translatable texts: ``IllegalMove`` (a move the
rules forbid, with one of the contract's ``ERROR_CODES``), ``BadScript`` (a malformed script)
and ``N_``, which marks their English templates for the web layer to translate."""

from __future__ import annotations

from typing import Any

# The error codes of the referee contract, in their order of precedence.
ERROR_CODES = (
    "game_over",
    "unknown_player",
    "unknown_move",
    "wrong_phase",
    "not_your_turn",
    "bad_argument",
    "rule_violation",
    "insufficient_tokens",
)


class Marked(str):
    """An English text marked with ``N_``: the same string, known to be translatable.

    An error's parameters mix names (a player's, a card's) with English fragments ("for a
    flashback", "spades"); the web layer translates the parameters that are ``Marked`` and
    leaves the others as they are (``games/messages.py``)."""

    __slots__ = ()


def N_(text: str) -> str:
    """Mark ``text`` as a message template, or a fragment put into one, to translate; it is
    returned unchanged (as :class:`Marked`, a ``str``).

    The referee never imports Django, so it cannot translate: it raises errors with an
    English template and its parameters, and the web layer translates the template and the
    marked parameters (``games/messages.py``). ``makemessages`` finds every ``N_`` text.
    """
    return Marked(text)


def _fill(template: str, params: dict[str, Any]) -> str:
    """The template with its ``{name}`` placeholders filled (as is when there are none)."""
    return template.format(**params) if params else template


class IllegalMove(Exception):
    """A move the rules forbid; ``code`` is one of ERROR_CODES, ``message`` a sentence.

    ``IllegalMove(code, N_("It is {turn}'s turn."), turn=...)``: ``template`` (str.format
    placeholders) and ``params`` are kept for translation; ``message`` is the English text.
    A plain, already written message with no parameters works too.
    """

    index: int  # set by the write path: which of several moves sent together was refused

    def __init__(self, code: str, template: str, /, **params: Any) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        message = _fill(template, params)
        super().__init__(message)
        self.code = code
        self.template = template
        self.params = params
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class BadScript(Exception):
    """The script itself is malformed (exit 2 of ``referee replay``).

    ``BadScript(N_("Unknown card code {code!r}."), index, code=...)``: as IllegalMove,
    ``template`` and ``params`` are kept for translation and ``message`` is the English text.
    """

    code = "bad_script"

    def __init__(self, template: str, /, index: int | None = None, **params: Any) -> None:
        message = _fill(template, params)
        super().__init__(message)
        self.template = template
        self.params = params
        self.message = message
        self.index = index
