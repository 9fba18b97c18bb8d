"""The referee framework: pure Python, no Django below this package.

Each game's referee lives in its own package (``games/<game>/rules``) and is made known here
when its game is registered (``games.registry``); ``get_game(name)`` returns it. ``script``
turns a game script into states.
"""

from __future__ import annotations

from games.rules.base import Field, Game, Option
from games.rules.errors import BadScript, IllegalMove
from games.rules.setup import Setup

_REFEREES: dict[str, Game] = {}


def register_referee(game: Game) -> None:
    """Make a referee known under its ``name`` (the game's slug in scripts)."""
    _REFEREES[game.name] = game


def unregister_referee(name: str) -> None:
    _REFEREES.pop(name, None)


def available_games() -> list[str]:
    """The games whose referee is registered, in registration order."""
    return list(_REFEREES)


def get_game(name: str) -> Game:
    """The referee of ``name``; KeyError for a game nobody registered."""
    return _REFEREES[name]


__all__ = [
    "BadScript",
    "Field",
    "Game",
    "IllegalMove",
    "Option",
    "Setup",
    "available_games",
    "get_game",
    "register_referee",
    "unregister_referee",
]
