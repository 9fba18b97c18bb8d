"""The game contract, checked by Django: ``manage.py check`` (and ``make run``, ``make serve``,
``make test``) verifies every registered kit (``games.registry``).

Each problem is one check message naming the game, the part and what to do (``games.E0xx``);
a part that raises while it is checked is a message too, never a traceback. What is checked:

- the required parts (``registry.REQUIRED_PARTS``) are there and of the right kind;
- the optional parts, when a kit has them, are well formed (``registry.GameKit``);
- the templates the kit names load, its static files (the emblem) are found, and its table
  template extends the table frame (``games/table_frame.html``);
- the referee's declared moves, fields, options and player counts agree with one another, and
  the kit's option labels, presets and rulesets are options the referee accepts;
- each demo table replays through the referee with moves that keep to the declared fields,
  and the playtest figures, rows and charts are computed from it;
- the URLs of the game's own URLconf resolve under its slug;
- the secrets (``games.rules.base.Game.view``): played through its demo tables (the kit's
  demos), the game never shows a spectator or another player its deck, its generator's state
  (or a copy of them under another name), another player's hand or an unjudged answer (its
  ``private`` paths). What is private is what the referee declares, by path: no key's name
  is taken for a hand. The pages are checked by ``games.leaks`` (``check --deploy``).

``check_kit(kit)`` returns the messages of one kit (the tests call it on broken kits). Each
part of the contract is checked in a module of its own: ``parts`` (the required and optional
parts), ``frames`` (the templates), ``bots``, ``referee`` (its declarations and the kit's
options), ``urlconf``, ``demos``, ``figures`` and ``secrets``; ``report`` holds the messages
and what each id means.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from django.core import checks

from games import registry
from games.checks.demos import check_demos
from games.checks.figures import check_declared_figures, check_figures
from games.checks.parts import check_optional, check_required
from games.checks.referee import check_options, check_referee
from games.checks.report import Report
from games.checks.secrets import check_secrets
from games.checks.urlconf import check_urls
from games.registry import GameKit

STEPS: list[tuple[str, Callable[[Report], Any]]] = [
    ("required parts", check_required),
    ("optional parts", check_optional),
    ("referee", check_referee),
    ("options", check_options),
    ("urls", check_urls),
]


def check_kit(kit: GameKit) -> list[checks.CheckMessage]:
    """Every problem of one kit, as check messages."""
    report = Report(kit)
    for part, step in STEPS:
        _guarded(report, part, step, report)
    demos = _guarded(report, "demos", check_demos, report) or []
    if demos and not any(m.id == "games.E008" for m in report.messages):
        _guarded(report, "playtest", check_figures, report, demos)
    if demos and not any(m.id == "games.E011" for m in report.messages):
        _guarded(report, "figures", check_declared_figures, report, demos)
    if demos:
        _guarded(report, "referee.view", check_secrets, report, demos)
    return report.messages


def _guarded(report: Report, part: str, step: Callable[..., Any], *args: Any) -> Any:
    try:
        return step(*args)
    except Exception as exc:  # noqa: BLE001 - a broken part is a message, never a traceback
        report.error(
            "E010",
            part,
            f"raised {type(exc).__name__}: {exc}{_where(exc)}",
            "Fix the part; the other checks of this game went on.",
        )
        return None


def _where(exc: BaseException) -> str:
    """Where the exception was raised (its last frame), said after the message."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {last.filename}, line {last.lineno}, in {last.name})"


@checks.register("games")
def check_games(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """The contract of every registered game (``manage.py check``)."""
    return [message for kit in registry.kits() for message in check_kit(kit)]
