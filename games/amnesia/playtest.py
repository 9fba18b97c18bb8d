"""Amnesia's part of the playtest reports: the figures read from a finished table's replay,
the dashboard's balance rows over many tables, and how one report reads and charts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amnesia_site.lists import listing
from games.playtests import charts as svg
from games.playtests import stats
from games.playtests.present import duration_text, x_axis
from games.playtests.reports import moment
from games.playtests.stats import fmt, mean, quartiles, row, share


def figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
    players = setup.players
    final = states[-1] if states else initial
    verbs = Counter(m.get("do") for m in moves)
    tokens = {p: [initial["tokens"][p]] for p in players}
    challenges: list[dict[str, Any]] = []
    open_at: int | None = None
    opened: dict[str, Any] = {}
    finale_available: int | None = None
    finale_told: int | None = None
    before = initial
    threshold = setup.options.get("finale_factor", 2) * len(players)
    for i, (move, state) in enumerate(zip(moves, states, strict=True)):
        for p in players:
            tokens[p].append(state["tokens"][p])
        if before.get("challenge") is None and state.get("challenge") is not None:
            open_at = i
            current = state["challenge"]
            opened = {"narrator": current["narrator"], "insister": current["insister"]}
        if before.get("challenge") is not None and state.get("challenge") is None:
            last = state.get("last_challenge") or {}
            winner = last.get("winner")
            role = (
                "narrator"
                if winner == opened["narrator"]
                else "insister"
                if winner == opened["insister"]
                else "joiner"
            )
            challenges.append(
                {
                    "start": open_at,
                    "end": i,
                    "length": i - (open_at or 0) + 1,
                    **opened,
                    "joined": sum(1 for m in moves[open_at : i + 1] if m.get("do") == "join"),
                    "winner": winner,
                    "winner_role": role,
                    "pot": last.get("pot"),
                }
            )
            open_at = None
        if finale_available is None and state.get("discard", 0) > threshold:
            finale_available = i
        if finale_told is None and move.get("do") == "room_flashback":
            finale_told = i
        before = state
    lengths = [c["length"] for c in challenges]
    return {
        "scenes": final.get("scenes", 0),
        "flashbacks": final.get("flashbacks", 0),
        "room_flashback_told": bool(final.get("room_flashback_told")),
        "passes": verbs["pass"],
        "tokens_taken": sum(int(m.get("take") or 0) for m in moves if m.get("do") == "pass"),
        "free_suggestions": verbs["suggest"],
        "paid_suggestions": verbs["insist"],
        "paid_accepted": verbs["accept"],
        "paid_refused": verbs["refuse"],
        "challenges": len(challenges),
        "challenge_lengths": lengths,
        "challenge_list": challenges,
        "challenge_wins": dict(Counter(c["winner_role"] for c in challenges)),
        "tokens": {"series": tokens, "final": dict(final["tokens"])},
        "finale_available": moment(finale_available, moves, elapsed),
        "finale": moment(finale_told, moves, elapsed),
        "scores": dict(final["tokens"]),
    }


def balance(entries, figs) -> list[dict[str, Any]]:
    accepted = sum(f["paid_accepted"] for f in figs)
    refused = sum(f["paid_refused"] for f in figs)
    lengths = [n for f in figs for n in f.get("challenge_lengths", [])]
    roles: Counter = Counter()
    for f in figs:
        roles.update(f.get("challenge_wins") or {})
    won = sum(roles.values())
    finale = [f["finale"]["fraction"] for f in figs if f.get("finale")]
    spreads = stats.score_spreads(entries)
    return [
        row("scenes", _("Scenes per game"), mean([f["scenes"] for f in figs])),
        row("flashbacks", _("Flashbacks per game"), mean([f["flashbacks"] for f in figs])),
        row("passes", _("Passes per game"), mean([f["passes"] for f in figs])),
        row("paid", _("Paid suggestions per game"), mean([f["paid_suggestions"] for f in figs])),
        row(
            "refused_share",
            _("Paid suggestions refused"),
            share(refused, accepted + refused),
            "percent",
        ),
        row("challenges", _("Challenges per game"), mean([f["challenges"] for f in figs])),
        row(
            "challenge_length",
            _("Moves per challenge (median)"),
            (quartiles(lengths) or {}).get("median"),
        ),
        row(
            "narrator_wins",
            _("Challenges won by the narrator"),
            share(roles["narrator"], won),
            "percent",
        ),
        row(
            "insister_wins",
            _("Challenges won by the insisting player"),
            share(roles["insister"], won),
            "percent",
        ),
        row(
            "finale_reached",
            _("Games where the room was remembered"),
            share(len(finale), len(figs)),
            "percent",
        ),
        row(
            "finale_at",
            _("The room remembered at (share of the game)"),
            (quartiles(finale) or {}).get("median"),
            "percent",
        ),
        row(
            "token_spread",
            _("Token spread at the end (median)"),
            (quartiles(spreads) or {}).get("median"),
        ),
    ]


def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    f = report.get("figures") or {}
    lengths = f.get("challenge_lengths") or []
    finale = f.get("finale")
    return [
        (_("Scenes"), str(f["scenes"])),
        (_("Flashbacks (the room included)"), str(f["flashbacks"])),
        (
            _("Passes"),
            ngettext(
                "%(n)s (taking %(t)s token)",
                "%(n)s (taking %(t)s tokens)",
                f["tokens_taken"],
            )
            % {"n": f["passes"], "t": f["tokens_taken"]},
        ),
        (_("Free suggestions"), str(f["free_suggestions"])),
        (_("Paid suggestions"), str(f["paid_suggestions"])),
        (_("… accepted"), str(f["paid_accepted"])),
        (_("… refused (a challenge)"), str(f["paid_refused"])),
        (_("Challenges"), str(f["challenges"])),
        (_("Challenge lengths (moves)"), listing(lengths) or "—"),
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


def charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    f = report.get("figures") or {}
    out = []
    series = f["tokens"]["series"]
    x, x_label = x_axis(report, max((len(v) for v in series.values()), default=0))
    title = _("Tokens of each player over time")
    out.append(
        {
            "title": title,
            "svg": svg.line_chart(title, series, x=x, x_label=x_label, y_label=_("tokens")),
        }
    )
    lengths = f.get("challenge_lengths") or []
    if lengths:
        title = _("Length of each challenge")
        out.append(
            {
                "title": title,
                "svg": svg.bar_chart(
                    title,
                    [str(i + 1) for i in range(len(lengths))],
                    {_("moves"): lengths},
                    y_label=_("moves"),
                ),
            }
        )
    return out
