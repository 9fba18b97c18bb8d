"""Benchmark: simulated plays per second, per game, at 4 players with ``sensible`` bots at
their default parameters, on one process and on two; and the bots' thinking cost: the
simulation's moves per second beside a bare replay of the same moves with ``apply``.

    .venv/bin/python bench/simulate.py [--seconds 20] [--games GAME ...] [--players 4]

Target (issue 24): at least 2,000 games a minute (33.3 a second) on one process for every
game, and a near-linear gain on two. Each measure plays games for about ``--seconds`` (at
least 4 games); the same seeded games are then replayed bare from their scripts, with
``apply`` (a copy per move: the web's path) and with ``apply_in_place`` (the simulation's).
The first line gives the load average: on this shared 2-core machine the wall-clock figures
fall with the other work, so the one-process run's rate per second of its own CPU time is
printed beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")

TARGET_PER_MINUTE = 2_000


def spec_for(kit, players: int, games: int, keep: int):
    from games.simulate.engine import Spec

    options = {k: o.default for k, o in kit.referee.options.items()}
    return Spec(
        referee=kit.referee,
        classes=dict(kit.bots),
        figures=kit.bot_figures,
        trace=kit.bot_trace,
        value=kit.bot_value,
        options=options,
        players=players,
        bots=["sensible"],
        seed=2026,
        games=games,
        keep_scripts=keep,
    )


def games_for(kit, players: int, seconds: float) -> int:
    """How many games fill about ``seconds`` on one process (from a short trial)."""
    from games.simulate.engine import run

    trial = run(spec_for(kit, players, 2, 0))
    per_game = max(trial.seconds / 2, 1e-4)
    return max(4, int(seconds / per_game))


def bare_replay(kit, records, in_place: bool = False) -> tuple[int, float]:
    """(moves, seconds) replaying the games' scripts with ``apply`` alone (or, ``in_place``,
    with ``apply_in_place`` on one state: the simulation's own path, without the bots)."""
    from games.rules.script import parse_script

    referee = kit.referee
    scripts = [parse_script(r["script"]) for r in records]
    began = time.perf_counter()
    moves = 0
    for setup, script_moves in scripts:
        state = referee.initial_state(setup)
        if in_place:
            for move in script_moves:
                referee.apply_in_place(state, move)
        else:
            for move in script_moves:
                state = referee.apply(state, move)
        moves += len(script_moves)
    return moves, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", nargs="*", default=None, help="game slugs (default: all)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    import django

    django.setup()
    from games import registry
    from games.simulate.engine import run

    kits = [k for k in registry.kits() if k.bots and (not args.games or k.slug in args.games)]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"simulate: {args.players} players, sensible bots at their defaults; load {load}")
    print(
        f"{'game':<18}{'games':>7}{'mv/game':>9}{'1 proc g/s':>12}{'g/min':>9}{'cpu g/min':>11}"
        f"{'2 procs g/s':>13}"
        f"{'gain':>7}{'sim mv/s':>10}{'apply mv/s':>12}{'think':>8}{'in-place mv/s':>15}  target"
    )
    for kit in kits:
        n = games_for(kit, args.players, args.seconds)
        cpu = time.process_time()
        one = run(spec_for(kit, args.players, n, n), processes=1)
        cpu = time.process_time() - cpu
        two = run(spec_for(kit, args.players, n, 0), processes=2)
        rate1 = len(one.records) / one.seconds
        rate2 = len(two.records) / two.seconds
        moves = sum(r["moves"] for r in one.records)
        bare_moves, bare_seconds = bare_replay(kit, one.records)
        assert bare_moves == moves
        _same, place_seconds = bare_replay(kit, one.records, in_place=True)
        sim_mps = moves / one.seconds
        bare_mps = bare_moves / bare_seconds
        ok = "met" if rate1 * 60 >= TARGET_PER_MINUTE else "MISSED"
        print(
            f"{kit.slug:<18}{n:>7}{moves / n:>9.0f}{rate1:>12.1f}{rate1 * 60:>9.0f}"
            f"{len(one.records) / cpu * 60:>11.0f}"
            f"{rate2:>13.1f}{rate2 / rate1:>6.2f}x{sim_mps:>10.0f}{bare_mps:>12.0f}"
            f"{bare_mps / sim_mps:>7.2f}x{moves / place_seconds:>15.0f}"
            f"  {ok} ({TARGET_PER_MINUTE}/min)"
        )
    print(
        "cpu g/min: the one-process run's games per minute of its own CPU time (what a busy "
        "machine's other work leaves out of the wall-clock figure)"
    )
    print(
        "think: a bare replay's moves per second with apply over the simulation's (the bots' "
        "thinking, the legal moves and the views, as a ratio); in-place: the same replay on "
        "the simulation's own path (apply_in_place, no copies)"
    )


if __name__ == "__main__":
    main()
