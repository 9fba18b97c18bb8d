"""Long games of any registered game, played by the game's own bots (``GameKit.bots``, through
the simulator: ``games.simulate.engine``): for the tests that must hold at any length (query
counts, the kept story so far). Nothing here names a game: a new game with bots gets its long
tables for free, and a game without bots is told so.

A long game is the simulator's game with its move cap at the length asked for, so it stops
there still in play, played by the ``random`` bot (which every game with bots has and which
costs least to ask) with the first set-up of :func:`setups` whose game lasts that long and
``LEEWAY`` moves more (what is played on at the table never ends it)."""

from __future__ import annotations

import copy
from functools import cache
from typing import TYPE_CHECKING, Any

from games import registry
from games.rules import IllegalMove
from games.rules.base import Game
from games.simulate.engine import Spec, derive, play_game

if TYPE_CHECKING:
    from games.models import Table

BOT = "random"  # every game's bots include it (games/checks.py)
# The moves a long game's set-up must last beyond the length asked: the tests and the
# benches play on at the table (bench/move_page.py some twenty moves), never to its end.
LEEWAY = 200
# Each set-up's game is played this far once (the longest the tests ask for, and the leeway).
LONGEST = 1200


def longest_options(referee: Game) -> dict[str, Any]:
    """Every option a number can set at its largest, the others at their default."""
    options = {}
    for name, option in referee.options.items():
        counts = option.max is not None and not isinstance(option.default, bool)
        options[name] = option.max if counts else option.default
    return options


def _no_figures(*_args: Any) -> dict[str, Any]:
    return {}


def long_game(game: str, moves: int, seed: int = 3) -> dict[str, Any]:
    """A legal script of ``game`` with ``moves`` moves (the game still in play); each is played
    once per process (the tests ask for the same few again and again) and handed out as a copy."""
    return copy.deepcopy(_long_game(game, moves, seed))


def setups(referee: Game) -> list[tuple[int, dict[str, Any]]]:
    """The set-ups a long game is tried with, (seats, options), the busiest and lightest first
    (more of a story is told in a few seats' game than in a crowd's, where most moves are
    waiting turns; a table of the default size is drawn quicker than one with every option
    at its largest): for the fewest seats, then the most, the default options, then each
    numeric option alone at its largest, then every one of them at its largest."""
    defaults = {name: option.default for name, option in referee.options.items()}
    longest = longest_options(referee)
    singles = [{**defaults, n: v} for n, v in longest.items() if v != defaults[n]]
    found: list[tuple[int, dict[str, Any]]] = []
    for players in (referee.min_players, referee.max_players):
        for options in (defaults, *singles, longest):
            if (players, options) not in found:
                found.append((players, options))
    return found


def _long_game(game: str, moves: int, seed: int) -> dict[str, Any]:
    kit = registry.kit(game)
    if not kit.bots or BOT not in kit.bots:
        raise RuntimeError(f"{game} has no {BOT!r} bot to play a long game with (GameKit.bots)")
    needed = moves + LEEWAY
    cap = max(LONGEST, needed + 1)
    lasted = []
    for number in range(len(setups(kit.referee))):
        script = _played(game, number, seed, cap)
        if len(script["moves"]) > needed:  # still in play after the leeway
            return {**script, "moves": script["moves"][:moves]}
        lasted.append(len(script["moves"]))
    raise RuntimeError(f"{game}'s bots end every game before {needed} moves (after {lasted})")


@cache
def _played(game: str, number: int, seed: int, cap: int) -> dict[str, Any]:
    """The script of the game played on set-up ``number`` up to ``cap`` moves (or its end),
    once per process: a shorter long game is its first moves (the same seed plays the same
    moves whatever the cap), so every length asked of a game costs one game per set-up."""
    kit = registry.kit(game)
    players, options = setups(kit.referee)[number]
    spec = Spec(
        referee=kit.referee,
        classes=dict(kit.bots or {}),
        figures=_no_figures,
        options=options,
        players=players,
        bots=[BOT],
        seed=seed,
        games=1,
        move_cap=cap,
        keep_scripts=1,
        # The simulator's fast path (one state changed in place), where the game has one:
        # the tests prove it plays the same games as ``apply``'s copies.
        trace=kit.bot_trace,
    )
    try:
        return play_game(spec, 0)["script"]
    except (ValueError, KeyError, IndexError, IllegalMove):
        return {"moves": []}  # options the game or its bot cannot play together


def next_move(table: Table) -> dict[str, Any]:
    """A legal move at ``table`` now, as the long games' bot would pick one (the first seat,
    in the table's order, that has one)."""
    from games.services import reading

    kit = registry.kit(table.game)
    referee = kit.referee
    state = reading.state_of(table)
    for i, by in enumerate(referee.active_players(state)):
        offered = referee.legal_moves(state, by)
        if not offered:
            continue
        bot = kit.bots[BOT](None, derive(5, i), by)  # type: ignore[index]
        fields = bot.choose(referee.view(state, by), offered, False)
        if fields is None:
            continue
        move = {"by": by, **fields}
        try:
            referee.apply(state, move)
        except IllegalMove:
            continue
        return move
    raise RuntimeError(f"{table.game}: no legal move left")


def ended_game(game: str, seed: int = 3) -> dict[str, Any]:
    """A legal script of ``game`` played by its bots to its end (on the first set-up of
    :func:`setups`, the end reached within ``LONGEST`` moves, else a RuntimeError), as a copy."""
    script = _played(game, 0, seed, LONGEST)
    if len(script["moves"]) >= LONGEST:
        raise RuntimeError(f"{game}'s bots play on past {LONGEST} moves (seed {seed})")
    return copy.deepcopy(script)
