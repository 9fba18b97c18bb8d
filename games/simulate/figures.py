"""The figures of a run: each with its n and its 95% interval.

A figure that is true or false in each game is a proportion (SciPy's ``binomtest``, its
exact interval); a number is a mean (SciPy's ``bootstrap``, seeded, so the same games give
the same interval). Fewer than ``HANDFUL`` games give no interval. SciPy is imported only
when a run needs an interval.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from games.simulate.engine import derive

HANDFUL = 5
CONFIDENCE = 0.95
RESAMPLES = 2_000


def collect(records: list[dict[str, Any]]) -> dict[str, list]:
    """Each figure's values over the games (a game that lacks a figure adds nothing)."""
    values: dict[str, list] = defaultdict(list)
    for record in records:
        values["finished"].append(record["finished"])
        for name, value in record["figures"].items():
            if value is not None:
                values[name].append(value)
        winners = record["winner_bots"]
        seats = list(record["seat_bots"].values())
        if winners and len(set(seats)) > 1:  # one kind of bot has no edge to measure
            for bot in sorted(set(seats)):
                credit = winners.count(bot) / len(winners)
                values[f"bot.{bot}.win_edge"].append(credit - seats.count(bot) / len(seats))
        seat_values = record.get("seat_values")
        if seat_values and len(set(seats)) > 1:
            for bot, edge in value_edges(record).items():
                values[f"bot.{bot}.value_edge"].append(edge)
    return dict(values)


def value_edges(record: dict[str, Any]) -> dict[str, float]:
    """Each kind of bot's mean value (what its seats play for, the kit's ``bot_value``) over
    the mean of every seat's: above 0, it does better than the table."""
    seat_values = record["seat_values"]
    seat_bots = record["seat_bots"]
    mean = sum(seat_values.values()) / len(seat_values)
    out = {}
    for bot in sorted(set(seat_bots.values())):
        mine = [seat_values[s] for s, b in seat_bots.items() if b == bot]
        out[bot] = sum(mine) / len(mine) - mean
    return out


def interval_of(values: list, seed: int) -> dict[str, Any]:
    """``{"n", "value", "low", "high", "kind"}`` for one figure's values."""
    n = len(values)
    if all(isinstance(v, bool) for v in values):
        k = sum(values)
        out = {"n": n, "kind": "proportion", "value": k / n if n else None}
        if n >= HANDFUL:
            from scipy.stats import binomtest  # SciPy: only when a run needs an interval

            ci = binomtest(k, n).proportion_ci(CONFIDENCE)
            out.update(low=float(ci.low), high=float(ci.high))
        return out
    numbers = [float(v) for v in values]
    mean = sum(numbers) / n if n else None
    out = {"n": n, "kind": "mean", "value": mean}
    if n >= HANDFUL:
        if min(numbers) == max(numbers):
            out.update(low=mean, high=mean)
        else:
            out.update(zip(("low", "high"), bootstrap_mean(numbers, seed), strict=True))
    return out


def bootstrap_mean(numbers: list[float], seed: int) -> tuple[float, float]:
    # SciPy (and NumPy): only when a run needs an interval.
    import numpy as np
    from scipy.stats import bootstrap  # (see above)

    data = np.asarray(numbers, dtype=float)
    method = "BCa" if len(data) <= 2_000 else "percentile"
    res = bootstrap(
        (data,),
        np.mean,
        confidence_level=CONFIDENCE,
        n_resamples=RESAMPLES,
        method=method,
        batch=max(1, 2_000_000 // max(1, len(data))),
        rng=np.random.default_rng(seed),
    )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if math.isnan(low) or math.isnan(high):  # BCa on a nearly constant sample
        res = bootstrap(
            (data,),
            np.mean,
            confidence_level=CONFIDENCE,
            n_resamples=RESAMPLES,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return low, high


def summarize(records: list[dict[str, Any]], seed: int) -> dict[str, dict[str, Any]]:
    """Every figure of the run, by name (sorted), with its n and interval."""
    values = collect(records)
    return {
        name: interval_of(values[name], derive(seed, "bootstrap", name)) for name in sorted(values)
    }


def compare(
    a: list[dict[str, Any]], b: list[dict[str, Any]], seed: int
) -> dict[str, dict[str, Any]]:
    """Each figure's difference (b - a) over games played with the same seeds, paired by
    game index where both games have the figure; its mean and interval."""
    by_index_a = {r["index"]: r for r in a}
    out = {}
    names = sorted(set(collect(a)) & set(collect(b)))
    for name in names:
        diffs = []
        for rb in b:
            ra = by_index_a.get(rb["index"])
            if ra is None:
                continue
            va, vb = _value(ra, name), _value(rb, name)
            if va is None or vb is None:
                continue
            diffs.append(float(vb) - float(va))
        if diffs:
            out[name] = interval_of(diffs, derive(seed, "compare", name))
            out[name]["kind"] = "difference"
    return out


def _value(record: dict[str, Any], name: str) -> Any:
    if name == "finished":
        return record["finished"]
    if name.startswith("bot.") and name.endswith(".win_edge"):
        winners = record["winner_bots"]
        if not winners:
            return None
        bot = name[4:-9]
        seats = list(record["seat_bots"].values())
        return winners.count(bot) / len(winners) - seats.count(bot) / len(seats)
    if name.startswith("bot.") and name.endswith(".value_edge"):
        if not record.get("seat_values"):
            return None
        return value_edges(record).get(name[4:-11])
    return record["figures"].get(name)


def fmt(figure: dict[str, Any]) -> str:
    """'12.3 (11.9–12.8), n=500' or '12.3, n=3' (no interval for fewer than a handful)."""
    value = figure.get("value")
    if value is None:
        return f"–, n={figure['n']}"
    text = _num(value)
    if "low" in figure:
        text += f" ({_num(figure['low'])}–{_num(figure['high'])})"
    return f"{text}, n={figure['n']}"


def _num(x: float) -> str:
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.3f}" if abs(x) < 1 else f"{x:.2f}"
