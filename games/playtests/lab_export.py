"""A lab run exported: as JSON (every setting, figure and finding, a sweep's values within)
and as CSV (a row a figure, a sweep's value beside it)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from games.playtests import figures as N
from games.playtests import lab_words as words
from games.playtests.lab_reading import swept_value
from games.playtests.models import SimulationRun


def as_json(run: SimulationRun) -> dict[str, Any]:
    return {
        "id": run.pk,
        "game": run.game,
        "ruleset": run.ruleset_label,
        "players": run.players,
        "games_asked": run.games_asked,
        "games": run.games_done,
        "status": run.status,
        "bots": run.bots,
        "params": run.params,
        "options": run.options,
        "changed": run.changed,
        "sweep": run.sweep,
        "seed": run.seed,
        "app_version": run.app_version,
        "created_at": run.created_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "ruleset_words": words.run_ruleset(run),
        "figures": N.labelled(run.game, run.figures),
        "findings": run.findings,
        "children": [as_json(c) for c in run.children.order_by("pk")],
    }


def as_csv(run: SimulationRun) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["run", "value", "figure", "label", "n", "mean", "low", "high", "kind", "shown"]
    )
    rows = [(run, "")] if not run.sweep else []
    rows += [(c, json.dumps(swept_value(run, c))) for c in run.children.order_by("pk")]
    for each, value in rows:
        for name in N.ordered(run.game, each.figures):
            fig = each.figures[name]
            writer.writerow(
                [
                    each.pk,
                    value,
                    name,
                    N.label(run.game, name),
                    fig["n"],
                    fig.get("value"),
                    fig.get("low", ""),
                    fig.get("high", ""),
                    fig["kind"],
                    N.show_figure(run.game, name, fig),
                ]
            )
    return out.getvalue()
