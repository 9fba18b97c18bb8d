"""Benchmark: simulated plays per second, per game, at 4 players with ``sensible`` bots at
their default parameters, on one process and on two; and the bots' thinking cost: the
simulation's moves per second beside a bare replay of the same moves with ``apply``.

    .venv/bin/python bench/simulate.py [--seconds 20] [--games GAME ...] [--players 4]

Target (issue 24): at least 2,000 games a minute (33.3 a second) on one process for every
game, and a near-linear gain on two. Each measure plays games for about ``--seconds`` (at
least 4 games); the same seeded games are then replayed bare from their scripts, with
``apply`` (a copy per move: the web's path) and with ``apply_in_place`` (the simulation's).
With ``--search``: the search bot instead (issue 49): the seconds a 4-player game takes with
one search bot at its default budget among sensible ones, then its strength against its
budget: its edge over the sensible bots (share of the wins over its share of the seats, or of
what the kit says a seat plays for) at three budgets, each with its 95% interval; then the
skill figures (search against sensible, sensible against random) at the default budget.

    .venv/bin/python bench/simulate.py --search [--search-games 60] [--budgets 4 12 24]

With ``--baseline DIR``: the one-process rate of this checkout against the one in DIR (a
copy of main, e.g. ``git archive main | tar -x -C /tmp/main``), measured in turn in fresh
processes, ``--rounds`` times each: the games per minute of each one's own CPU time, their
ratio (median of the rounds), and whether both played the very same games (a digest of each
game's script, end and winners): a speed-up must not change a game. Target (issue 49): the
contest's own path, sensible bots at 4 players, twice the games a minute of b435ff2 (main before
issue 49's work) on one process. Measured 2026-12-06 (load 2 to 3.6, medians of 3 rounds,
1,683 games a side): b435ff2 6,281 cpu games a minute, this checkout 6,817 (1.09x), the same
games: the target is not met (docs/development.md says where a move's time goes). For the
contest it then prints each side's microseconds a move: the simulation's, the referee's
``handle`` alone and with the mover's own legal moves (its floor), and what twice the base's
rate leaves for the rest (2026-12-06: 2.5 us a move, where the bots, the other seats asked, the
table and the figures take 13.3).

    git archive b435ff2 | tar -x -C /tmp/b435
    .venv/bin/python bench/simulate.py --baseline /tmp/b435 [--games contest] [--rounds 3]

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
# ``--measure-in DIR`` (the child of ``--baseline``): the games of the checkout in DIR.
if "--measure-in" in sys.argv[:-1]:
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--measure-in") + 1]).resolve()))
else:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")

TARGET_PER_MINUTE = 2_000
# Issue 49: the contest's games a minute against b435ff2's (``--baseline``), on one process.
TARGET_RATIO = 2.0


def spec_for(kit, players: int, games: int, keep: int, values: bool = True):
    """The bench's run; without ``values``, no seat's value is kept (what ``--baseline``
    measures: a checkout from before issue 49 has no ``bot_value``, and the records of both
    sides must be alike to be compared)."""
    from games.simulate.engine import Spec

    options = {k: o.default for k, o in kit.referee.options.items()}
    more = {"value": kit.bot_value} if values else {}
    return Spec(
        referee=kit.referee,
        classes=dict(kit.bots),
        figures=kit.bot_figures,
        trace=kit.bot_trace,
        options=options,
        players=players,
        bots=["sensible"],
        seed=2026,
        games=games,
        keep_scripts=keep,
        **more,
    )


def games_for(kit, players: int, seconds: float, values: bool = True) -> int:
    """How many games fill about ``seconds`` on one process (from a short trial)."""
    from games.simulate.engine import run

    trial = run(spec_for(kit, players, 2, 0, values))
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
    parser.add_argument("--search", action="store_true", help="the search bot's figures")
    parser.add_argument("--search-games", type=int, default=60)
    parser.add_argument("--budgets", type=int, nargs=3, default=None)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--restricted",
        nargs="*",
        default=None,
        help="restricted play: GAME=RULE each (RULE as refuse or take_control:with=drinks)",
    )
    parser.add_argument(
        "--bards", action="store_true", help="Amnesia Stories: draft 4 against draft 3"
    )
    parser.add_argument("--baseline", default=None, help="a checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measure-in", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--measure-games", action="append", default=[], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_in is not None:
        measure_child(args)
        return
    if args.baseline is not None:
        baseline_bench(args)
        return
    if args.search:
        search_bench(args)
        return
    if args.bards:
        bards_bench(args)
        return
    if args.restricted is not None:
        restricted_bench(args)
        return

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


def measure_child(args) -> None:
    """One measure for ``--baseline``: each game's one-process games per minute of CPU time
    over about ``--seconds``, and a digest of its games, as one JSON line. The digest is of
    what makes a game (its script: set-up and every move; its end and its winners' bots),
    not of its figures: a figure added since the baseline (a new count in the record) is
    not a different game. Both sides keep every game's script, so both pay its copy."""
    import hashlib
    import json

    import django

    django.setup()
    from games import registry
    from games.simulate.engine import run

    counts = {k: int(v) for k, _, v in (item.partition("=") for item in args.measure_games)}
    out = {}
    for slug in args.games:
        kit = registry.kit(slug)
        n = counts.get(slug) or games_for(kit, args.players, args.seconds, values=False)
        cpu = time.process_time()
        result = run(spec_for(kit, args.players, n, n, values=False), processes=1)
        cpu = time.process_time() - cpu
        games = [
            [r["script"], r["finished"], r["moves"], r["winner_bots"], r["seat_bots"]]
            for r in result.records
        ]
        text = json.dumps(games, sort_keys=True, default=str)
        moves = sum(r["moves"] for r in result.records)
        handle, floor = referee_floor(kit, result.records)
        out[slug] = {
            "games": n,
            "rate": len(result.records) / cpu * 60,
            "digest": hashlib.blake2b(text.encode(), digest_size=8).hexdigest(),
            "sim_us": cpu / moves * 1e6,
            "handle_us": handle / moves * 1e6,
            "floor_us": floor / moves * 1e6,
        }
    print(json.dumps(out))


def referee_floor(kit, records) -> tuple[float, float]:
    """The CPU seconds the referee alone takes over the games' moves (best of three): its
    ``handle`` on one state in place (the simulation's own path for a verb the mover was
    offered), and that plus the mover's own ``legal_moves`` before each move (a move is
    made only by a seat offered it: the least any table does). What is left of a move's
    time is the bots', the other seats asked, the table's and the figures'."""
    from games.rules.script import parse_script

    referee = kit.referee
    games = [parse_script(r["script"]) for r in records]

    def replay(offer: bool) -> float:
        began = time.process_time()
        for setup, moves in games:
            state = referee.copy_state(referee.initial_state(setup))
            for move in moves:
                if offer:
                    referee.legal_moves(state, move["by"])
                referee.handle(state, dict(move))
        return time.process_time() - began

    return min(replay(False) for _ in range(3)), min(replay(True) for _ in range(3))


def baseline_bench(args) -> None:
    """This checkout against ``--baseline``, back to back: each measure in a fresh process
    (this checkout's bench, reading the other's games), the two in turn, ``--rounds`` times."""
    import json
    import statistics
    import subprocess

    games = args.games or ["contest"]
    base = Path(args.baseline).resolve()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"against {base}: {args.players} players, sensible bots; load {load}")

    def measure(root: Path, count: dict[str, int]) -> dict:
        command = [sys.executable, __file__, "--measure-in", str(root), "--games", *games]
        command += ["--players", str(args.players), "--seconds", str(args.seconds)]
        for slug in games:  # the same number of games on both sides (the first measure's)
            if slug in count:
                command += ["--measure-games", f"{slug}={count[slug]}"]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        found: dict = json.loads(done.stdout.strip().splitlines()[-1])
        return found

    rates: dict[str, dict[str, list[float]]] = {g: {"base": [], "this": []} for g in games}
    # Microseconds a move, per side: the simulation's, the referee's handle, and its floor.
    parts: dict[str, dict[str, dict[str, list[float]]]] = {
        g: {side: {"sim_us": [], "handle_us": [], "floor_us": []} for side in ("base", "this")}
        for g in games
    }
    digests: dict[str, set[str]] = {g: set() for g in games}
    count: dict[str, int] = {}
    for _ in range(args.rounds):
        for side, root in (("base", base), ("this", ROOT)):
            found = measure(root, count)
            for slug, figure in found.items():
                count.setdefault(slug, figure["games"])
                rates[slug][side].append(figure["rate"])
                for key, values in parts[slug][side].items():
                    values.append(figure[key])
                digests[slug].add(figure["digest"])
    print(
        f"{'game':<18}{'games':>7}{'base cpu g/min':>16}{'this cpu g/min':>16}{'ratio':>8}  same games"
    )
    for slug in games:
        a = statistics.median(rates[slug]["base"])
        b = statistics.median(rates[slug]["this"])
        same = "yes" if len(digests[slug]) == 1 else "NO"
        print(f"{slug:<18}{count[slug]:>7}{a:>16.0f}{b:>16.0f}{b / a:>7.2f}x  {same}")
    if "contest" in games:
        ratio = statistics.median(rates["contest"]["this"]) / statistics.median(
            rates["contest"]["base"]
        )
        verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
        print(
            f"target (issue 49, against b435ff2): the contest at {TARGET_RATIO:.0f}x -> "
            f"{ratio:.2f}x {verdict}"
        )
        mid = {
            side: {k: statistics.median(v) for k, v in figures.items()}
            for side, figures in parts["contest"].items()
        }
        budget = mid["base"]["sim_us"] / TARGET_RATIO
        print("the contest's microseconds a move (CPU, medians):")
        print(f"{'':<8}{'simulation':>12}{'handle':>9}{'floor':>8}{'the rest':>10}")
        for side in ("base", "this"):
            m = mid[side]
            rest = m["sim_us"] - m["floor_us"]
            print(
                f"{side:<8}{m['sim_us']:>12.1f}{m['handle_us']:>9.1f}{m['floor_us']:>8.1f}"
                f"{rest:>10.1f}"
            )
        left = budget - mid["this"]["floor_us"]
        print(
            f"{TARGET_RATIO:.0f}x the base asks {budget:.1f} us a move; the referee's floor here "
            f"(handle and the mover's own legal moves) takes {mid['this']['floor_us']:.1f}, "
            f"which leaves {left:.1f} us for what this checkout spends "
            f"{mid['this']['sim_us'] - mid['this']['floor_us']:.1f} us on (the bots, the other "
            "seats asked, the table, the figures)"
        )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"(medians of {args.rounds} rounds each, in turn; load at the end {load})")


