"""What the designer's dashboard says about many reports: counts, durations, first-player
advantage, score spreads, impressions and each game's balance figures.

Plain functions over the report rows of ``playtest_service.entries_for`` (dicts): no query
here, so the dashboard costs the same number of queries for 5 reports as for 200.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

from django.utils import formats
from django.utils.translation import gettext_lazy as _

from games import registry
from games.playtests.models import RATINGS


def quartiles(values: list[float]) -> dict[str, float] | None:
    """Median and quartiles (inclusive method: the quartiles of 1..5 are 2 and 4)."""
    data = sorted(v for v in values if v is not None)
    if not data:
        return None
    if len(data) == 1:
        q1 = median = q3 = data[0]
    else:
        q1, median, q3 = statistics.quantiles(data, n=4, method="inclusive")
    return {
        "n": len(data),
        "min": data[0],
        "q1": q1,
        "median": median,
        "q3": q3,
        "max": data[-1],
        "mean": statistics.fmean(data),
    }


def mean(values: list[float]) -> float | None:
    data = [v for v in values if v is not None]
    return statistics.fmean(data) if data else None


def share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def minutes(entry: dict[str, Any]) -> float | None:
    seconds = entry.get("duration_seconds")
    return seconds / 60 if seconds is not None else None


# -- the parts of a summary ---------------------------------------------------------------------
def seat_wins(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Win share by seat position (1: the start player), per player count. A draw between k
    winners gives each 1/k, so each count's shares add up to 1."""
    wins: dict[int, list[float]] = {}
    games: Counter = Counter()
    for entry in entries:
        order, winners = entry.get("seat_order") or [], entry.get("winners") or []
        if not order or not winners:
            continue
        n = len(order)
        wins.setdefault(n, [0.0] * n)
        games[n] += 1
        for name in winners:
            if name in order:
                wins[n][order.index(name)] += 1 / len(winners)
    return [
        {
            "players": n,
            "games": games[n],
            "shares": [w / games[n] for w in wins[n]],
            "expected": 1 / n,
        }
        for n in sorted(wins)
    ]


def impression_averages(entries: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [i for e in entries for i in e.get("impressions") or []]
    return {
        "count": len(rows),
        "averages": {key: mean([r.get(key) for r in rows]) for key, _label in RATINGS},
    }


def score_spreads(entries: list[dict[str, Any]]) -> list[float]:
    return [
        max(e["scores"].values()) - min(e["scores"].values()) for e in entries if e.get("scores")
    ]


def summarize(game: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    by_players: dict[int, list[float]] = defaultdict(list)
    for entry in entries:
        if entry.get("players") and minutes(entry) is not None:
            by_players[entry["players"]].append(minutes(entry))
    with_winners = [e for e in entries if e.get("winners")]
    return {
        "count": len(entries),
        "tables": sum(1 for e in entries if e["kind"] == "table"),
        "external": sum(1 for e in entries if e["kind"] == "external"),
        "player_counts": sorted(Counter(e["players"] for e in entries if e.get("players")).items()),
        "duration": quartiles([minutes(e) for e in entries]),
        "duration_by_players": [(n, quartiles(by_players[n])) for n in sorted(by_players)],
        "seat_wins": seat_wins(entries),
        "score_spread": quartiles(score_spreads(entries)),
        "margin": quartiles([e["margin"] for e in entries if e.get("margin") is not None]),
        "draws": share(sum(1 for e in with_winners if len(e["winners"]) > 1), len(with_winners)),
        "impressions": impression_averages(entries),
        "balance": balance(game, [e for e in entries if e.get("figures")]),
    }


# -- each game's balance figures ------------------------------------------------------------------
def row(key: str, label, value, kind: str = "number") -> dict[str, Any]:
    return {"key": key, "label": label, "value": value, "kind": kind}


def balance(game: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    figs = [e["figures"] for e in entries]
    if not figs:
        return []
    return registry.kit(game).playtest.balance(entries, figs)


# -- two versions side by side ----------------------------------------------------------------------
def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of figures for two summaries, with B minus A where both are numbers."""

    def q(summary, key, part):
        return (summary.get(key) or {}).get(part)

    def seat1(summary):
        shares = [r["shares"][0] for r in summary["seat_wins"] for _ in range(r["games"])]
        return mean(shares)

    rows = [
        row("count", _("Playtests"), (a["count"], b["count"])),
        row(
            "duration",
            _("Duration, median (minutes)"),
            (q(a, "duration", "median"), q(b, "duration", "median")),
        ),
        row(
            "duration_q1",
            _("Duration, first quartile (minutes)"),
            (q(a, "duration", "q1"), q(b, "duration", "q1")),
        ),
        row(
            "duration_q3",
            _("Duration, third quartile (minutes)"),
            (q(a, "duration", "q3"), q(b, "duration", "q3")),
        ),
        row("seat1", _("Wins by the start player"), (seat1(a), seat1(b)), "percent"),
        row(
            "spread",
            _("Score spread, median"),
            (q(a, "score_spread", "median"), q(b, "score_spread", "median")),
        ),
        row(
            "margin",
            _("Margin of victory, median"),
            (q(a, "margin", "median"), q(b, "margin", "median")),
        ),
    ]
    for key, label in RATINGS:
        rows.append(
            row(
                f"rating_{key}",
                label,
                (a["impressions"]["averages"][key], b["impressions"]["averages"][key]),
                "rating",
            )
        )
    b_rows = {r["key"]: r for r in b["balance"]}
    a_rows = {r["key"]: r for r in a["balance"]}
    for key in list(a_rows) + [k for k in b_rows if k not in a_rows]:
        ref = a_rows.get(key) or b_rows[key]
        rows.append(
            row(
                key,
                ref["label"],
                ((a_rows.get(key) or {}).get("value"), (b_rows.get(key) or {}).get("value")),
                ref["kind"],
            )
        )
    for line in rows:
        va, vb = line["value"]
        line["a"], line["b"] = va, vb
        line["delta"] = (
            vb - va if isinstance(va, int | float) and isinstance(vb, int | float) else None
        )
    return rows


def fmt(value: Any, kind: str = "number") -> str:
    """A figure as the dashboard prints it (— for no data)."""
    if value is None:
        return "—"
    if kind == "percent":
        return f"{value * 100:.0f}%"
    if isinstance(value, float):
        # in the reader's own decimals (3,5 in Portuguese)
        return formats.number_format(value, 1 if abs(value) < 100 else 0)
    return str(value)


def fmt_delta(value: Any, kind: str = "number") -> str:
    """B minus A: signed, in percentage points for shares, and 0 when they are equal."""
    if value is None:
        return ""
    if kind == "percent":
        value = round(value * 100)
        return "0" if value == 0 else _("%(n)s pts") % {"n": _sign(value) + str(abs(value))}
    if isinstance(value, float):
        value = round(value, 1)
        return "0" if value == 0 else _sign(value) + formats.number_format(abs(value), 1)
    return "0" if value == 0 else _sign(value) + str(abs(value))


def _sign(value: float) -> str:
    """+ or the minus sign (−, as the lab's differences and the charts write it)."""
    return "+" if value > 0 else "−"
