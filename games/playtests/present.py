"""What the playtest pages and PDFs show: figures as labelled rows, and their charts.

The same charts go into the web page and the PDF (``games.playtests.charts``: server-made SVG).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amnesia_site import lists
from games import registry
from games.playtests import charts
from games.playtests.models import RATINGS


def duration_text(seconds: int | None) -> str:
    if seconds is None:
        return "—"
    minutes = round(seconds / 60)
    if minutes < 60:
        return _("%(m)s min") % {"m": minutes}
    return _("%(h)s h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}


def x_axis(report: dict[str, Any], points: int) -> tuple[list[float], str]:
    """Minutes of play when the moves carry times, else move numbers."""
    elapsed = report.get("elapsed") or []
    if report.get("duration_seconds") and len(elapsed) + 1 >= points:
        return [0.0] + [e / 60 for e in elapsed][: points - 1], _("minutes of play")
    return list(range(points)), _("move")


# -- one table ----------------------------------------------------------------------------------
def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The game's figures as (label, value) pairs, in reading order."""
    return registry.kit(report["game"]).playtest.figure_rows(report)


def join_values(values: dict[str, Any]) -> str:
    """``{name: value}`` as a list in the reader's language ("Ana 1, Bruno 0"; 、 in Japanese)."""
    return lists.listing(f"{name} {value}" for name, value in values.items()) or "—"


def table_charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    return registry.kit(report["game"]).playtest.charts(report)


# -- many tables ----------------------------------------------------------------------------------
def summary_charts(summary: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    by_players = [(n, q) for n, q in summary["duration_by_players"] if q]
    if by_players:
        title = _("Duration by player count (median and quartiles)")
        out.append(
            {
                "title": title,
                "svg": charts.bar_chart(
                    title,
                    [
                        ngettext("%(n)s player", "%(n)s players", n) % {"n": n}
                        for n, _q in by_players
                    ],
                    {_("median minutes"): [q["median"] for _n, q in by_players]},
                    ranges={_("median minutes"): [(q["q1"], q["q3"]) for _n, q in by_players]},
                    y_label=_("minutes"),
                ),
            }
        )
    for row in summary["seat_wins"]:
        title = ngettext(
            "Wins by seat, %(n)s players (%(g)s game)",
            "Wins by seat, %(n)s players (%(g)s games)",
            row["games"],
        ) % {
            "n": row["players"],
            "g": row["games"],
        }
        out.append(
            {
                "title": title,
                "svg": charts.bar_chart(
                    title,
                    [_("seat %(n)s") % {"n": i + 1} for i in range(row["players"])],
                    {_("win share"): row["shares"]},
                    y_max=1,
                    percent=True,
                ),
            }
        )
    averages = summary["impressions"]["averages"]
    if summary["impressions"]["count"]:
        count = summary["impressions"]["count"]
        title = ngettext(
            "Impressions (average of %(n)s answer)", "Impressions (average of %(n)s answers)", count
        ) % {"n": count}
        out.append(
            {
                "title": title,
                "svg": charts.hbar_chart(
                    title,
                    [str(label) for _key, label in RATINGS],
                    {_("average"): [averages[k] for k, _label in RATINGS]},
                    x_max=5,
                ),
            }
        )
    return out


def compare_charts(a_label: str, b_label: str, a: dict, b: dict) -> list[dict[str, Any]]:
    """Impressions and the balance shares of two versions, as paired horizontal bars."""
    a_label, b_label = f"A: {a_label}", f"B: {b_label}"
    title = _("Impressions, A against B")
    out = [
        {
            "title": title,
            "svg": charts.hbar_chart(
                title,
                [str(label) for _key, label in RATINGS],
                {
                    a_label: [a["impressions"]["averages"][k] for k, _l in RATINGS],
                    b_label: [b["impressions"]["averages"][k] for k, _l in RATINGS],
                },
                x_max=5,
            ),
        }
    ]
    shares = [r for r in a["balance"] if r["kind"] == "percent"]
    other = {r["key"]: r for r in b["balance"]}
    if shares:
        title = _("Balance, A against B")
        out.append(
            {
                "title": title,
                "svg": charts.hbar_chart(
                    title,
                    [str(r["label"]) for r in shares],
                    {
                        a_label: [r["value"] for r in shares],
                        b_label: [(other.get(r["key"]) or {}).get("value") for r in shares],
                    },
                    x_max=1,
                    percent=True,
                ),
            }
        )
    return out
