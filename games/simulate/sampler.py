"""The sampler of hidden information: a world one seat cannot tell from the real one.

A search bot must not read what its seat cannot see (boardgame.io's ``MCTSBot`` searches the
full state, which in a game of hidden cards is cheating). Before each playout it asks for a
*determinization*: a full state whose ``referee.view(..., seat)`` equals the real view, with
every hidden card redrawn and a fresh generator, so no playout knows the real deck, another
seat's hand or the draws to come.

What is hidden is what the referee declares (``Game.hidden_keys``: the deck, the generator's
state, the game's ``secret_keys``; ``Game.private``: each seat's own parts), never guessed:

- every hidden key that holds a list (a deck, a stack) and every other seat's private list
  ("players.*.hand") go into one pool, which is shuffled with the sampler's own generator
  and dealt back into the same places in the same sizes. The sizes are public in every game
  (a deck's count, a hand's size), and the pool is what the seat could count for itself
  (every card of the game but those it has seen), so the result depends only on what the
  seat knows: each hidden card is uniform over the places the seat cannot see;
- the generator's state (and any other hidden number) is a fresh one;
- a private mapping of seats to their secret ("_picks.*": answers not judged yet) has each
  other seat's list shuffled in place: a guess of the right shape. A search bot leaves the
  moves judged by talking to its playout model (``judged`` in ``games.simulate.search``), so
  it never searches while such answers are pending in the games here.

Pure: no Django, no clock; its only randomness is the ``random.Random`` it is given.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Game
from games.rules.plain import ATOMS


def _places(
    referee: Game, state: dict[str, Any], seat: str
) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]], list[list]]:
    """(hidden lists, hidden numbers, other seats' secret lists) as (container, key) pairs
    (the lists last: their items are shuffled in place)."""
    lists: list[tuple[Any, Any]] = []
    numbers: list[tuple[Any, Any]] = []
    answers: list[list] = []
    for key in referee.hidden_keys():
        value = state.get(key)
        if isinstance(value, list) and all(type(v) in ATOMS for v in value):
            lists.append((state, key))
        elif isinstance(value, int) and not isinstance(value, bool):
            numbers.append((state, key))
    for path in referee.private:
        parts = path.split(".")
        _walk(state, parts, seat, lists, answers)
    return lists, numbers, answers


def _walk(
    node: Any, parts: list[str], seat: str, lists: list[tuple[Any, Any]], answers: list[list]
) -> None:
    if not isinstance(node, dict) or not parts:
        return
    key, rest = parts[0], parts[1:]
    if key == "*":
        for name, item in node.items():
            if name == seat:
                continue
            if not rest:  # a mapping of seats to their secret
                if isinstance(item, list):
                    answers.append(item)
                continue
            if len(rest) == 1 and isinstance(item, dict) and isinstance(item.get(rest[0]), list):
                lists.append((item, rest[0]))
            else:
                _walk(item, rest, seat, lists, answers)
        return
    if key not in node:
        return
    if not rest:
        if isinstance(node[key], list):
            lists.append((node, key))
        return
    _walk(node[key], rest, seat, lists, answers)


def sample(referee: Game, state: dict[str, Any], seat: str, rng: random.Random) -> dict[str, Any]:
    """A copy of ``state`` with what ``seat`` cannot see redrawn (see the module's note):
    ``referee.view(result, seat) == referee.view(state, seat)``."""
    world = referee.copy_state(state)
    lists, numbers, answers = _places(referee, world, seat)
    pool: list[Any] = []
    for container, key in lists:
        pool.extend(container[key])
    rng.shuffle(pool)
    at = 0
    for container, key in lists:
        size = len(container[key])
        container[key] = pool[at : at + size]
        at += size
    for container, key in numbers:
        container[key] = rng.getrandbits(64)
    for items in answers:
        rng.shuffle(items)
    return world
