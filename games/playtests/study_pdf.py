"""A whole study in the playtest report PDF, as the document a designer sends to
co-designers: its answer in sentences, each cell's headline figures in a table, its charts,
and each cell's figures beside the real plays of the same ruleset version (the lab's
``predicted``), in the reader's language.

A sweep or a study opens here the same way (``study_reading.view_of``); a plain run keeps the
report's own section for one run.
"""

from __future__ import annotations

from typing import Any

from games.playtests import figures as names
from games.playtests import lab_beside_real, service, study_answer, study_charts, study_reading
from games.playtests.models import SimulationRun

# The figures set beside the real plays in the PDF: the headline ones, then the length.
LENGTH = ("moves", "minutes")


def cell_words(view: study_reading.View, cell: study_reading.Cell) -> str:
    game = view.top.game
    parts = []
    if len(view.rulesets) > 1 and cell.ruleset is not None:
        parts.append(view.rulesets[cell.ruleset])
    parts.append(names.number(cell.players, 0))
    for axis, value in zip(view.grid, cell.values, strict=False):
        parts.append(
            f"{study_reading.axis_label(game, axis)} {study_reading.value_words(game, axis, value)}"
        )
    return " · ".join(parts)


def context(user, run: SimulationRun | None) -> dict[str, Any]:
    """The PDF's study section for a sweep or a study ({} for anything else)."""
    if run is None or not run.sweep:
        return {}
    view = study_reading.view_of(run)
    game = run.game
    keys = study_answer.headline(view)
    entries = service.entries_for(user, game)
    cells = []
    for cell in view.cells:
        beside = []
        if cell.run.ruleset_id and cell.run.figures:
            shown = set(keys) | set(LENGTH)
            beside = [
                r
                for r in lab_beside_real.predicted(cell.run, entries)["rows"]
                if r["name"] in shown
            ]
        cells.append(
            {
                "words": cell_words(view, cell),
                "games": cell.run.games_done,
                "figures": [names.show_figure(game, k, cell.run.figures.get(k)) for k in keys],
                "beside": beside,
            }
        )
    return {
        "study": {
            "run": run,
            "rulesets": view.rulesets,
            "players": view.players,
            "bots": study_reading.bots_words(view)[1],  # what its cells play
            "axes": [
                {
                    "label": study_reading.axis_label(game, a),
                    "values": [study_reading.value_words(game, a, v) for v in a.get("values", [])],
                }
                for a in view.grid
            ],
            "sentences": study_answer.answer(view) if not run.active else [],
            "columns": [names.label(game, k) for k in keys],
            "cells": cells,
            "charts": [c for k in keys for c in study_charts.figure_charts(view, k)]
            + study_charts.histograms(view),
        }
    }
