"""A table's set-up: everything in a script but its moves (``Setup``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Setup:
    """Everything in a script but its moves, validated and with defaults filled in."""

    game: str
    players: list[str]
    start: str
    options: dict[str, Any]
    deck_mode: str = "virtual"
    seed: int = 0
    deck: list[str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_script(self) -> dict[str, Any]:
        script: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "start": self.start,
            "options": dict(self.options),
            "deck_mode": self.deck_mode,
            "seed": self.seed,
        }
        if self.deck is not None:
            script["deck"] = list(self.deck)
        script.update(self.extra)
        return script
