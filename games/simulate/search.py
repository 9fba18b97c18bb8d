"""The search bot: every game gets one from its referee and its own bots, without writing it.

Determinized Monte Carlo (a flat information-set search, after OpenSpiel's ``ismcts`` and
Ludii's search players, and unlike boardgame.io's ``MCTSBot``, which reads the whole state):
at each decision the bot

1. gathers its candidate moves from the legal moves' templates as the game's own bots fill
   them: the playout bot's choice (``sensible``: waiting is a candidate when it waits) and a
   few proposals of the ``random`` bot, without repeats, at most ``MAX_CANDIDATES``;
2. for ``budget`` playouts in all, round after round: draws one world its seat cannot tell
   from the real one (``games.simulate.sampler``: the hidden cards redrawn, a fresh
   generator), makes each candidate in it and plays on with the playout bots at every seat
   (the same world for every candidate of a round: their differences are the moves', not
   the draws'), to the end or, with ``depth``, that many moves on;
3. makes the candidate with the best mean *value* for its seat under the rules being played.

The value is the game's own (the kit's ``bot_value(state, seat)``, a number in [0, 1]; by
default the seat's share of the win once the game is over, and an even share before). Moves
that people judge by talking (the kit's ``bot_judged`` verbs: how well a listener reads a
bard) are left to the playout bot, whose parameters say how well people do them.

The bot reads only its view: the world it searches comes from ``view.sample(rng)``, which
the simulator's views answer with the sampler. Given a plain view (nothing to sample from)
it plays as its playout bot.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.rules.base import Game
from games.rules.errors import IllegalMove
from games.rules.plain import copy_plain
from games.simulate.bots import Bot, Param
from games.simulate.engine import DEFAULT_MOVE_CAP, LazyView, draw_below

# Playouts per decision: the strength the bench measures against it (``bench/simulate.py
# --search``) and the speed a 4-player game keeps (seconds, not minutes) both hold at 24.
DEFAULT_BUDGET = 24
PROPOSALS = 12  # the random bot's proposals per decision
MAX_CANDIDATES = 8


def even_share(state: dict[str, Any], seat: str) -> float:
    """The default value: the seat's share of the win once the game is over, an even share
    before (a playout cut short says nothing of who is ahead)."""
    if state.get("finished"):
        winners = state.get("winners") or []
        return 1 / len(winners) if seat in winners else 0.0
    return 1 / max(1, len(state["seats"]))


def _key(move: dict[str, Any] | None) -> str:
    return json.dumps(move, sort_keys=True, default=str)


class SearchBot(Bot):
    """The search bot of one game (made per kit by :func:`search_class`)."""

    referee: Game
    playout: type[Bot]
    proposer: type[Bot]
    value: Callable[[dict[str, Any], str], float] = staticmethod(even_share)
    judged: frozenset[str] = frozenset()
    default_depth = 0

    def __init__(self, params: Mapping[str, Any] | None, rng_seed: int, seat: str) -> None:
        super().__init__(params, rng_seed, seat)
        self.given = {k: v for k, v in (params or {}).items() if k in self.playout.params}
        self.inner = self.playout(self.given, self.rng.getrandbits(63), seat)
        self.wild = self.proposer(self.given, self.rng.getrandbits(63), seat)
        self.searched = 0  # decisions searched (the bench reports it)

    def choose(
        self, view: Any, legal_moves: list[dict[str, Any]], may_wait: bool = False
    ) -> dict[str, Any] | None:
        own = self.inner.choose(view, legal_moves, may_wait)
        if not hasattr(view, "sample") or all(t["do"] in self.judged for t in legal_moves):
            return own
        candidates = self.candidates(view, legal_moves, may_wait, own)
        if len(candidates) == 1:
            return candidates[0]
        return candidates[self.best(view, candidates, may_wait)]

    def candidates(
        self,
        view: Any,
        legal_moves: list[dict[str, Any]],
        may_wait: bool,
        own: dict[str, Any] | None,
    ) -> list[dict[str, Any] | None]:
        found = {_key(own): own}
        for _ in range(PROPOSALS):
            if len(found) >= MAX_CANDIDATES:
                break
            move = self.wild.choose(view, legal_moves, may_wait)
            if move is not None and move["do"] in self.judged:
                continue
            found.setdefault(_key(move), move)
        return list(found.values())

    def best(self, view: Any, candidates: list[dict[str, Any] | None], may_wait: bool) -> int:
        """The index of the candidate with the best mean value (the first on a tie: the
        playout bot's own choice)."""
        self.searched += 1
        rounds = max(1, int(self.p["budget"]) // len(candidates))
        totals = [0.0] * len(candidates)
        for _ in range(rounds):
            world = view.sample(self.rng)
            seed = self.rng.getrandbits(63)
            for i, move in enumerate(candidates):
                totals[i] += self.rollout(self.referee.copy_state(world), move, may_wait, seed)
        return max(range(len(candidates)), key=lambda i: (totals[i], -i))

    def rollout(
        self, state: dict[str, Any], move: dict[str, Any] | None, may_wait: bool, seed: int
    ) -> float:
        """The value for this seat of making ``move`` (None: waiting) in ``state`` and
        playing on with the playout bots (``seed``: the same draws for every candidate)."""
        referee, seat = self.referee, self.seat
        rng = random.Random(seed)
        seats = state["seats"]
        bots: dict[str, Any] = {s: self.playout(self.given, rng.getrandbits(63), s) for s in seats}
        waiting = None
        if move is not None:
            try:
                referee.apply_in_place(state, {"by": seat, **copy_plain(move)})
            except IllegalMove:
                return -1.0
        else:
            waiting = seat if may_wait else None
        # A playout to the end stops at the simulator's move cap all the same (a game whose
        # playout bots never finish it is judged where it stands).
        depth = int(self.p["depth"]) or DEFAULT_MOVE_CAP
        shared = type(referee).view is Game.view
        special = referee.view_special_keys() if shared else None
        blanked = referee.view_blanked_keys() if shared else None
        steps = 0
        active_players, legal_moves = referee.active_players, referee.legal_moves
        # Each seat keeps one view of the one playout state, emptied before it is read again
        # (as the simulator's table keeps them), not a new one at every step.
        views = {s: LazyView(referee, state, s, shared, special, blanked) for s in seats}
        while not state["finished"] and steps < depth:
            active = active_players(state)
            start = draw_below(rng, len(active))
            order = active[start:] + active[:start]
            chosen = None
            for wait in (True, False):
                for s in order:
                    if s == waiting and wait:
                        continue
                    offered = legal_moves(state, s)
                    if not offered:
                        continue
                    view = views[s]
                    view.forget()
                    fields = bots[s].choose(view, offered, wait)
                    if fields is not None:
                        chosen = {"by": s, **fields}
                        break
                if chosen is not None:
                    break
            if chosen is None:
                break  # a stall: judged where it stands
            waiting = None
            try:
                referee.apply_in_place(state, chosen)
            except IllegalMove:
                break
            steps += 1
        return float(self.value(state, seat))


def search_params(playout: type[Bot], default_depth: int = 0) -> dict[str, Param]:
    return {
        **playout.params,
        "budget": Param(
            DEFAULT_BUDGET, 1, 5_000, "playouts per decision of the search bot", whole=True
        ),
        "depth": Param(
            default_depth,
            0,
            100_000,
            "moves a search bot's playout looks ahead (0: to the end of the game)",
            whole=True,
        ),
    }


# A run's bots go to its worker processes (forked) by name: each game's search bot is kept
# in this module under its own (``games.simulate.search.Search_<game>``).
def search_class(
    referee: Game,
    bots: Mapping[str, type[Bot]],
    value: Callable[[dict[str, Any], str], float] | None = None,
    judged: frozenset[str] = frozenset(),
    depth: int = 0,
) -> type[SearchBot]:
    """The search bot of a game: its referee, its ``sensible`` bot as the playout model and
    its ``random`` bot as the proposer of moves."""
    name = f"Search_{referee.name}"
    attrs = {
        "referee": referee,
        "playout": bots["sensible"],
        "proposer": bots["random"],
        "value": staticmethod(value or even_share),
        "judged": frozenset(judged),
        "default_depth": depth,
        "params": search_params(bots["sensible"], depth),
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": (
            f"The search bot of {referee.name}: at each decision it samples worlds its seat "
            "cannot tell from the real one, plays each candidate move on with the sensible "
            "bots and makes the one with the best mean value (games.simulate.search)."
        ),
    }
    cls = type(name, (SearchBot,), attrs)
    globals()[name] = cls
    return cls
