"""Simulated plays: bots play a game by its referee, many times, and each game is recorded.

Pure: no Django, no clock in what is recorded (timings are measured around the games and
kept apart from the figures). A game is a pure function of the run's arguments and its
index: its seed is derived from the run's seed and the index (:func:`derive`), and so are
the bots' generators and the table's order of asking, so the same arguments give the same
games however they are split over processes.

The table (:func:`play_game`): at each step the seats that have a legal move are asked in
an order drawn by the table's generator; the first bot that returns a move makes it. If
everyone waits, they are asked again in the same order with ``may_wait`` False. If still
nobody moves, or nobody has a legal move before the game is over, or the game passes its
move cap, the game stalls and its record says where (with the script that replays to it).

The fast path: a game whose kit gives ``bot_trace`` is played on one private state that
``Game.apply_in_place`` changes move after move (the same checks and the same ``handle`` as
``apply``, without its copy; a move whose verb its player was just offered needs none of
``check_move``'s questions, so it goes straight to ``handle``), the bots read
``Game.shared_view`` (``view`` without the copy), and the figures get each state's trace and
the last state whole. The tests play the same games both ways and prove the records equal,
and ``apply_in_place`` equal to ``apply`` over the golden scripts and seeded games.
"""

from __future__ import annotations

import gc
import hashlib
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules.base import Game
from games.rules.hiding import Blanked
from games.rules.plain import ATOMS, copy_plain
from games.rules.setup import Setup
from games.simulate.restrict import Restricted
from games.simulate.sampler import sample

MAX_GAMES = 100_000
DEFAULT_MOVE_CAP = 5_000


def derive(*parts: Any) -> int:
    """A 63-bit seed derived from the parts (the run's seed, a game's index, a seat...)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


@dataclass
class Spec:
    """Everything a run's games depend on (picklable: it goes to the worker processes)."""

    referee: Game
    classes: dict[str, type]  # the kit's bots: name -> bot class
    figures: Any  # the kit's bot_figures: (setup, moves, initial, states, bots_by_seat) -> dict
    options: dict[str, Any]
    players: int
    bots: list[str]  # bot names, assigned to seats in turn (rotated by the game's index)
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    games: int = 100
    move_cap: int = DEFAULT_MOVE_CAP
    keep_scripts: int = 0  # the games below this index keep their script (stalled ones always)
    # The kit's bot_trace: state -> what the figures read of it (a copy). With it, a game is
    # played on one private state changed in place (``Game.apply_in_place``); ``fast`` False
    # plays it with ``apply``'s copies and keeps every state (the tests compare the two).
    trace: Any = None
    fast: bool = True
    # The kit's bot_value, (state, seat) -> what the seat plays for: each record keeps every
    # seat's value at the end (``seat_values``), which the figures give per kind of bot (a
    # game nobody wins is measured by it).
    value: Any = None
    # Restricted play: bot names of this run that are another bot forbidden one kind of
    # move (``games.simulate.restrict``), name -> {"bot", "verb", "field", "value"}.
    restricted: dict[str, dict[str, Any]] = field(default_factory=dict)


def draw_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``, as ``random.Random`` draws it for n > 0 (``_randbelow``: the
    fewest bits that hold n - 1, drawn again until below n), in one call instead of three:
    the table draws who is asked first at every step. The tests hold it to ``randrange``."""
    if n <= 0:
        return rng.randrange(n)  # refused as randrange refuses it
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def seat_names(players: int) -> list[str]:
    return [f"P{i}" for i in range(1, players + 1)]


def bots_for(spec: Spec, index: int) -> dict[str, str]:
    """Which bot sits where in game ``index``: the list in turn, shifted by the index so each
    bot sits at each seat as often."""
    seats = seat_names(spec.players)
    k = len(spec.bots)
    return {seat: spec.bots[(i + index) % k] for i, seat in enumerate(seats)}


def setup_for(spec: Spec, index: int) -> Setup:
    seats = seat_names(spec.players)
    return Setup(
        game=spec.referee.name,
        players=seats,
        start=seats[0],
        options=dict(spec.options),
        seed=derive(spec.seed, index, "deck"),
    )


def script_of(setup: Setup, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The game script ``referee replay`` reproduces the game from."""
    return {**setup.as_script(), "moves": [dict(m) for m in moves]}


