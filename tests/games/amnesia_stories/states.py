"""Amnesia Stories states for the referee's tests (test_rules_*.py): a new state, moves played
on it, the first story told."""

from __future__ import annotations

from games.amnesia_stories.rules import GAME
from games.rules.script import parse_script

PLAYERS = ["Ana", "Bruno", "Caio"]


def new_state(**script):
    base = {"game": "amnesia_stories", "players": PLAYERS, "seed": 1}
    base.update(script)
    setup, _ = parse_script(base)
    return GAME.initial_state(setup)


def play(state, *moves):
    for move in moves:
        state = GAME.apply(state, move)
    return state


def tell_first(state):
    q = state["options"]["questions"]
    return GAME.apply(
        state, {"by": state["bard"], "do": "tell", "story": state["journey"][:q], "text": "x"}
    )
