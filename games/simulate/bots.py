"""What every game's bots share: their parameters and the interface the simulator calls.

A game's bots live in its own package (``games/<game>/bots.py``) and are registered as the
optional ``bots`` part of its kit: a mapping ``name -> bot class`` (at least ``random`` and
``sensible``). A bot class is built as ``Bot(params, rng_seed, seat)`` and answers

    ``choose(view, legal_moves, may_wait) -> move fields or None``

- ``view`` is ``referee.view(state, seat)``: what this seat may see, never the deck, the
  other hands or answers not judged yet; ``legal_moves`` is ``referee.legal_moves(state,
  seat)`` (the templates, never empty when asked). The bot returns a move (``{"do": verb,
  ...}``, without ``by``) that fills in what the template leaves open (a card, a bet, a pick,
  an attribute, a target), or None to wait while others may act. Asked with ``may_wait``
  False (everyone waited), it returns None only when none of its moves is needed for the
  game to go on (a free suggestion, a pretzel).
- It is pure and seeded like the referee: its only randomness is ``self.rng``, a
  ``random.Random`` seeded with ``rng_seed``; no clock, no module-level ``random``.
- What people decide by talking is a parameter (``params``: name -> :class:`Param`, with
  its documented default and range), never a hidden constant.

Nothing here imports Django: the simulator runs in worker processes on its own.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class BadParam(ValueError):
    """A parameter a bot does not know, or a value outside its range (a sentence)."""


@dataclass(frozen=True)
class Param:
    """A parameter of a bot: what the table decides by talking, with its default and range."""

    default: float
    min: float
    max: float
    help: str
    whole: bool = False  # a count (a whole number), not a probability or a share

    def check(self, name: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadParam(f"Parameter {name} must be a number.")
        if self.whole and value != int(value):
            raise BadParam(f"Parameter {name} must be a whole number.")
        if not self.min <= value <= self.max:
            raise BadParam(
                f"Parameter {name} must be between {_num(self.min)} and {_num(self.max)}, "
                f"not {_num(value)}."
            )
        return int(value) if self.whole else float(value)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class Bot:
    """A bot for one seat. Subclasses set ``params`` and implement :meth:`choose`."""

    params: Mapping[str, Param] = {}

    def __init__(self, params: Mapping[str, Any] | None, rng_seed: int, seat: str) -> None:
        self.p = resolve(self.params, params or {}, strict=False)
        self.rng = random.Random(rng_seed)
        self.seat = seat

    def choose(
        self, view: dict[str, Any], legal_moves: list[dict[str, Any]], may_wait: bool = False
    ) -> dict[str, Any] | None:
        raise NotImplementedError

    # helpers for subclasses
    def chance(self, p: float) -> bool:
        """True with probability ``p`` (one draw of the bot's own generator)."""
        return self.rng.random() < p

    def pick(self, values: list[Any]) -> Any:
        return values[self.rng.randrange(len(values))]


def resolve(
    declared: Mapping[str, Param], given: Mapping[str, Any], strict: bool = True
) -> dict[str, Any]:
    """Every declared parameter: the given value (checked) over its default. ``strict``:
    a given name the bot does not declare is refused (a run checks its parameters against
    all its bots at once, so a single bot ignores the others' parameters)."""
    values = {name: param.default for name, param in declared.items()}
    for name, value in given.items():
        if name not in declared:
            if strict:
                raise BadParam(f"Unknown parameter {name}.")
            continue
        values[name] = declared[name].check(name, value)
    return values


def check_params(classes: list[type[Bot]], given: Mapping[str, Any]) -> dict[str, Any]:
    """The given parameters, checked: each must belong to one of the bots in the run."""
    known: dict[str, Param] = {}
    for cls in classes:
        known.update(cls.params)
    out = {}
    for name, value in given.items():
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            raise BadParam(f"Unknown parameter {name}; these bots take: {names}.")
        out[name] = known[name].check(name, value)
    return out


def strip_template(template: dict[str, Any], *keys: str) -> dict[str, Any]:
    """A template without the keys that describe it (``choices``, ``max_take``...)."""
    return {k: v for k, v in template.items() if k not in keys}
