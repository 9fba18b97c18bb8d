"""Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted
play", AIIDE 2012): a bot forbidden one kind of move, whose results against the unrestricted
bots measure what that choice is worth. A restriction names a verb, and may name a value of
one of its fields ("never refuse": the verb ``refuse``; "never take control with drinks":
the verb ``take_control`` with its ``with`` field at ``drinks``).

The restricted bot sees only the legal moves the restriction leaves: a template of the
forbidden verb is dropped, or, for a forbidden value, that value leaves the template's
``choices`` (the template goes when nothing is left, or when it fixes that value itself). A
move of the bot's that still breaks the restriction (a bot that plays a verb without reading
its templates) is a wait while waiting is allowed, and else the first move left, each open
choice at its first value.
"""

from __future__ import annotations

from typing import Any


def _allowed(template: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any] | None:
    if template.get("do") != rule["verb"]:
        return template
    field = rule.get("field")
    if not field:
        return None
    if field in template and template[field] == rule.get("value"):
        return None
    choices = template.get("choices")
    if isinstance(choices, dict) and field in choices:
        kept = [v for v in choices[field] if v != rule.get("value")]
        if not kept:
            return None
        return {**template, "choices": {**choices, field: kept}}
    return template


def breaks(move: dict[str, Any] | None, rule: dict[str, Any]) -> bool:
    """Whether ``move`` is one the restriction forbids."""
    if move is None or move.get("do") != rule["verb"]:
        return False
    field = rule.get("field")
    return not field or move.get(field) == rule.get("value")


class Restricted:
    """A bot forbidden one kind of move (``rule``: {"bot", "verb", "field", "value"})."""

    def __init__(self, inner: Any, rule: dict[str, Any]) -> None:
        self.inner, self.rule = inner, rule
        self.seat = inner.seat

    def choose(
        self, view: Any, legal_moves: list[dict[str, Any]], may_wait: bool = False
    ) -> dict[str, Any] | None:
        left = [t for t in (_allowed(t, self.rule) for t in legal_moves) if t is not None]
        if not left:
            return None
        move = self.inner.choose(view, left, may_wait)
        if not breaks(move, self.rule):
            return move
        if may_wait:
            return None
        first = left[0]
        out = {k: v for k, v in first.items() if k != "choices"}
        for name, values in (first.get("choices") or {}).items():
            if values:
                out[name] = values[0]
        return out


def parse(text: str) -> dict[str, Any]:
    """ "refuse" or "take_control:with=drinks" -> {"verb", "field", "value"} (a value that
    reads as a whole number is one)."""
    verb, _, rest = text.strip().partition(":")
    rule: dict[str, Any] = {"verb": verb.strip()}
    if rest:
        field, _, value = rest.partition("=")
        raw = value.strip()
        rule["field"] = field.strip()
        rule["value"] = int(raw) if raw.lstrip("-").isdigit() else raw
    return rule
