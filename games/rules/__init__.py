"""The referee: pure Python, no Django below this package.

``get_game(name)`` returns the Game object of one of the three games; ``script`` turns a
game script into states.
"""

from __future__ import annotations

import importlib

from .base import BadScript, Game, IllegalMove, Option, Setup

GAME_MODULES = {
    "amnesia": "amnesia",
    "amnesia_stories": "amnesia_stories",
    "contest": "contest",
}


def available_games() -> list[str]:
    """The games whose referee is present in this build."""
    names = []
    for name in GAME_MODULES:
        try:
            get_game(name)
        except (KeyError, ImportError):
            continue
        names.append(name)
    return names


def get_game(name: str) -> Game:
    if name not in GAME_MODULES:
        raise KeyError(name)
    module = importlib.import_module(f"{__name__}.{GAME_MODULES[name]}")
    return module.GAME


__all__ = ["BadScript", "Game", "IllegalMove", "Option", "Setup", "available_games", "get_game"]
