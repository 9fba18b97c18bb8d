"""A finished table's playtest figures, computed from its move log by the referee's replay.

Everything here is a pure function of a set-up and the live moves (each with its ``at``
timestamp): no Django, no clock, and no rule re-implemented. The game states come from
``rules.script.replay(..., keep_states=True)``; this module only reads them, and where a
figure needs a rule (a set bonus) it asks the referee's own function.

The result is plain JSON, cached in ``PlaytestReport.figures`` and recomputed whenever the log
has moved on (``FIGURES_VERSION`` also changes when the computation does).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from .rules.base import Setup
from .rules.script import replay

FIGURES_VERSION = 1
# A gap between two moves longer than this is a pause (dinner, a phone call): left out.
PAUSE_SECONDS = 15 * 60


# -- time ---------------------------------------------------------------------------------
def _when(raw: Any) -> datetime | None:
    if isinstance(raw, datetime):
        return raw
    if isinstance(raw, str) and raw:
        try:
            return datetime.fromisoformat(raw)
        except ValueError:
            return None
    return None


def timeline(moves: list[dict[str, Any]], pause_seconds: int = PAUSE_SECONDS) -> dict[str, Any]:
    """Playing time: ``elapsed[i]`` is the active seconds from the first move to move ``i``.

    A gap over ``pause_seconds`` counts as nothing; a gap of exactly that still counts. Moves
    without a time (an imported script may lack some) add nothing either.
    """
    stamps = [_when(m.get("at")) for m in moves]
    elapsed: list[int] = []
    pauses: list[dict[str, int]] = []
    total = 0.0
    previous: datetime | None = None
    for i, stamp in enumerate(stamps):
        if stamp is not None and previous is not None:
            gap = (stamp - previous).total_seconds()
            if gap > pause_seconds:
                pauses.append({"after_move": i - 1, "seconds": round(gap)})
            elif gap > 0:
                total += gap
        if stamp is not None:
            previous = stamp
        elapsed.append(round(total))
    known = [s for s in stamps if s is not None]
    return {
        "started_at": known[0].isoformat() if known else None,
        "ended_at": known[-1].isoformat() if known else None,
        "duration_seconds": round(total),
        "elapsed": elapsed,
        "pauses": pauses,
    }


# -- the report ---------------------------------------------------------------------------
def figures(setup: Setup, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything a playtest report shows about one table, as JSON."""
    rules_moves = [{k: v for k, v in m.items() if k not in ("text", "at")} for m in moves]
    result = replay(setup, rules_moves, keep_states=True)
    # The log only holds accepted moves; should one ever fail, report what replays.
    count = len(result.states)
    moves = moves[:count]
    from .rules import get_game

    initial = get_game(setup.game).initial_state(setup)
    states = result.states
    final = states[-1] if states else initial
    time = timeline(moves)
    start = setup.players.index(setup.start) if setup.start in setup.players else 0
    seat_order = setup.players[start:] + setup.players[:start]
    report: dict[str, Any] = {
        "version": FIGURES_VERSION,
        "game": setup.game,
        "participants": list(setup.players),
        "players": len(setup.players),
        "seat_order": seat_order,
        "moves": count,
        "finished": bool(final.get("finished")),
        "winners": list(final.get("winners") or []),
        "scores": None,
        "margin": None,
        **time,
    }
    compute = {
        "amnesia": amnesia_figures,
        "amnesia_stories": stories_figures,
        "contest": contest_figures,
    }[setup.game]
    report["figures"] = compute(setup, moves, initial, states, time["elapsed"])
    report["scores"] = report["figures"].pop("scores", None)
    report["margin"] = report["figures"].pop("margin", None)
    return report


def _moment(index: int | None, moves: list[dict[str, Any]], elapsed: list[int]) -> dict | None:
    if index is None:
        return None
    at = _when(moves[index].get("at"))
    return {
        "move": index,
        "at": at.isoformat() if at else None,
        "elapsed_seconds": elapsed[index] if index < len(elapsed) else None,
        "fraction": round(index / (len(moves) - 1), 3) if len(moves) > 1 else 1.0,
    }


# -- Amnesia ------------------------------------------------------------------------------
def amnesia_figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
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
        "finale_available": _moment(finale_available, moves, elapsed),
        "finale": _moment(finale_told, moves, elapsed),
        "scores": dict(final["tokens"]),
    }


# -- Amnesia Stories ----------------------------------------------------------------------
def stories_figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
    from .rules.amnesia_stories import judge_turn

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
            steps["all" if n == len(audience) else "none" if n == 0 else "some"] += 1
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
        "scores": final_vp,
        "margin": margin,
    }


# -- Contest ------------------------------------------------------------------------------
ATTRIBUTES = ("brains", "muscle", "moves", "coolness")


def contest_figures(setup, moves, initial, states, elapsed) -> dict[str, Any]:
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
                dropouts.append({"player": p, **(_moment(i, moves, elapsed) or {})})
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
