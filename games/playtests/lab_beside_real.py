"""The lab beside the real tables: a run's predicted figures beside those the real plays of its
ruleset measured (pointed out in words only when the difference holds), and what the real
plays measure of the bots' parameters, to offer as a run's."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import registry
from games.models import Ruleset
from games.playtests import figures as N
from games.playtests import questions, service
from games.playtests.models import SimulationRun

# -- predicted beside measured ----------------------------------------------------------------
MIN_REAL_PLAYS = 5
FDR = 0.05


def real_values(entries: list[dict[str, Any]], run: SimulationRun) -> dict[str, list]:
    """The figures the real plays of the run's ruleset version share with a simulation, at
    the run's number of players: length in moves, the first seat's wins, the margin, and every
    figure of the game's bots computed from the real logs (the report's ``engine``)."""
    values: dict[str, list] = {"moves": [], "seat1.wins": [], "margin": []}
    for e in entries:
        if e.get("kind") != "table" or e.get("ruleset_id") != run.ruleset_id:
            continue
        if e.get("players") != run.players or not e.get("finished"):
            continue
        if e.get("moves") is not None:
            values["moves"].append(float(e["moves"]))
        order, winners = e.get("seat_order") or [], e.get("winners") or []
        if order and winners:
            values["seat1.wins"].append(order[0] in winners)
        if e.get("margin") is not None:
            values["margin"].append(float(e["margin"]))
        # Every other figure the simulation has, computed from the real log the same way.
        for key, value in (e.get("engine") or {}).items():
            if key not in ("moves", "seat1.wins", "margin") and value is not None:
                values.setdefault(key, []).append(value)
    return {k: v for k, v in values.items() if v}


def _pvalue(real: list, expected: float) -> float:
    if all(isinstance(v, bool) for v in real):
        from scipy.stats import binomtest  # SciPy: only when real plays are compared

        return float(binomtest(sum(real), len(real), min(max(expected, 0.0), 1.0)).pvalue)
    if min(real) == max(real):
        return 1.0 if real[0] == expected else 0.0
    from scipy.stats import ttest_1samp  # (see above)

    return float(ttest_1samp(real, expected).pvalue)


def predicted(run: SimulationRun, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Each shared figure: the real plays' value and n beside the simulated band; those
    outside the band pointed out in words, only with at least MIN_REAL_PLAYS plays and when
    the difference holds after the false discovery rate correction over the figures
    compared (``scipy.stats.false_discovery_control``)."""
    real = real_values(entries, run)
    rows = []
    for name, values in sorted(real.items()):
        sim = run.figures.get(name)
        if not sim or sim.get("value") is None:
            continue
        mean = sum(float(v) for v in values) / len(values)
        rows.append(
            {
                "name": name,
                "label": N.label(run.game, name),
                "real_text": N.show(run.game, name, mean),
                "sim_text": N.show_figure(run.game, name, sim),
                "real": mean,
                "n": len(values),
                "sim": sim,
                "outside": "low" in sim and not sim["low"] <= mean <= sim["high"],
                "p": _pvalue(values, sim["value"]),
            }
        )
    if rows:
        from scipy.stats import false_discovery_control  # (see above)

        qs = false_discovery_control([r["p"] for r in rows])
        for row, q in zip(rows, qs, strict=True):
            row["q"] = float(q)
    said = []
    for row in rows:
        row["pointed"] = row["outside"] and row["n"] >= MIN_REAL_PLAYS and row["q"] < FDR
        if row["pointed"]:
            sim = row["sim"]
            change = (row["real"] - sim["value"]) / sim["value"] if sim["value"] else None
            if row["name"] == "moves" and change is not None and change < 0:
                said.append(
                    _(
                        "Real tables end %(pct)s sooner than the simulation (%(real)s moves "
                        "against %(low)s–%(high)s, %(n)s plays): are scenes cut short?"
                    )
                    % {
                        "pct": N.show_share(-change),
                        "real": N.number(row["real"]),
                        "low": N.number(sim["low"]),
                        "high": N.number(sim["high"]),
                        "n": row["n"],
                    }
                )
            else:
                said.append(
                    _(
                        "Real tables give %(figure)s %(real)s, outside the simulated "
                        "%(low)s–%(high)s (%(n)s plays)."
                    )
                    % {
                        "figure": N.label(run.game, row["name"]),
                        "real": N.show(run.game, row["name"], row["real"]),
                        "low": N.show(run.game, row["name"], sim["low"]),
                        "high": N.show(run.game, row["name"], sim["high"]),
                        "n": row["n"],
                    }
                )
    few = 0 < max((r["n"] for r in rows), default=0) < MIN_REAL_PLAYS
    order = N.ordered(run.game, [r["name"] for r in rows])
    rows.sort(key=lambda r: order.index(r["name"]))
    minutes = _minutes_row(run, entries)
    if minutes:
        rows.insert(1 if rows and rows[0]["name"] == "moves" else 0, minutes)
    return {"rows": rows, "said": said, "few": few, "min": MIN_REAL_PLAYS}


def _minutes_row(run: SimulationRun, entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Real minutes beside the simulated ones estimated at the real tables' pace
    (``questions.minutes``). Never pointed out: the estimate comes from these same tables."""
    sim = questions.minutes(run.figures.get("moves"), questions.pace(entries))
    real = [
        e["duration_seconds"] / 60
        for e in entries
        if e.get("kind") == "table"
        and e.get("ruleset_id") == run.ruleset_id
        and e.get("players") == run.players
        and e.get("finished")
        and e.get("duration_seconds")
    ]
    if sim is None or not real:
        return None
    mean = sum(real) / len(real)
    return {
        "name": "minutes",
        "label": N.label(run.game, "minutes"),
        "real": mean,
        "n": len(real),
        "sim": sim,
        "outside": False,
        "pointed": False,
        "estimated": True,
        "real_text": N.show(run.game, "minutes", mean),
        "sim_text": N.show_figure(run.game, "minutes", sim),
    }


def measured_params(user, game: str) -> list[dict[str, Any]]:
    """For each ruleset version with real plays the user may see, what those plays measure
    of the bots' parameters (the game's ``playtest.bot_params``, e.g. Amnesia Stories'
    listeners' ``agreement`` from their picks), to offer as a run's parameters."""

    measure = registry.kit(game).playtest.bot_params
    if measure is None:
        return []
    by_ruleset: dict[int, list[dict]] = {}
    rulesets: dict[int, Ruleset] = {}
    tables = service.scope_tables(user, game).filter(ruleset__isnull=False)
    for table in service.tables_with_reports(tables):
        by_ruleset.setdefault(table.ruleset_id, []).append(table.playtest_report.figures)
        rulesets[table.ruleset_id] = table.ruleset
    out = []
    for pk, reports in sorted(by_ruleset.items()):
        found = measure(rulesets[pk].options, reports)
        if found:
            out.append({"ruleset": rulesets[pk], "params": found})
    return out
