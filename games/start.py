"""Choosing the start player the way a game's own text says (a draw), on the new-table form.

A game's kit may declare a :class:`StartMethod` (the Amnesia Stories score cards, the
contest's high card). With a virtual deck the app makes the draw; at a physical table the game
master makes it with real cards and enters who won. Either way the winner becomes the script's
``start``, as a start player typed by hand does, and the draw is kept beside it as the
informational key ``start_draw`` (export and import keep it; the referee never reads it).

The app's draw comes from its own stream, derived from the table's seed but apart from the
game's generator: a table with a draw shuffles and deals exactly as the same table without one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.rules.cards import Rng, seed_state

# The script key that records the draw.
KEY = "start_draw"
# Mixed into the seed for the draw's stream ("STARTPLY"), so it never follows the game's own.
START_STREAM = 0x5354_4152_5450_4C59
_MASK64 = (1 << 64) - 1
VIRTUAL = "virtual"
PHYSICAL = "physical"


@dataclass(frozen=True)
class StartMethod:
    """How a game's text chooses the first player."""

    key: str  # recorded in ``start_draw["method"]``
    label: Any  # the choice on the new-table form (a lazy translation)
    # (players in seat order, the draw's generator) -> {"start": name, ...what was drawn}
    draw: Callable[[list[str], Rng], dict[str, Any]]
    # a virtual draw's record -> the sentences the table page shows
    describe: Callable[[dict[str, Any]], list[str]]
    # what the form says the game master enters at a physical table
    physical_hint: Any = ""


def draw_rng(seed: int) -> Rng:
    """The draw's own generator for a table's seed (never the game's)."""
    return Rng(seed_state((seed & _MASK64) ^ START_STREAM))


def virtual_draw(method: StartMethod, players: list[str], seed: int) -> dict[str, Any]:
    """The app's draw for a table with this seed: the same seed, the same draw."""
    record = method.draw(list(players), draw_rng(seed))
    return {"method": method.key, "mode": VIRTUAL, **record}


def entered_draw(method: StartMethod, start: str) -> dict[str, Any]:
    """A draw made with real cards: the game master entered who won it."""
    return {"method": method.key, "mode": PHYSICAL, "start": start}


def lines(method: StartMethod | None, extra: dict[str, Any] | None) -> list[str]:
    """How the table's start player was drawn, in sentences ([] when it was not drawn).

    The record may come from an imported script, so anything unexpected in it is simply
    not shown rather than trusted.
    """
    record = (extra or {}).get(KEY)
    if method is None or not isinstance(record, dict) or record.get("method") != method.key:
        return []
    start = record.get("start")
    if not isinstance(start, str):
        return []
    if record.get("mode") == PHYSICAL:
        return [_("Drawn at the table with real cards: %(name)s starts.") % {"name": start}]
    try:
        return [str(line) for line in method.describe(record)]
    except (KeyError, TypeError, ValueError, AttributeError):
        return []
