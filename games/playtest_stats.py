"""What the designer's dashboard says about many reports: counts, durations, first-player
advantage, score spreads, impressions and each game's balance figures.

Plain functions over the report rows of ``playtest_service.entries_for`` (dicts): no query
here, so the dashboard costs the same number of queries for 5 reports as for 200.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

from django.utils.translation import gettext_lazy as _

from .models_playtest import RATINGS


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


def _mean(values: list[float]) -> float | None:
    data = [v for v in values if v is not None]
    return statistics.fmean(data) if data else None


def _share(part: float, whole: float) -> float | None:
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
        "averages": {key: _mean([r.get(key) for r in rows]) for key, _label in RATINGS},
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
        "draws": _share(sum(1 for e in with_winners if len(e["winners"]) > 1), len(with_winners)),
        "impressions": impression_averages(entries),
        "balance": balance(game, [e for e in entries if e.get("figures")]),
    }


# -- each game's balance figures ------------------------------------------------------------------
def _row(key: str, label, value, kind: str = "number") -> dict[str, Any]:
    return {"key": key, "label": label, "value": value, "kind": kind}


def balance(game: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    figs = [e["figures"] for e in entries]
    if not figs:
        return []
    if game == "amnesia":
        return amnesia_balance(entries, figs)
    if game == "amnesia_stories":
        return stories_balance(figs)
    return contest_balance(entries, figs)


def amnesia_balance(entries, figs) -> list[dict[str, Any]]:
    accepted = sum(f["paid_accepted"] for f in figs)
    refused = sum(f["paid_refused"] for f in figs)
    lengths = [n for f in figs for n in f.get("challenge_lengths", [])]
    roles: Counter = Counter()
    for f in figs:
        roles.update(f.get("challenge_wins") or {})
    won = sum(roles.values())
    finale = [f["finale"]["fraction"] for f in figs if f.get("finale")]
    spreads = score_spreads(entries)
    return [
        _row("scenes", _("Scenes per game"), _mean([f["scenes"] for f in figs])),
        _row("flashbacks", _("Flashbacks per game"), _mean([f["flashbacks"] for f in figs])),
        _row("passes", _("Passes per game"), _mean([f["passes"] for f in figs])),
        _row("paid", _("Paid suggestions per game"), _mean([f["paid_suggestions"] for f in figs])),
        _row(
            "refused_share",
            _("Paid suggestions refused"),
            _share(refused, accepted + refused),
            "percent",
        ),
        _row("challenges", _("Challenges per game"), _mean([f["challenges"] for f in figs])),
        _row(
            "challenge_length",
            _("Moves per challenge (median)"),
            (quartiles(lengths) or {}).get("median"),
        ),
        _row(
            "narrator_wins",
            _("Challenges won by the narrator"),
            _share(roles["narrator"], won),
            "percent",
        ),
        _row(
            "insister_wins",
            _("Challenges won by the insisting player"),
            _share(roles["insister"], won),
            "percent",
        ),
        _row(
            "finale_reached",
            _("Games where the room was remembered"),
            _share(len(finale), len(figs)),
            "percent",
        ),
        _row(
            "finale_at",
            _("The room remembered at (share of the game)"),
            (quartiles(finale) or {}).get("median"),
            "percent",
        ),
        _row(
            "token_spread",
            _("Token spread at the end (median)"),
            (quartiles(spreads) or {}).get("median"),
        ),
    ]


def stories_balance(figs) -> list[dict[str, Any]]:
    steps = max((len(f.get("step_matches", [])) for f in figs), default=0)
    matched = [0] * steps
    chances = [0] * steps
    kinds: Counter = Counter()
    for f in figs:
        for s, (m, c) in enumerate(zip(f["step_matches"], f["step_chances"], strict=True)):
            matched[s] += m
            chances[s] += c
        kinds.update(f.get("steps") or {})
    total_steps = sum(kinds.values())
    rows = [
        _row("red_cards", _("Red cards per game"), _mean([f["red_cards_total"] for f in figs])),
        _row("set_bonuses", _("Set bonuses per game"), _mean([f["set_bonus_total"] for f in figs])),
        _row(
            "steps_all", _("Steps everyone matched"), _share(kinds["all"], total_steps), "percent"
        ),
        _row(
            "steps_some",
            _("Steps some matched (the bard scores)"),
            _share(kinds["some"], total_steps),
            "percent",
        ),
        _row(
            "steps_none", _("Steps nobody matched"), _share(kinds["none"], total_steps), "percent"
        ),
    ]
    for s in range(steps):
        rows.append(
            _row(
                f"step_{s + 1}",
                _("Bard matched at step %(n)s") % {"n": s + 1},
                _share(matched[s], chances[s]),
                "percent",
            )
        )
    return rows


def contest_balance(entries, figs) -> list[dict[str, Any]]:
    attributes: Counter = Counter()
    for f in figs:
        attributes.update(f.get("by_attribute") or {})
    contests = sum(f["contests"] for f in figs)
    challenger = sum(f["challenger_wins"] for f in figs)
    first_out = [f["dropouts"][0]["fraction"] for f in figs if f.get("dropouts")]
    rows = [
        _row("contests", _("Contests per game"), _mean([f["contests"] for f in figs])),
        _row(
            "challenger_wins",
            _("Contests won by the challenger"),
            _share(challenger, contests),
            "percent",
        ),
        _row("refusals", _("Refusals per game"), _mean([f["refusals"] for f in figs])),
        _row("forfeits", _("Forfeits per game"), _mean([f["forfeits"] for f in figs])),
        _row("drinks", _("Drinks per game"), _mean([f["drinks_total"] for f in figs])),
        _row(
            "pretzels", _("Pretzels thrown per game"), _mean([f["pretzels_thrown"] for f in figs])
        ),
        _row(
            "first_out",
            _("First player out at (share of the game)"),
            (quartiles(first_out) or {}).get("median"),
            "percent",
        ),
    ]
    for attribute, label in CONTEST_ATTRIBUTES:
        rows.append(
            _row(f"attr_{attribute}", label, _share(attributes[attribute], contests), "percent")
        )
    return rows


CONTEST_ATTRIBUTES = [
    ("brains", _("Contests on brains")),
    ("muscle", _("Contests on muscle")),
    ("moves", _("Contests on moves")),
    ("coolness", _("Contests on coolness")),
]
ATTRIBUTE_NAMES = {
    "brains": _("brains"),
    "muscle": _("muscle"),
    "moves": _("moves"),
    "coolness": _("coolness"),
}


# -- two versions side by side ----------------------------------------------------------------------
def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of figures for two summaries, with B minus A where both are numbers."""

    def q(summary, key, part):
        return (summary.get(key) or {}).get(part)

    def seat1(summary):
        shares = [r["shares"][0] for r in summary["seat_wins"] for _ in range(r["games"])]
        return _mean(shares)

    rows = [
        _row("count", _("Playtests"), (a["count"], b["count"])),
        _row(
            "duration",
            _("Duration, median (minutes)"),
            (q(a, "duration", "median"), q(b, "duration", "median")),
        ),
        _row(
            "duration_q1",
            _("Duration, first quartile (minutes)"),
            (q(a, "duration", "q1"), q(b, "duration", "q1")),
        ),
        _row(
            "duration_q3",
            _("Duration, third quartile (minutes)"),
            (q(a, "duration", "q3"), q(b, "duration", "q3")),
        ),
        _row("seat1", _("Wins by the start player"), (seat1(a), seat1(b)), "percent"),
        _row(
            "spread",
            _("Score spread, median"),
            (q(a, "score_spread", "median"), q(b, "score_spread", "median")),
        ),
        _row(
            "margin",
            _("Margin of victory, median"),
            (q(a, "margin", "median"), q(b, "margin", "median")),
        ),
    ]
    for key, label in RATINGS:
        rows.append(
            _row(
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
            _row(
                key,
                ref["label"],
                ((a_rows.get(key) or {}).get("value"), (b_rows.get(key) or {}).get("value")),
                ref["kind"],
            )
        )
    for row in rows:
        va, vb = row["value"]
        row["a"], row["b"] = va, vb
        row["delta"] = (
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
        return f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"
    return str(value)


def fmt_delta(value: Any, kind: str = "number") -> str:
    """B minus A: signed, in percentage points for shares, and 0 when they are equal."""
    if value is None:
        return ""
    if kind == "percent":
        value = round(value * 100)
        return "0" if value == 0 else _("%(n)s pts") % {"n": f"{value:+d}"}
    if isinstance(value, float):
        value = round(value, 1)
        return "0" if value == 0 else f"{value:+.1f}"
    return "0" if value == 0 else f"{value:+d}"
