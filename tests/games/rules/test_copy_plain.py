"""``copy_plain`` (the states' copy: ``Game.copy_state``, ``Game.view``) is a deep copy."""

from __future__ import annotations

import copy

from games import registry
from games.rules.plain import copy_plain
from games.rules.script import parse_script, replay, rules_part
from tests.games.long_games import long_game


def test_a_copy_equals_and_shares_nothing_that_can_change() -> None:
    value = {"a": [1, {"b": [2, 3]}], "c": None, "d": "x", "e": 1.5, "t": (1, [2])}
    copied = copy_plain(value)
    assert copied == value == copy.deepcopy(value)
    copied["a"][1]["b"].append(4)
    copied["t"][1].append(5)
    assert value == {"a": [1, {"b": [2, 3]}], "c": None, "d": "x", "e": 1.5, "t": (1, [2])}


def _containers(value, found):
    if isinstance(value, dict | list | tuple):
        found.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


def test_a_long_games_state_is_copied_all_the_way_down() -> None:
    for kit in registry.kits():
        setup, moves = parse_script(long_game(kit.slug, 200))
        state = replay(setup, [rules_part(m) for m in moves]).state
        copied = copy_plain(state)
        assert copied == state
        assert not _containers(copied, set()) & _containers(state, set())
