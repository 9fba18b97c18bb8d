"""The simulated plays' part of a kit (``games.simulate``): its bots, their parameters and
their figures (``games.E011``)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping

from games.checks.report import Report, check_callable
from games.simulate.bots import Bot, Param


def check_bots(report: Report) -> None:
    """The simulated plays' part (``games.simulate``): bot classes by name, and the figures of
    one simulated game; both or neither."""

    kit = report.kit
    bots, figures = kit.bots, kit.bot_figures
    if kit.bot_trace is not None:
        if figures is None:
            report.error(
                "E011",
                "bot_trace",
                "is given without bot_figures.",
                "Give it with the figures whose reading of each state it copies, or leave it out.",
            )
        else:
            check_callable(report, "bot_trace", kit.bot_trace, 1, "trace(state) -> dict")
    if bots is None:
        if figures is not None:
            report.error(
                "E011",
                "bot_figures",
                "is given without bots.",
                "Give the kit its bots (games/<slug>/bots.py), or leave both out.",
            )
        return
    if not isinstance(bots, Mapping) or not bots:
        report.error(
            "E011",
            "bots",
            f"is {type(bots).__name__}, not a non-empty mapping of bot names to bot classes.",
            "Give the kit bots={'random': RandomBot, 'sensible': SensibleBot} "
            "(games.simulate.bots), or None.",
        )
        return
    for needed in ("random", "sensible"):
        if needed not in bots:
            report.error(
                "E011",
                "bots",
                f"has no {needed!r} bot.",
                "Every game with bots has at least 'random' and 'sensible'.",
            )
    for name, bot in bots.items():
        if not isinstance(name, str) or not name.isidentifier() or name != name.lower():
            report.error(
                "E011",
                "bots",
                f"the bot name {name!r} is not a lower-case identifier.",
                "Name each bot as the simulate command's --bots option names it ('random').",
            )
        if not (inspect.isclass(bot) and issubclass(bot, Bot)):
            report.error(
                "E011",
                f"bots[{name!r}]",
                f"is {bot!r}, not a games.simulate.bots.Bot class.",
                "Subclass games.simulate.bots.Bot (built as Bot(params, rng_seed, seat)) "
                "and write its choose(view, legal_moves, may_wait).",
            )
            continue
        if bot.choose is Bot.choose:
            report.error(
                "E011",
                f"bots[{name!r}]",
                "does not write choose(view, legal_moves, may_wait).",
                "Write it: the move it makes (without 'by'), or None to wait.",
            )
        params = getattr(bot, "params", None)
        if not isinstance(params, Mapping) or not all(
            isinstance(k, str) and isinstance(v, Param) for k, v in params.items()
        ):
            report.error(
                "E011",
                f"bots[{name!r}]",
                "has params that are not a mapping of names to games.simulate.bots.Param.",
                "Declare each parameter as Param(default, min, max, help).",
            )
    if figures is None:
        report.error(
            "E011",
            "bot_figures",
            "is missing, but the kit has bots.",
            "Give it figures(setup, moves, initial, states, bots_by_seat) -> dict.",
        )
    else:
        check_callable(
            report,
            "bot_figures",
            figures,
            5,
            "figures(setup, moves, initial, states, bots_by_seat) -> dict",
        )
