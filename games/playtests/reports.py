"""A finished table's playtest figures, computed from its move log by the referee's replay.

Everything here is a pure function of a set-up and the live moves (each with its ``at``
timestamp): no Django, no clock, and no rule re-implemented. The game states come from
``rules.script.replay(..., keep_states=True)``; this module only reads them, and where a
figure needs a rule (a set bonus) it asks the referee's own function.

The result is plain JSON, cached in ``PlaytestReport.figures`` and recomputed whenever the log
has moved on (``FIGURES_VERSION`` also changes when the computation does).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from games import registry
from games.rules import get_game
from games.rules.script import replay
from games.rules.setup import Setup

# 2: the engine's figures (``engine``) beside the report's own.
FIGURES_VERSION = 2
# A gap between two moves longer than this is a pause (dinner, a phone call): left out.
PAUSE_SECONDS = 15 * 60


# -- time ---------------------------------------------------------------------------------
def when(raw: Any) -> datetime | None:
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
    stamps = [when(m.get("at")) for m in moves]
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
    report["figures"] = registry.kit(setup.game).playtest.figures(
        setup, moves, initial, states, time["elapsed"]
    )
    report["engine"] = engine_figures(setup, rules_moves[:count], initial, states, seat_order)
    report["scores"] = report["figures"].pop("scores", None)
    report["margin"] = report["figures"].pop("margin", None)
    return report


def engine_figures(setup: Setup, moves, initial, states, seat_order: list[str]) -> dict:
    """The figures the lab's simulations give (the kit's ``bot_figures``), computed the same
    way from this table's log, so each simulated figure has its real counterpart. The seats
    are numbered from the start player, as a simulation's are; what only bots have (each kind
    of bot's edge) is left out. Empty for a game without bots."""
    kit = registry.kit(setup.game)
    if kit.bot_figures is None:
        return {}
    ordered = dataclasses.replace(setup, players=list(seat_order))
    people = dict.fromkeys(setup.players, "table")
    found = kit.bot_figures(ordered, moves, initial, states, people)
    return {k: v for k, v in found.items() if not k.startswith("bot.") and v is not None}


def moment(index: int | None, moves: list[dict[str, Any]], elapsed: list[int]) -> dict | None:
    if index is None:
        return None
    at = when(moves[index].get("at"))
    return {
        "move": index,
        "at": at.isoformat() if at else None,
        "elapsed_seconds": elapsed[index] if index < len(elapsed) else None,
        "fraction": round(index / (len(moves) - 1), 3) if len(moves) > 1 else 1.0,
    }
