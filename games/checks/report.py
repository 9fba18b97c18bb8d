"""The messages of one kit (``Report``), what each message id means, and whether a part is a
callable of the right shape."""

from __future__ import annotations

import inspect
from typing import Any

from django.core import checks

from games.registry import GameKit

# What each message id means (docs/adding-a-game.md, "The check's messages", lists them too).
IDS = {
    "games.E001": "a required part is missing",
    "games.E002": "a part is not of the right kind",
    "games.E003": "a template is not found (or does not load)",
    "games.E004": "a static file is not found",
    "games.E005": "the referee's moves, fields, options or player counts disagree",
    "games.E006": "an option label, preset or ruleset the referee does not accept",
    "games.E007": "a demo table is missing or does not replay",
    "games.E008": "the playtest figures cannot be computed from a demo table",
    "games.E009": "the game's URLs are not mounted under its slug",
    "games.E010": "a part raised an exception while it was checked",
    "games.E011": "the bots (or their figures) are malformed",
    "games.E012": "the table template does not extend the table frame",
    "games.E013": "a figure the game's bots produce, or a bot parameter, has no declaration "
    "(name, meaning, unit)",
    "games.E015": "the seat page is not the engine's (games.seats)",
    "games.E016": "a template fills a block its frame does not have (it would never show)",
    "games.E020": "a view shows the deck or the generator's state",
    "games.E021": "a view shows another player's secret (a hand, an unjudged answer)",
}


class Report:
    """The messages of one kit."""

    def __init__(self, kit: GameKit) -> None:
        self.kit = kit
        self.messages: list[checks.CheckMessage] = []

    def error(self, code: str, part: str, text: str, hint: str) -> None:
        slug = getattr(self.kit, "slug", "?")
        self.messages.append(
            checks.Error(
                f"Game {slug!r}, part {part!r}: {text}",
                hint=hint,
                obj=f"game {slug}",
                id=f"games.{code}",
            )
        )


def takes(function: Any, count: int) -> bool:
    """Whether ``function`` can be called with ``count`` positional arguments (a callable
    whose signature Python cannot read is given the benefit of the doubt)."""
    if not callable(function):
        return False
    try:
        inspect.signature(function).bind(*([None] * count))
    except TypeError:
        return False
    except ValueError:
        return True
    return True


def check_callable(report: Report, part: str, value: Any, count: int, shape: str) -> bool:
    if takes(value, count):
        return True
    report.error(
        "E002",
        part,
        f"is {type(value).__name__}, not a callable taking {count} argument(s).",
        f"Give the kit a function {shape}.",
    )
    return False
