"""The contest's part of the playtest reports: the figures read from a finished table's replay,
the dashboard's balance rows over many tables, and how one report reads and charts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext_lazy

from amnesia_site import lists
from games.playtests import charts as svg
from games.playtests.present import duration_text, join_values
from games.playtests.reports import moment
from games.playtests.stats import mean, quartiles, row, share

ATTRIBUTES = ("brains", "muscle", "moves", "coolness")

# Lazy, and defined once: said in the language of the page, the PDF or the dashboard that
# reads them, never in the language the module happened to be imported in.

CONTEST_ATTRIBUTES = [
    ("brains", _lazy("Contests on brains")),
    ("muscle", _lazy("Contests on muscle")),
    ("moves", _lazy("Contests on moves")),
    ("coolness", _lazy("Contests on coolness")),
]
ATTRIBUTE_NAMES = {
    "brains": _lazy("brains"),
    "muscle": _lazy("muscle"),
    "moves": pgettext_lazy("contest attribute", "moves"),
    "coolness": _lazy("coolness"),
}


def figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
    players = setup.players
    final = states[-1] if states else initial
    by_attribute = Counter()
    wins = Counter()
    pretzels_at = Counter()
    refusals: list[dict[str, Any]] = []
    dropouts: list[dict[str, Any]] = []
    contest_list: list[dict[str, Any]] = []
    before = initial
    for i, (move, state) in enumerate(zip(moves, states, strict=True)):
        verb = move.get("do")
        if verb == "refuse":
            refusals.append({"by": move.get("by"), "penalty": list(move.get("penalty") or [])})
        if verb == "throw_pretzel" and before.get("controller"):
            pretzels_at[before["controller"]] += 1
        if state.get("contests", 0) > before.get("contests", 0):
            last = state.get("last_contest") or {}
            challenger = last.get("challenger")
            attribute = (last.get("attributes") or {}).get(challenger)
            by_attribute[attribute] += 1
            side = "challenger" if last.get("winner") == challenger else "defender"
            wins[side] += 1
            contest_list.append(
                {
                    "move": i,
                    "kind": last.get("kind"),
                    "challenger": challenger,
                    "defender": last.get("defender"),
                    "attribute": attribute,
                    "winner": last.get("winner"),
                    "how": last.get("how"),
                }
            )
        for p in players:
            if state["players"][p]["out"] and not before["players"][p]["out"]:
                dropouts.append({"player": p, **(moment(i, moves, elapsed) or {})})
        before = state
    people = final["players"]
    return {
        "contests": final.get("contests", 0),
        "contest_list": contest_list,
        "by_attribute": {a: by_attribute[a] for a in ATTRIBUTES},
        "challenger_wins": wins["challenger"],
        "defender_wins": wins["defender"],
        "refusals": len(refusals),
        "refusal_list": refusals,
        "forfeits": sum(1 for m in moves if m.get("do") == "forfeit"),
        "drinks": {p: people[p]["drinks"] for p in players},
        "drinks_total": sum(people[p]["drinks"] for p in players),
        "pretzels_thrown": sum(pretzels_at.values()),
        "pretzels_at": {p: pretzels_at[p] for p in players},
        "pretzels_eaten": {p: people[p]["eaten"] for p in players},
        "cards_lost": {p: len(people[p]["lost"]) for p in players},
        "dropouts": dropouts,
        "scores": None,
        "margin": None,
    }


def balance(entries, figs) -> list[dict[str, Any]]:
    attributes: Counter = Counter()
    for f in figs:
        attributes.update(f.get("by_attribute") or {})
    contests = sum(f["contests"] for f in figs)
    challenger = sum(f["challenger_wins"] for f in figs)
    first_out = [f["dropouts"][0]["fraction"] for f in figs if f.get("dropouts")]
    rows = [
        row("contests", _("Contests per game"), mean([f["contests"] for f in figs])),
        row(
            "challenger_wins",
            _("Contests won by the challenger"),
            share(challenger, contests),
            "percent",
        ),
        row("refusals", _("Refusals per game"), mean([f["refusals"] for f in figs])),
        row("forfeits", _("Forfeits per game"), mean([f["forfeits"] for f in figs])),
        row("drinks", _("Drinks per game"), mean([f["drinks_total"] for f in figs])),
        row("pretzels", _("Pretzels thrown per game"), mean([f["pretzels_thrown"] for f in figs])),
        row(
            "first_out",
            _("First player out at (share of the game)"),
            (quartiles(first_out) or {}).get("median"),
            "percent",
        ),
    ]
    for attribute, label in CONTEST_ATTRIBUTES:
        rows.append(
            row(f"attr_{attribute}", label, share(attributes[attribute], contests), "percent")
        )
    return rows


def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    f = report.get("figures") or {}
    out = [
        (_("Contests"), str(f["contests"])),
        (
            _("Won by the challenger / the defender"),
            f"{f['challenger_wins']} / {f['defender_wins']}",
        ),
        (_("Refusals"), str(f["refusals"])),
        (_("Forfeits"), str(f["forfeits"])),
        (_("Drinks"), join_values(f["drinks"])),
        (_("Pretzels thrown at"), join_values(f["pretzels_at"])),
        (_("Pretzels eaten"), join_values(f["pretzels_eaten"])),
        (_("Cards lost"), join_values(f["cards_lost"])),
    ]
    dropouts = f.get("dropouts") or []
    out.append(
        (
            _("Dropped out"),
            lists.groups().join(
                _("%(p)s at move %(m)s (%(t)s)")
                % {"p": d["player"], "m": d["move"] + 1, "t": duration_text(d["elapsed_seconds"])}
                for d in dropouts
            )
            or _("nobody"),
        )
    )
    return out


def charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    f = report.get("figures") or {}
    out = []
    title = _("Contests by attribute")
    out.append(
        {
            "title": title,
            "svg": svg.bar_chart(
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
            "svg": svg.bar_chart(
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
