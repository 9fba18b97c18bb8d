"""Contest scripts for the referee's tests (test_rules_*.py): characters, a script of moves,
played (``run``) and its state (``state_of``)."""

from __future__ import annotations

import json
from typing import Any

from games.rules.script import replay_script

CHARS = {
    "Ana": {"name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3},
    "Bo": {"name": "Yum", "brains": 2, "muscle": 4, "moves": 3, "coolness": 3},
    "Cy": {"name": "Kit", "brains": 4, "muscle": 2, "moves": 2, "coolness": 4},
    "Di": {"name": "Rex", "brains": 1, "muscle": 5, "moves": 5, "coolness": 1},
}


def chars(players: list[str]) -> list[dict[str, Any]]:
    return [{"by": p, "do": "character", **CHARS[p]} for p in players]


def script(players=("Ana", "Bo"), moves=(), **extra) -> dict[str, Any]:
    players = list(players)
    return {
        "game": "contest",
        "players": players,
        "moves": chars(players) + list(moves),
        **extra,
    }


def run(s: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return replay_script(json.loads(json.dumps(s)))


def state_of(s: dict[str, Any]) -> dict[str, Any]:
    code, out = run(s)
    assert code == 0, out
    return out