BARD_FIGURES = ("steps_some_matched", "steps_all_matched", "steps_none_matched", "bard_share")


def bards_bench(args) -> None:
    """Which stories bards tell when they play to win (issue 49): Amnesia Stories, draft 4
    (the defaults) and draft 3, at 3 and 4 players, every seat a search bot (the listeners'
    answers stay the sensible model's) beside every seat sensible; each figure with its
    interval, and draft 3's difference from draft 4 over the same seeds."""
    import dataclasses

    import django

    django.setup()
    from games import registry
    from games.amnesia_stories.options import DRAFT3_OPTIONS
    from games.simulate import figures as F
    from games.simulate.engine import run

    kit = registry.kit("amnesia_stories")
    print(f"bards: Amnesia Stories, {args.search_games} games a cell")
    for players in (3, 4):
        for bot in ("sensible", "search"):
            base = dataclasses.replace(spec_for(kit, players, args.search_games, 0), bots=[bot])
            draft3 = dataclasses.replace(base, options={**base.options, **DRAFT3_OPTIONS})
            a = run(base, processes=args.processes).records
            b = run(draft3, processes=args.processes).records
            sa, sb = F.summarize(a, base.seed), F.summarize(b, base.seed)
            diff = F.compare(a, b, base.seed)
            for name in BARD_FIGURES:
                print(
                    f"  {players}p {bot:<9}{name:<20} draft4 {F.fmt(sa[name]):<28}"
                    f" draft3 {F.fmt(sb[name]):<28} d3-d4 {F.fmt(diff[name])}"
                )


