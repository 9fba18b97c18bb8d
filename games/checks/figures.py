"""The figures, computed from a demo table: the playtest's figures, rows, charts and balance
rows (``games.E008``), and a declaration for every figure the bots produce and every bot
parameter (``games.E013``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from games import registry
from games.checks.demos import Demo
from games.checks.report import Report
from games.playtests import figures as lab_figures
from games.playtests import reports
from games.simulate import figures as simulated


def check_figures(report: Report, demos: list[Demo]) -> None:

    kit = report.kit
    if not isinstance(kit.playtest, registry.PlaytestParts):
        return
    for demo in demos[:1]:
        figures = reports.figures(demo.setup, demo.moves)
        try:
            json.dumps(figures)
        except (TypeError, ValueError) as exc:
            report.error(
                "E008",
                "playtest.figures",
                f"the figures of the demo {demo.name!r} are not JSON: {exc}.",
                "Return numbers, texts, lists and dicts only (they are stored).",
            )
            return
        _balance(report, figures)
        rows = kit.playtest.figure_rows(figures)
        charts = kit.playtest.charts(figures)
        if not isinstance(rows, list) or not all(
            isinstance(r, tuple) and len(r) == 2 for r in rows
        ):
            report.error(
                "E008",
                "playtest.figure_rows",
                "does not give [(label, value)].",
                "Return a list of (label, value) pairs.",
            )
        if not isinstance(charts, list) or not all(
            isinstance(c, Mapping) and {"title", "svg"} <= set(c) for c in charts
        ):
            report.error(
                "E008",
                "playtest.charts",
                "does not give [{'title', 'svg'}].",
                "Return a list of {'title': ..., 'svg': ...}.",
            )


def check_declared_figures(report: Report, demos: list[Demo]) -> None:
    """Every figure the bots' figures give on the demo tables (two kinds of bot seated in
    turn, so the bots' edges are given too) and those the lab adds has its declaration."""
    kit = report.kit
    if kit.bot_figures is None or not isinstance(kit.bots, Mapping) or not kit.bots:
        return
    names = list(kit.bots)[:2]
    for figure in kit.figures:
        if not isinstance(figure, lab_figures.Figure) or figure.unit not in lab_figures.UNITS:
            report.error(
                "E013",
                "figures",
                f"{figure!r} is not a Figure with a unit of {', '.join(lab_figures.UNITS)}.",
                "Declare each as games.playtests.figures.Figure(key, label, meaning, unit).",
            )
            return
    taken: dict[str, str] = {}  # each parameter, and the first bot that takes it
    for bot_name, bot in kit.bots.items():
        params = getattr(bot, "params", None)
        for param in params if isinstance(params, Mapping) else ():
            taken.setdefault(param, bot_name)
    for param, bot_name in taken.items():
        if param not in kit.bot_param_labels:
            report.error(
                "E013",
                "bot_param_labels",
                f"the parameter {param!r} of the {bot_name!r} bot has no words.",
                "Give the kit bot_param_labels={name: (label, one-line meaning)}, "
                "translated: the lab lists and sweeps a parameter by them.",
            )
    for demo in demos[:1]:
        seats = demo.setup.players
        by_seat = {seat: names[i % len(names)] for i, seat in enumerate(seats)}
        given = kit.bot_figures(demo.setup, demo.moves, demo.states[0], demo.states[1:], by_seat)
        record = {
            "index": 0,
            "finished": bool(demo.states[-1].get("finished")),
            "figures": given,
            "winner_bots": [by_seat[seats[0]]],
            "seat_bots": by_seat,
        }
        for key in lab_figures.undeclared(kit, simulated.collect([record])):
            report.error(
                "E013",
                "figures",
                f"the figure {key!r} its bots produce has no declaration.",
                "Add a games.playtests.figures.Figure for it (name and one-line meaning, "
                "translated; unit; headline or not) to the kit's figures.",
            )


def _balance(report: Report, figures: dict[str, Any]) -> None:
    """The dashboard's balance rows, made from one demo's report as the dashboard holds it
    (an entry of ``games.playtests.service.table_entry``'s shape): typed records."""
    entry = {
        **figures,
        "kind": "table",
        "impressions": [],
        "figures": figures.get("figures", {}),
        "winners": figures.get("winners", []),
    }
    rows = report.kit.playtest.balance([entry], [entry["figures"]])
    keys = set(registry.BalanceRow.__annotations__)
    for row in rows if isinstance(rows, list) else [rows]:
        value = row.get("value") if isinstance(row, Mapping) else None
        if (
            not isinstance(row, Mapping)
            or set(row) != keys
            or not isinstance(row["key"], str)
            or row["kind"] not in registry.BALANCE_KINDS
            or not (value is None or isinstance(value, (int, float)))
        ):
            report.error(
                "E008",
                "playtest.balance",
                f"gives {row!r}, not a balance row.",
                "Return a list of games.registry.BalanceRow, made with games.playtests.stats"
                f".row(key, label, value, kind), kind one of {registry.BALANCE_KINDS}.",
            )
            return
