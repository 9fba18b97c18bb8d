"""The players on the table page: the order the laptop passes in, who answers next, the
scoreboard and standings, a judged turn's points, and the points-by-turn table (the last
rounds only, unless asked for all).
"""

from __future__ import annotations

from typing import Any

from games.models import Seat, Table


def pass_order(seen: dict[str, Any]) -> list[str]:
    """Who gets the laptop, in order: the bard (who holds it after telling), then clockwise."""
    seats = seen["seats"]
    bard = seen.get("bard")
    if bard not in seats:
        return list(seats)
    i = seats.index(bard)
    return seats[i:] + seats[:i]


def next_to_answer(seen: dict[str, Any]) -> str | None:
    if seen["phase"] != "answer":
        return None
    for name in pass_order(seen):
        if name not in seen["answered"]:
            return name
    return None


def positions(table: Table) -> dict[str, int]:
    return {s.name: s.position for s in Seat.objects.filter(table=table)}


def scoreboard(seen: dict[str, Any]) -> list[dict[str, Any]]:
    answering = seen["phase"] == "answer"
    return [
        {
            "name": name,
            "vp": seen["vp"][name],
            "red_cards": seen["red_cards"][name],
            "penalty": seen["penalty"][name],
            "bard": name == seen.get("bard"),
            "answered": answering and name in seen["answered"],
            "waiting": answering and name not in seen["answered"],
            "winner": name in seen.get("winners", []),
        }
        for name in seen["seats"]
    ]


def standings(seen: dict[str, Any]) -> list[dict[str, Any]]:
    rows = sorted(scoreboard(seen), key=lambda r: -r["vp"])
    for row in rows:
        row["before_penalty"] = row["vp"] + row["penalty"]
    return rows


def turn_points(turn: dict[str, Any], seen: dict[str, Any]) -> list[dict[str, Any]]:
    """A judged turn's points, once its reveal is over (the projector's Σ): what each player
    gained and the red cards they took in that turn, and their VP since."""
    return [
        {
            "name": name,
            "gains": turn["gains"].get(name, 0),
            "red_cards": turn["red_cards"].get(name, 0),
            "vp": seen["vp"][name],
            "bard": name == turn["bard"],
        }
        for name in seen["seats"]
    ]


# The points-by-turn table shows the turns of the last this many rounds; the earlier ones
# are drawn only when asked for (``?turns=all``), so a long game's page stays as light as a
# short one's.
BY_TURN_ROUNDS = 2


def by_turn_start(seen: dict[str, Any], rounds: int = BY_TURN_ROUNDS) -> int:
    """The index in ``history`` of the first turn of its last ``rounds`` rounds."""
    history = seen["history"]
    if not history:
        return 0
    per_round = len(seen["seats"])
    last_round = (history[-1]["turn_number"] - 1) // per_round + 1
    first_turn = max(0, last_round - rounds) * per_round + 1
    # turn numbers run 1, 2, ... along history, one row per judged turn
    return max(0, min(len(history), first_turn - history[0]["turn_number"]))


def earlier_rounds(seen: dict[str, Any], rounds: int = BY_TURN_ROUNDS) -> int:
    """How many whole rounds come before the ones the points-by-turn table shows."""
    return -(-by_turn_start(seen, rounds) // len(seen["seats"]))


def score_by_turn(seen: dict[str, Any], start: int = 0) -> list[dict[str, Any]]:
    """The rows of the points-by-turn table, from ``history[start]`` on."""
    seats = seen["seats"]
    return [
        {
            "turn": t["turn_number"],
            "bard": t["bard"],
            "partial": t.get("partial", False),  # a turn under reveal: its opened steps
            "cells": [
                {
                    "gain": t["gains"].get(p, 0),
                    "red": t["red_cards"].get(p, 0),
                    "bard": p == t["bard"],
                }
                for p in seats
            ],
        }
        for t in seen["history"][start:]
    ]
