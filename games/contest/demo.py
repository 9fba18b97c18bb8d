"""Two contest demo games: a finished one on a physical deck, and one in progress on the
virtual deck (so its seats' private pages and QR codes have hands to show)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import pgettext

from games.contest.rules import GAME
from games.rules.script import parse_setup


def _timed(moves: list[dict], start: datetime, step_seconds: int = 40) -> list[dict]:
    for i, move in enumerate(moves):
        move["at"] = (start + timedelta(seconds=step_seconds * i)).isoformat()
    return moves


def finished(start: datetime) -> dict[str, Any]:
    m: list[dict[str, Any]] = [
        {
            "by": "Ana",
            "do": "character",
            "name": "Zed",
            "brains": 2,
            "muscle": 4,
            "moves": 3,
            "coolness": 3,
        },
        {
            "by": "Bo",
            "do": "character",
            "name": "Yum",
            "brains": 4,
            "muscle": 2,
            "moves": 3,
            "coolness": 3,
            "bfa": True,
        },
        {
            "by": "Cy",
            "do": "character",
            "name": "Kit",
            "brains": 3,
            "muscle": 3,
            "moves": 4,
            "coolness": 2,
        },
        {
            "by": "Ana",
            "do": "challenge",
            "target": "Bo",
            "contest": pgettext("demo", "a pie-eating contest"),
            "attribute": "muscle",
            "text": pgettext(
                "demo",
                "The county fair smells of burnt sugar. Zed slams a fist on the long table and points at Yum: the blueberry pies are waiting.",
            ),
        },
        {
            "by": "Bo",
            "do": "accept",
            "attribute": "coolness",
            "text": pgettext("demo", "Yum tucks in a napkin: one eats with style, or not at all."),
        },
        {"by": "Ana", "do": "play", "card": "7C", "draws": ["2C", "9H"]},
        {"by": "Bo", "do": "play", "card": "6H", "draws": ["JH", "4S"]},
        {
            "by": "Bo",
            "do": "lose_card",
            "card": "10D",
            "text": pgettext(
                "demo", "Zed finishes the ninth pie while Yum is still dabbing at the first."
            ),
        },
        {"by": "Cy", "do": "throw_pretzel"},
        {
            "by": "Bo",
            "do": "take_control",
            "with": "drinks",
            "text": pgettext(
                "demo",
                "The crowd cheers, the judges argue, and nobody notices the prize ribbon is gone.",
            ),
        },
        {
            "by": "Bo",
            "do": "challenge",
            "target": "Cy",
            "contest": pgettext("demo", "a staring contest"),
            "attribute": "brains",
            "named": False,
        },
        {"by": "Bo", "do": "drink"},
        {
            "by": "Bo",
            "do": "challenge",
            "target": "Cy",
            "contest": pgettext("demo", "a riddle duel on the rope bridge"),
            "attribute": "brains",
            "text": pgettext(
                "demo",
                "Yum blocks the rope bridge: Kit, answer three riddles or go round by the swamp.",
            ),
        },
        {"by": "Cy", "do": "refuse", "penalty": ["drink", "card"], "cards": ["8S"]},
        {"by": "Ana", "do": "throw_pretzel"},
        {"by": "Cy", "do": "throw_pretzel"},
        {"by": "Bo", "do": "eat_pretzels", "count": 2},
        {
            "by": "Cy",
            "do": "take_control",
            "with": "face_card",
            "card": "KC",
            "text": pgettext(
                "demo",
                "Kit takes the swamp path after all, and finds the ribbon in a heron's nest.",
            ),
        },
        {
            "by": "Cy",
            "do": "challenge",
            "target": "Ana",
            "contest": pgettext("demo", "a chase over the rooftops"),
            "attribute": "moves",
        },
        {"by": "Ana", "do": "accept", "attribute": "moves"},
        {"by": "Cy", "do": "play", "card": "5D", "draws": ["3D", "QD", "6S"]},
        {"by": "Ana", "do": "play", "card": "8D", "draws": ["AC"]},
        {
            "by": "Ana",
            "do": "drink",
            "text": pgettext(
                "demo", "Zed slips on a wet tile; Kit is three roofs away with the ribbon."
            ),
        },
        {"by": "Ana", "do": "throw_pretzel"},
        {"by": "Bo", "do": "throw_pretzel"},
        {"by": "Ana", "do": "take_control", "with": "drinks"},
        {
            "by": "Ana",
            "do": "challenge",
            "target": "Cy",
            "contest": pgettext("demo", "an arm-wrestling match"),
            "attribute": "muscle",
        },
        {"by": "Cy", "do": "forfeit", "penalty": "card", "cards": ["9C"]},
        {"by": "Bo", "do": "throw_pretzel"},
        {"by": "Cy", "do": "throw_pretzel"},
        {
            "by": "Bo",
            "do": "challenge",
            "target": "Cy",
            "contest": pgettext("demo", "a fight over the last slice"),
            "attribute": "muscle",
            "text": pgettext(
                "demo", "Only Yum and Kit are left at the fair, and one slice of pie."
            ),
        },
        {"by": "Cy", "do": "accept", "attribute": "muscle"},
        {"by": "Bo", "do": "play", "card": "10C", "draws": ["4H"]},
        {"by": "Cy", "do": "play", "card": "4C", "draws": ["JC", "7S"]},
        {"by": "Cy", "do": "lose_card", "card": "6C"},
        {
            "by": "Cy",
            "do": "take_control",
            "with": "drinks",
            "text": pgettext("demo", "Kit climbs on the table to make a speech about fairness."),
        },
        {
            "by": "Bo",
            "do": "throw_pretzel",
            "text": pgettext("demo", "The speech is not well received."),
        },
    ]
    return {
        "game": "contest",
        "players": ["Ana", "Bo", "Cy"],
        "options": {"hand_size": 5, "pretzel_limit": 3},
        "deck_mode": "physical",
        "seed": 4,
        "moves": _timed(m, start),
    }


def in_progress(start: datetime) -> dict[str, Any]:
    """Played by the referee itself from the seeded deal, so the cards named are in hand."""
    script: dict[str, Any] = {
        "game": "contest",
        "players": ["Dora", "Elio", "Fern"],
        "deck_mode": "virtual",
        "seed": 2024,
        "moves": [],
    }
    state = GAME.initial_state(parse_setup(script))
    moves: list[dict[str, Any]] = []

    def add(move: dict[str, Any]) -> None:
        nonlocal state
        state = GAME.apply(state, move)
        moves.append(move)

    def play(name: str) -> None:
        add({"by": name, "do": "play", "card": state["players"][name]["hand"][0]})

    add(
        {
            "by": "Dora",
            "do": "character",
            "name": pgettext("demo", "Captain Vex"),
            "brains": 3,
            "muscle": 3,
            "moves": 4,
            "coolness": 2,
        }
    )
    add(
        {
            "by": "Elio",
            "do": "character",
            "name": pgettext("demo", "Doc Mirabel"),
            "brains": 5,
            "muscle": 1,
            "moves": 3,
            "coolness": 3,
        }
    )
    add(
        {
            "by": "Fern",
            "do": "character",
            "name": pgettext("demo", "Grub"),
            "brains": 1,
            "muscle": 5,
            "moves": 2,
            "coolness": 4,
        }
    )
    add(
        {
            "by": "Dora",
            "do": "challenge",
            "target": "Elio",
            "contest": pgettext("demo", "a race to the escape pod"),
            "attribute": "moves",
            "text": pgettext(
                "demo",
                "Alarms howl through the station. Captain Vex kicks open the hatch: last one to the escape pod stays behind, Doc.",
            ),
        }
    )
    add(
        {
            "by": "Elio",
            "do": "accept",
            "attribute": "brains",
            "text": pgettext("demo", "Doc Mirabel reroutes the corridor doors instead of running."),
        }
    )
    play("Dora")
    play("Elio")
    loser = state["owed"] and next(iter(state["owed"]))
    if loser:
        add({"by": loser, "do": "drink"})
    add({"by": "Fern", "do": "throw_pretzel"})
    add(
        {
            "by": "Fern",
            "do": "take_control",
            "with": "drinks",
            "text": pgettext(
                "demo", "Grub has been in the escape pod all along, eating the emergency rations."
            ),
        }
    )
    add(
        {
            "by": "Fern",
            "do": "challenge",
            "target": "Dora",
            "contest": pgettext("demo", "an argument over the last ration bar"),
            "attribute": "coolness",
            "text": pgettext(
                "demo", "Grub waves the last ration bar: it goes to whoever tells the better story."
            ),
        }
    )
    add({"by": "Dora", "do": "accept", "attribute": "coolness"})
    play("Fern")
    script["moves"] = _timed(moves, start, 55)
    return script


def demos(now: datetime) -> list[tuple[str, dict]]:
    """(table name, script) for each demo table of this game."""
    return [
        (pgettext("demo", "The pie-eating championship"), finished(now - timedelta(days=1))),
        (pgettext("demo", "Escape from station Nine"), in_progress(now - timedelta(minutes=30))),
    ]
