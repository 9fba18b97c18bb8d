"""Amnesia Stories's part of the playtest reports: the figures read from a finished table's replay,
the dashboard's balance rows over many tables, and how one report reads and charts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _

from games.amnesia_stories.rules.scoring import judge_step, judge_turn
from games.playtests import charts as svg
from games.playtests.present import join_values
from games.playtests.questions import on_scale, proportion, share_text
from games.playtests.stats import fmt, mean, row, share


def figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
    players = setup.players
    opts = setup.options
    final = states[-1] if states else initial
    questions = opts.get("questions", 3)
    # Only the set bonus, by the referee's own judging: every other score switched off.
    set_only = {
        **opts,
        "audience_points": 0,
        "bard_points": 0,
        "set_bonus": 1,
        "red_card_on_all_wrong": False,
    }
    vp_series = {p: [initial["vp"][p]] for p in players}
    turns: list[dict[str, Any]] = []
    step_matches = [0] * questions
    step_chances = [0] * questions
    steps = Counter()
    set_bonuses = Counter()
    bard_scored = 0
    judged = 0
    for i, state in enumerate(states):
        history = state.get("history") or []
        if len(history) == judged:
            continue
        judged = len(history)
        turn = history[-1]
        bard, picks = turn["bard"], turn["picks"]
        audience = [p for p in players if p != bard]
        told = picks[bard]
        matches = [sum(1 for p in audience if picks[p][s] == told[s]) for s in range(len(told))]
        for s, n in enumerate(matches):
            if s < questions:
                step_matches[s] += n
                step_chances[s] += len(audience)
            # the step as the referee judges it (draft 3 pays an obvious step before the climax)
            step_gains, _step_reds, outcome = judge_step(
                opts, bard, {p: picks[p][s] for p in players}, climax=s == len(told) - 1
            )
            steps[outcome] += 1
            if step_gains[bard] > 0:
                bard_scored += 1
        bonus, _reds = judge_turn(set_only, bard, picks)
        winners_of_set = [p for p in audience if bonus[p] > 0]
        set_bonuses.update(winners_of_set)
        # VP as the turn left them; the end-of-game red-card penalty is shown apart.
        vp = {p: state["vp"][p] + state.get("penalty", {}).get(p, 0) for p in players}
        for p in players:
            vp_series[p].append(vp[p])
        turns.append(
            {
                "turn": turn["turn_number"],
                "bard": bard,
                "move": i,
                "elapsed_seconds": elapsed[i] if i < len(elapsed) else None,
                "gains": dict(turn["gains"]),
                "red_cards": dict(turn["red_cards"]),
                "matches": matches,
                "set_bonus": winners_of_set,
                "vp": vp,
            }
        )
    final_vp = dict(final["vp"])
    margin = None
    if final.get("finished"):
        # First place minus second place: 0 for a draw.
        ranked = sorted(final_vp.values(), reverse=True)
        margin = ranked[0] - ranked[1] if len(ranked) > 1 else 0
    return {
        "turns": turns,
        "turns_played": len(turns),
        "vp": {"series": vp_series, "final": final_vp},
        "red_cards": dict(final["red_cards"]),
        "red_cards_total": sum(final["red_cards"].values()),
        "penalty": dict(final.get("penalty") or {}),
        "set_bonuses": {p: set_bonuses[p] for p in players},
        "set_bonus_total": sum(set_bonuses.values()),
        "step_matches": step_matches,
        "step_chances": step_chances,
        "match_rate_by_step": [
            round(m / c, 3) if c else None for m, c in zip(step_matches, step_chances, strict=True)
        ],
        "steps": {k: steps[k] for k in ("all", "some", "none")},
        "bard_scored_steps": bard_scored,
        "scores": final_vp,
        "margin": margin,
    }


def balance(entries, figs) -> list[dict[str, Any]]:
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
    scored = [f for f in figs if "bard_scored_steps" in f]
    rows = [
        row("red_cards", _("Red cards per game"), mean([f["red_cards_total"] for f in figs])),
        row("set_bonuses", _("Set bonuses per game"), mean([f["set_bonus_total"] for f in figs])),
        row("steps_all", _("Steps everyone matched"), share(kinds["all"], total_steps), "percent"),
        row(
            "steps_some",
            _("Steps some matched"),
            share(kinds["some"], total_steps),
            "percent",
        ),
        row("steps_none", _("Steps nobody matched"), share(kinds["none"], total_steps), "percent"),
        row(
            "steps_bard_scored",
            _("Steps the bard scored"),
            # reports made before this figure existed are left out of it
            share(
                sum(f["bard_scored_steps"] for f in scored),
                sum(sum((f.get("steps") or {}).values()) for f in scored),
            ),
            "percent",
        ),
    ]
    for s in range(steps):
        rows.append(
            row(
                f"step_{s + 1}",
                _("Bard matched at step %(n)s") % {"n": s + 1},
                share(matched[s], chances[s]),
                "percent",
            )
        )
    return rows


def figure_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    f = report.get("figures") or {}
    steps = f.get("match_rate_by_step") or []
    return [
        (_("Turns"), str(f["turns_played"])),
        (_("Margin of victory"), fmt(report.get("margin"))),
        (_("Red cards"), join_values(f["red_cards"])),
        (_("Red-card penalty"), join_values(f["penalty"])),
        (_("Set bonuses"), join_values(f["set_bonuses"])),
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


def charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    f = report.get("figures") or {}
    out = []
    series = f["vp"]["series"]
    turns = max((len(v) for v in series.values()), default=1)
    title = _("Victory points turn by turn")
    out.append(
        {
            "title": title,
            "svg": svg.line_chart(
                title, series, x=list(range(turns)), x_label=_("turn"), y_label=_("VP")
            ),
        }
    )
    rates = f.get("match_rate_by_step") or []
    title = _("How often the bard was matched, by step")
    out.append(
        {
            "title": title,
            "svg": svg.bar_chart(
                title,
                [_("step %(n)s") % {"n": i + 1} for i in range(len(rates))],
                {_("matched"): rates},
                y_max=1,
                percent=True,
            ),
        }
    )
    return out


def bot_params(options: dict[str, Any], reports: list[dict[str, Any]]) -> dict[str, dict]:
    """The listeners' ``agreement`` (the ``sensible`` bot's parameter) measured from real
    picks: the share of listeners' picks that matched the bard's, over every step of the
    real plays, with its exact interval, put on the bot's scale between a guess (one slot
    in ``choices``: 0) and a reading that always matches (1), linearly:
    ``(share - 1/choices) / (1 - 1/choices)``, clamped to 0..1 (the interval's ends the
    same way). An approximation the designer can sweep around; nothing without picks."""
    matched = chances = 0
    plays = 0
    for report in reports:
        figs = report.get("figures") or {}
        m, c = sum(figs.get("step_matches") or []), sum(figs.get("step_chances") or [])
        if c:
            matched, chances, plays = matched + m, chances + c, plays + 1
    if not chances:
        return {}
    guess = 1 / max(2, int(options.get("choices") or 2))
    measured = proportion(matched, chances, plays, 3)

    def to_scale(share: float) -> float:
        return min(1.0, max(0.0, (share - guess) / (1 - guess)))

    note = _("Listeners matched the bard in %(share)s of their picks.") % {
        "share": share_text(measured)
    }
    return {"agreement": on_scale(measured, to_scale, note, exact=matched / chances)}
