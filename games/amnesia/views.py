"""A player's own Amnesia page on their phone: their tokens, the bank and the discard, the
last scenes, and the buttons for what the rules let *them* do now.

The engine owns the page, its moves and its poll (``games.seats``); this is Amnesia's part of
its context, drawn from the seat's side of the table (``games.facing.Facing``).
"""

from __future__ import annotations

from typing import Any

from games.facing import Facing
from games.models import Seat, Table
from games.presenters import card_info

# How many of the last story entries a phone shows: enough to follow, short enough to scroll.
LAST_SCENES = 3


def seat_context(facing: Facing, seat: Seat) -> dict[str, Any]:
    """What one player sees and may do (Amnesia keeps nothing secret but the deck)."""
    table, state, name = facing.table, facing.view, seat.name
    ch = state.get("challenge")
    return {
        "me": {"name": name, "tokens": state["tokens"].get(name, 0)},
        "others": [
            {"name": n, "tokens": state["tokens"][n], "on_turn": n == state["turn"]}
            for n in state["seats"]
            if n != name
        ],
        "challenge": ch,
        # The card to beat, as the laptop shows it (issue 26: the phone had only the laptop's).
        "reference": card_info(ch.get("reference")) if ch else None,
        # A physical deck's card is named on the game master's screen, where the grid is.
        "physical": table.deck_mode == Table.DeckMode.PHYSICAL,
        "story": facing.story_tail.entries[-LAST_SCENES:],
    }
