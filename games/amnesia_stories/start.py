"""How Amnesia Stories chooses its first bard: the score cards are dealt at random, and the
player who gets the one marked S starts (the seed's set-up)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.rules.cards import Rng
from games.start import StartMethod


def deal_score_cards(players: list[str], rng: Rng) -> dict[str, Any]:
    """One score card per player, shuffled; the S card's holder starts."""
    cards = ["S"] + [""] * (len(players) - 1)
    rng.shuffle(cards)
    holder = players[cards.index("S")]
    return {"start": holder, "s_card": holder}


def describe(record: dict[str, Any]) -> list[str]:
    holder = record["s_card"]
    if not isinstance(holder, str):
        raise TypeError(holder)
    return [gettext("%(name)s was dealt the S card and is the first bard.") % {"name": holder}]


START = StartMethod(
    key="score_cards",
    label=_("Deal the score cards: whoever gets the one marked S is the first bard"),
    draw=deal_score_cards,
    describe=describe,
    physical_hint=_("Deal the score cards at the table and choose the S card's holder."),
)
