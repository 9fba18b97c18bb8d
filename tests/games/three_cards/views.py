"""A player's own Three Cards page: their hand (only theirs: the seat's view), the scores, and
a button per card on their turn. The engine owns the page and its moves (``games.seats``)."""

from __future__ import annotations

from typing import Any


def seat_context(facing, seat) -> dict[str, Any]:
    seen = facing.view  # the other hands are not in it
    return {"hand": seen["hands"].get(seat.name, []), "score": seen["scores"][seat.name]}
