"""Amnesia scripts for the referee's tests (test_rules_*.py): a move (``M``), a script of
moves, played (``play``) or refused (``error``), the tokens a state holds (``conserved``), and
the openings the rulings start from."""

from __future__ import annotations

from typing import Any

from games.amnesia.rules import GAME
from games.rules.script import replay_script

VERBS = tuple(GAME.moves)
AB = ["Ana", "Bruno"]
ABC = ["Ana", "Bruno", "Caio"]


def M(by: str, do: str, **fields: Any) -> dict[str, Any]:
    return {"by": by, "do": do, **fields}


def script(moves: list[dict], players: list[str] | None = None, **extra: Any) -> dict:
    return {"game": "amnesia", "players": players or list(AB), "moves": moves, **extra}


def play(moves: list[dict], players: list[str] | None = None, **extra: Any) -> dict:
    code, out = replay_script(script(moves, players, **extra))
    assert code == 0, out
    return out


def error(moves: list[dict], players: list[str] | None = None, **extra: Any) -> tuple[str, int]:
    code, out = replay_script(script(moves, players, **extra))
    assert code == 1, out
    return out["error"]["code"], out["error"]["index"]


def conserved(state: dict) -> int:
    return sum(state["tokens"].values()) + state["bank"] + state["discard"] + state["pot"]


# Ana narrates, Bruno insists, Ana refuses: a challenge waiting for its first card.
CHALLENGE = [M("Ana", "continue"), M("Bruno", "insist"), M("Ana", "refuse")]
# With start_tokens 1: Ana continues and holds 0 tokens.
BROKE = {"options": {"start_tokens": 1}}
