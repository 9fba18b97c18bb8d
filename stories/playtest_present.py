"""What the playtest pages and PDFs show: figures as labelled rows, and their charts.

The same charts go into the web page and the PDF (``games.charts``: server-made SVG).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import charts
from games.models_playtest import RATINGS
from games.playtest_stats import ATTRIBUTE_NAMES, CONTEST_ATTRIBUTES, fmt


def duration_text(seconds: int | None) -> str:
    if seconds is None:
        return "—"
    minutes = round(seconds / 60)
    if minutes < 60:
        return _("%(m)s min") % {"m": minutes}
    return _("%(h)s h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}


def _x_axis(report: dict[str, Any], points: int) -> tuple[list[float], str]:
    """Minutes of play when the moves carry times, else move numbers."""
    elapsed = report.get("elapsed") or []
    if report.get("duration_seconds") and len(elapsed) + 1 >= points:
        return [0.0] + [e / 60 for e in elapsed][: points - 1], _("minutes of play")
    return list(range(points)), _("move")


# -- one table ----------------------------------------------------------------------------------
def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The game's figures as (label, value) pairs, in reading order."""
    game, f = report["game"], report.get("figures") or {}
    if game == "amnesia":
        lengths = f.get("challenge_lengths") or []
        finale = f.get("finale")
        return [
            (_("Scenes"), str(f["scenes"])),
            (_("Flashbacks (the room included)"), str(f["flashbacks"])),
            (
                _("Passes"),
                _("%(n)s (taking %(t)s tokens)") % {"n": f["passes"], "t": f["tokens_taken"]},
            ),
            (_("Free suggestions"), str(f["free_suggestions"])),
            (_("Paid suggestions"), str(f["paid_suggestions"])),
            (_("… accepted"), str(f["paid_accepted"])),
            (_("… refused (a challenge)"), str(f["paid_refused"])),
            (_("Challenges"), str(f["challenges"])),
            (_("Challenge lengths (moves)"), ", ".join(map(str, lengths)) or "—"),
            (
                _("The finale opened"),
                _("at move %(m)s (%(p)s of the game, after %(t)s)")
                % {
                    "m": finale["move"] + 1,
                    "p": fmt(finale["fraction"], "percent"),
                    "t": duration_text(finale["elapsed_seconds"]),
                }
                if finale
                else _("never"),
            ),
        ]
    if game == "amnesia_stories":
        steps = f.get("match_rate_by_step") or []
        return [
            (_("Turns"), str(f["turns_played"])),
            (_("Margin of victory"), fmt(report.get("margin"))),
            (_("Red cards"), _join(f["red_cards"])),
            (_("Red-card penalty"), _join(f["penalty"])),
            (_("Set bonuses"), _join(f["set_bonuses"])),
            (
                _("Bard matched, by step"),
                " · ".join(
                    _("step %(n)s: %(r)s") % {"n": i + 1, "r": fmt(r, "percent")}
                    for i, r in enumerate(steps)
                ),
            ),
            (
                _("Steps matched by all / some / none"),
                "{all} / {some} / {none}".format(**f["steps"]),
            ),
        ]
    out = [
        (_("Contests"), str(f["contests"])),
        (
            _("Won by the challenger / the defender"),
            f"{f['challenger_wins']} / {f['defender_wins']}",
        ),
        (_("Refusals"), str(f["refusals"])),
        (_("Forfeits"), str(f["forfeits"])),
        (_("Drinks"), _join(f["drinks"])),
        (_("Pretzels thrown at"), _join(f["pretzels_at"])),
        (_("Pretzels eaten"), _join(f["pretzels_eaten"])),
        (_("Cards lost"), _join(f["cards_lost"])),
    ]
    dropouts = f.get("dropouts") or []
    out.append(
        (
            _("Dropped out"),
            "; ".join(
                _("%(p)s at move %(m)s (%(t)s)")
                % {"p": d["player"], "m": d["move"] + 1, "t": duration_text(d["elapsed_seconds"])}
                for d in dropouts
            )
            or _("nobody"),
        )
    )
    return out


def _join(values: dict[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in values.items()) or "—"


def table_charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    game, f = report["game"], report.get("figures") or {}
    out = []
    if game == "amnesia":
        series = f["tokens"]["series"]
        x, x_label = _x_axis(report, max((len(v) for v in series.values()), default=0))
        title = _("Tokens of each player over time")
        out.append(
            {
                "title": title,
                "svg": charts.line_chart(title, series, x=x, x_label=x_label, y_label=_("tokens")),
            }
        )
        lengths = f.get("challenge_lengths") or []
        if lengths:
            title = _("Length of each challenge")
            out.append(
                {
                    "title": title,
                    "svg": charts.bar_chart(
                        title,
                        [str(i + 1) for i in range(len(lengths))],
                        {_("moves"): lengths},
                        y_label=_("moves"),
                    ),
                }
            )
    elif game == "amnesia_stories":
        series = f["vp"]["series"]
        turns = max((len(v) for v in series.values()), default=1)
        title = _("Victory points turn by turn")
        out.append(
            {
                "title": title,
                "svg": charts.line_chart(
                    title, series, x=list(range(turns)), x_label=_("turn"), y_label=_("VP")
                ),
            }
        )
        rates = f.get("match_rate_by_step") or []
        title = _("How often the bard was matched, by step")
        out.append(
            {
                "title": title,
                "svg": charts.bar_chart(
                    title,
                    [_("step %(n)s") % {"n": i + 1} for i in range(len(rates))],
                    {_("matched"): rates},
                    y_max=1,
                    percent=True,
                ),
            }
        )
    else:
        title = _("Contests by attribute")
        out.append(
            {
                "title": title,
                "svg": charts.bar_chart(
                    title,
                    [str(ATTRIBUTE_NAMES[key]) for key, _label in CONTEST_ATTRIBUTES],
                    {_("contests"): [f["by_attribute"][k] for k, _label in CONTEST_ATTRIBUTES]},
                ),
            }
        )
        players = list(f["drinks"])
        title = _("Drinks and pretzels per player")
        out.append(
            {
                "title": title,
                "svg": charts.bar_chart(
                    title,
                    players,
                    {
                        _("drinks"): [f["drinks"][p] for p in players],
                        _("pretzels thrown at"): [f["pretzels_at"][p] for p in players],
                    },
                ),
            }
        )
    return out


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
                    [_("%(n)s players") % {"n": n} for n, _q in by_players],
                    {_("median minutes"): [q["median"] for _n, q in by_players]},
                    ranges={_("median minutes"): [(q["q1"], q["q3"]) for _n, q in by_players]},
                    y_label=_("minutes"),
                ),
            }
        )
    for row in summary["seat_wins"]:
        title = _("Wins by seat, %(n)s players (%(g)s games)") % {
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
        title = _("Impressions (average of %(n)s answers)") % {"n": summary["impressions"]["count"]}
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