def apply_private(referee: Game, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """``referee.apply(state, move)`` by way of the simulation's path: a copy, then
    ``apply_in_place`` on it (the same checks and the same ``handle``). The tests prove it
    gives ``apply``'s states and errors over the golden scripts and seeded games."""
    new = referee.copy_state(state)
    referee.apply_in_place(new, move)
    return new


_NONE: Mapping[str, str] = {}
_MISSING = object()


class LazyView(Mapping):
    """A seat's view, worked out as a bot reads it: a bot that decides from its legal moves
    alone costs nothing. On the fast path each part the bot reads is
    ``referee.view_part`` (the part of ``shared_view``: what ``view`` shows, sharing the live
    state's parts; the bots only read it, which the tests check by playing the same games
    with ``view``'s copies), and a part nothing in it hides is the state's own value, read
    without a call; otherwise the whole of ``referee.view``."""

    __slots__ = (
        "_referee",
        "_state",
        "_seat",
        "_view",
        "_parts",
        "_special",
        "_blanked",
        "_kept",
    )

    def __init__(
        self,
        referee: Game,
        state: dict[str, Any],
        seat: str,
        shared: bool = False,
        special: frozenset[str] | None = None,
        blanked: Mapping[str, str] | None = None,
    ) -> None:
        self._referee, self._state, self._seat = referee, state, seat
        self._view: dict[str, Any] | None = None
        self._parts: dict[str, Any] | None = {} if shared else None
        # On the fast path, the keys whose part is more than the state's own value
        # (``referee.view_special_keys()``); the others are read straight from the state.
        # And of those, the ones whose part is ``Blanked`` (``referee.view_blanked_keys()``:
        # each seat's record with a field blanked, made as it is read), made here without
        # the call to ``view_part``.
        self._special = special
        self._blanked = blanked or _NONE
        # The ``Blanked`` parts made, kept from one step to the next (see ``__getitem__``).
        self._kept: dict[str, Blanked] = {}

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A world this seat cannot tell from the real one (``games.simulate.sampler``): what
        a search bot plays out, never the state itself."""
        return sample(self._referee, self._state, self._seat, rng)

    def forget(self) -> None:
        """Forget what was read: the state has changed since (a view kept by its seat)."""
        if self._parts:
            self._parts = {}
        self._view = None

    def _get(self) -> dict[str, Any]:
        if self._view is None:
            if self._parts is not None:
                self._view = self._referee.shared_view(self._state, self._seat)
            else:
                self._view = self._referee.view(self._state, self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        # A ``Blanked`` part kept from an earlier step and still good (see below) first: a
        # bot reads its own record through one at nearly every step.
        part = self._kept.get(key)
        if part is not None and part._made is None and part._seats is self._state[key]:
            return part
        parts = self._parts
        if parts is None:
            return self._get()[key]
        special = self._special
        if special is not None and key not in special:
            return self._state[key]
        field = self._blanked.get(key)
        if field is not None:
            value = self._state[key]
            if isinstance(value, dict):
                # A ``Blanked`` part that has made no blanked record yet (its reader read
                # only its own record, the state's own) holds nothing of an earlier moment:
                # it is read again while it wraps the state's own mapping, not made again
                # at every step (a bot reads its own record at nearly every step).
                part = self._kept.get(key)
                if part is None or part._seats is not value or part._made is not None:
                    part = self._kept[key] = Blanked(value, self._seat, field)
                return part
        part = parts.get(key, _MISSING)
        if part is _MISSING:
            part = self._referee.view_part(self._state, self._seat, key, lazy=True)
            parts[key] = part
        return part

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def make_bot(spec: Spec, name: str, seed: int, seat: str) -> Any:
    """The bot called ``name`` in this run, for ``seat`` (a restricted one wraps its own)."""
    rule = spec.restricted.get(name)
    if rule is None:
        return spec.classes[name](spec.params, seed, seat)
    return Restricted(spec.classes[rule["bot"]](spec.params, seed, seat), rule)


def play_game(spec: Spec, index: int) -> dict[str, Any]:
    """Play game ``index`` of the run; its record (figures, winners' bots, any stall).

    The cyclic garbage collector waits while the game is played: a game makes and drops
    some hundred thousand small dicts and lists, none in a cycle (reference counting frees
    them), and each collection walked every object the process holds (Django's among them)
    for nothing. It runs again as before once the game is over."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _play(spec, index)
    finally:
        if paused:
            gc.enable()


def _play(spec: Spec, index: int) -> dict[str, Any]:
    referee = spec.referee
    setup = setup_for(spec, index)
    seat_bots = bots_for(spec, index)
    bots = {
        seat: make_bot(spec, name, derive(spec.seed, index, "bot", i), seat)
        for i, (seat, name) in enumerate(seat_bots.items())
    }
    table = random.Random(derive(spec.seed, index, "table"))
    initial = referee.initial_state(setup)
    # The fast path (a game whose kit says what its figures read of each state: ``trace``)
    # plays on one private state in place and keeps only that trace of the states between;
    # otherwise every move is applied to a copy and every state kept whole.
    fast = spec.trace is not None and spec.fast
    # The bots read the live state through ``shared_view`` (unless the game has a view of
    # its own, which only ``view`` knows).
    shared = fast and type(referee).view is Game.view
    special = referee.view_special_keys() if shared else None
    blanked = referee.view_blanked_keys() if shared else None
    state = referee.copy_state(initial) if fast else initial
    moves: list[dict[str, Any]] = []
    states: list[dict[str, Any]] = []
    stall: dict[str, Any] | None = None
    # The methods the loop calls at every step, looked up once.
    active_players, legal_moves = referee.active_players, referee.legal_moves
    apply_in_place, handle = referee.apply_in_place, referee.handle
    trace, move_cap = spec.trace, spec.move_cap
    choosers = {seat: bot.choose for seat, bot in bots.items()}
    # On the fast path each seat keeps one view of the one live state, emptied of the parts
    # read at a step before it is read again (not a new one per seat asked at every step).
    kept = (
        {seat: LazyView(referee, state, seat, shared, special, blanked) for seat in bots}
        if fast
        else None
    )
    # ``draw_below`` without the call: who is asked first, drawn at every step.
    getrandbits = table.getrandbits
    while not state["finished"]:
        if len(moves) >= move_cap:
            stall = {"kind": "move_cap", "moves": len(moves)}
            break
        active = active_players(state)
        n = len(active)
        if n > 0:
            bits = n.bit_length()
            start = getrandbits(bits)
            while start >= n:
                start = getrandbits(bits)
        else:
            start = draw_below(table, n)  # refused as randrange refuses it
        order = active[start:] + active[:start] if start else active
        # Each seat's legal moves are worked out when it is asked (a seat after the one that
        # moves costs nothing). If everyone waits, they are asked again with ``may_wait``
        # False, their legal moves and views worked out again (the state has not changed: the
        # same ones); that is rare, and keeping them for it cost every step two dicts.
        chosen = None
        offered_any = False
        for may_wait in (True, False):
            for seat in order:
                offered = legal_moves(state, seat)
                if not offered:
                    continue
                offered_any = True
                if kept is not None:
                    view = kept[seat]
                    # ``view.forget()`` without the call (a seat asked at every step).
                    if view._parts:
                        view._parts = {}
                    view._view = None
                else:
                    view = LazyView(referee, state, seat, shared, special, blanked)
                fields = choosers[seat](view, offered, may_wait)
                if fields is not None:
                    chosen = {"by": seat, **fields}
                    break
            if chosen is not None or not offered_any:
                break
        if chosen is None and not offered_any:
            stall = {"kind": "no_legal_move", "moves": len(moves)}
            break
        if chosen is None:
            stall = {"kind": "everyone_waits", "moves": len(moves)}
            break
        if fast:
            # A copy of the move: the live state may keep parts of it (a story's cards) and
            # change them later, which must not change the move recorded. A move of texts,
            # numbers and flags alone (most moves) has no part to keep: a copy of its top
            # level is enough, and ``issuperset`` asks that without a step per field.
            if ATOMS.issuperset(map(type, chosen.values())):
                move = chosen.copy()
            else:
                move = copy_plain(chosen)
            # A verb the mover was just offered (``offered``: its legal moves) answers every
            # question of ``check_move`` (the game not over, the player seated and active, a
            # verb of the game its phase allows): only ``handle`` is left, whose handler still
            # checks the move's fields. Any other verb takes ``apply_in_place``'s checks,
            # which refuse it as the table would.
            verb = move["do"]
            for template in offered:
                if template["do"] == verb:
                    handle(state, move)
                    break
            else:
                apply_in_place(state, move)
            states.append(trace(state))
        else:
            state = referee.apply(state, chosen)
            states.append(state)
        moves.append(chosen)
    if fast and states:
        states[-1] = state  # the figures read the last state whole
    figures = spec.figures(setup, moves, initial, states, seat_bots)
    record: dict[str, Any] = {
        "index": index,
        "finished": bool(state["finished"]),
        "moves": len(moves),
        "figures": figures,
        "winner_bots": [seat_bots[w] for w in state.get("winners", [])],
        "seat_bots": seat_bots,
    }
    if spec.value is not None:
        record["seat_values"] = {seat: float(spec.value(state, seat)) for seat in seat_bots}
    if stall is not None:
        stall["phase"] = state.get("phase")
        stall["position"] = referee.view(state, None)
        stall["last_moves"] = [m["do"] for m in moves[-12:]]
        record["stall"] = stall
    if stall is not None or index < spec.keep_scripts:
        record["script"] = script_of(setup, moves)
    return record


def play_range(spec: Spec, start: int, stop: int, deadline: float | None) -> list[dict]:
    """Games ``start`` to ``stop - 1`` (stops early past ``deadline``, a monotonic time)."""
    out = []
    for index in range(start, stop):
        if deadline is not None and time.monotonic() >= deadline:
            break
        out.append(play_game(spec, index))
    return out


def _chunks(games: int, processes: int) -> list[tuple[int, int]]:
    size = max(1, min(200, -(-games // (processes * 4))))
    return [(i, min(games, i + size)) for i in range(0, games, size)]


@dataclass
class Result:
    records: list[dict[str, Any]]
    partial: bool
    seconds: float
    processes: int


def run(spec: Spec, processes: int = 1, budget: float | None = None) -> Result:
    """Play the run's games (in ``processes`` worker processes); records in index order.
    With a ``budget`` in seconds, games not started by then are left out (``partial``);
    the games kept are always the first ones, so the figures stay those of a seeded run."""
    began = time.monotonic()
    deadline = began + budget if budget else None
    chunks = _chunks(spec.games, processes)
    if processes <= 1:
        results = [play_range(spec, a, b, deadline) for a, b in chunks]
    else:
        import multiprocessing  # only for a run over several processes

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(processes) as pool:
            results = pool.starmap(play_range, [(spec, a, b, deadline) for a, b in chunks])
    records = []
    for chunk in results:
        records.extend(chunk)
    records.sort(key=lambda r: r["index"])
    # Keep the unbroken prefix: the same games whatever the split or the timing.
    kept = []
    for expected, record in enumerate(records):
        if record["index"] != expected:
            break
        kept.append(record)
    partial = len(kept) < spec.games
    return Result(kept, partial, time.monotonic() - began, processes)
