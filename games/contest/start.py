"""How the contest chooses who starts: everyone draws a card, the highest starts, and players
tied for the highest draw again (the seed's set-up; the cards then go back into the deck).

Which card is highest is the app's ruling, said on the form: the game counts an ace as 1, so
aces are low, and the face cards rank above the 10 (J, Q, K) as in any deck; suits do not
count, which is why a tie draws again.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from amnesia_site.lists import listing
from games.rules.cards import Rng, label, rank, standard_deck
from games.start import StartMethod

HIGH_CARD_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Eight players tied again and again cannot empty a deck before the draw settles, but a
# generator is no proof: past this many rounds the deck is shuffled afresh.
MAX_ROUNDS = 50


def high(code: str) -> int:
    return HIGH_CARD_ORDER.index(rank(code))


def high_card(players: list[str], rng: Rng) -> dict[str, Any]:
    """Each player still drawing takes the top card of a shuffled deck; those tied for the
    highest draw again, until one is left. Rounds are lists (not objects) so the seat order
    survives any JSON store."""
    deck = rng.shuffle(standard_deck())
    drawing = list(players)
    rounds: list[list[dict[str, str]]] = []
    while len(drawing) > 1 or not rounds:
        if len(deck) < len(drawing):
            deck = rng.shuffle(standard_deck())
        drawn = [{"player": name, "card": deck.pop(0)} for name in drawing]
        rounds.append(drawn)
        top = max(high(d["card"]) for d in drawn)
        drawing = [d["player"] for d in drawn if high(d["card"]) == top]
        if len(rounds) >= MAX_ROUNDS:
            break
    return {"start": drawing[0], "rounds": rounds}


def describe(record: dict[str, Any]) -> list[str]:
    lines = []
    for i, drawn in enumerate(record["rounds"]):
        cards = listing(
            gettext("%(name)s %(card)s") % {"name": d["player"], "card": label(d["card"])}
            for d in drawn
        )
        if i == 0:
            lines.append(gettext("Everyone drew a card: %(cards)s.") % {"cards": cards})
        else:
            lines.append(
                gettext("A tie for the highest: they drew again: %(cards)s.") % {"cards": cards}
            )
    lines.append(gettext("%(name)s drew the highest card and starts.") % {"name": record["start"]})
    return lines


START = StartMethod(
    key="high_card",
    label=_(
        "Everyone draws a card; the highest starts, and a tie draws again "
        "(ace low, king high, suits do not count)"
    ),
    draw=high_card,
    describe=describe,
    physical_hint=_("Draw the cards at the table and choose who drew the highest."),
)