# Each game's strategic choices a seat may be forbidden (Amnesia Stories has none: each of
# its verbs is the only move at its point, so its choices are the story told, issue 49's
# --bards).
RESTRICTIONS = (
    "amnesia=refuse",
    "amnesia=insist",
    "amnesia=join",
    "amnesia=flashback",
    "contest=take_control",
    "contest=take_control:with=drinks",
    "contest=refuse",
    "contest=throw_pretzel",
)


def restricted_bench(args) -> None:
    """Restricted play (Jaffe et al. 2012): one sensible seat forbidden one kind of move
    against sensible bots; its edge with its interval, and inert or dominant."""
    import django

    django.setup()
    from games import registry
    from games.simulate import figures as F
    from games.simulate.restrict import parse
    from games.simulate.skill import restricted

    print(f"restricted play: {args.players} players, {args.search_games} games each")
    for item in args.restricted or RESTRICTIONS:
        slug, _, text = item.partition("=")
        kit = registry.kit(slug)
        base = spec_for(kit, args.players, args.search_games, 0)
        found = restricted(base, parse(text), processes=args.processes, ruleset=slug)
        print(f"  {slug:<16}never {text:<28}{found['figure']} {F.fmt(found)} -> {found['kind']}")


def search_bench(args) -> None:
    import dataclasses

    import django

    django.setup()
    from games import registry
    from games.simulate import figures as F
    from games.simulate.engine import run
    from games.simulate.search import DEFAULT_BUDGET
    from games.simulate.skill import edge, skill

    kits = [k for k in registry.kits() if k.bots and (not args.games or k.slug in args.games)]
    budgets = args.budgets or [max(1, DEFAULT_BUDGET // 6), DEFAULT_BUDGET // 2, DEFAULT_BUDGET]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"search bot: {args.players} players, default budget {DEFAULT_BUDGET}; load {load}")
    for kit in kits:
        base = spec_for(kit, args.players, 2, 0)
        field = ["search"] + ["sensible"] * (args.players - 1)
        began = time.perf_counter()
        timed = run(dataclasses.replace(base, bots=field, games=2))
        per_game = (time.perf_counter() - began) / 2
        moves = sum(r["moves"] for r in timed.records) / 2
        print(f"{kit.slug}: {per_game:.2f} s a game with one search bot ({moves:.0f} moves)")
        for budget in budgets:
            spec = dataclasses.replace(
                base, bots=field, games=args.search_games, params={"budget": budget}
            )
            result = run(spec, processes=args.processes)
            figure = edge(result.records, "search", spec.seed)
            print(
                f"  budget {budget:>4}: {figure['figure']} {F.fmt(figure)} ({result.seconds:.0f} s)"
            )
        found = skill(dataclasses.replace(base, games=args.search_games), args.processes)
        for strong, figure in found.items():
            print(
                f"  skill: {strong} against {figure['against']}: {figure['figure']} "
                f"{F.fmt(figure)} -> {figure['verdict']}"
            )


if __name__ == "__main__":
    main()
