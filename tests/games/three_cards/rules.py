"""Three Cards, a game for the tests only: each player holds three cards from a shuffled deck
of fifteen, hidden from the others. On your turn you play one card from your hand (its number
is added to your score) and draw the top card of the deck. When every hand is empty, the
highest score wins.

Pure Python like every referee: no Django. The deck (``deck``) and the generator's state
(``rng``) are hidden from every view by the framework; the hands are declared ``private``.
"""

from __future__ import annotations

from typing import Any

from games.rules import cards
from games.rules.arguments import move_text
from games.rules.base import Field, Game, Narrator, Option, Story
from games.rules.errors import N_, IllegalMove
from games.rules.setup import Setup

CARDS = tuple(f"k{n:02d}" for n in range(1, 16))


def value(card: str) -> int:
    return int(card[1:])


class ThreeCardsNarrator(Narrator):
    """One entry per card played, with what its player told."""

    def step(self, story: Story, index: int, move, before, after) -> None:
        story.append(
            {"kind": "play", "by": move["by"], "card": move["card"], "text": move_text(move)}
        )


class ThreeCards(Game):
    name = "three_cards"
    title = "Three Cards"
    min_players = 2
    max_players = 4
    options = {"hand_size": Option(default=3, min=1, max=3, help="Cards in each hand")}
    moves = {"play": frozenset({"play"})}
    fields = {"play": {"card": Field("card")}}
    private = ("hands.*",)
    narrator_class = ThreeCardsNarrator

    def is_card(self, code: str, setup: Setup) -> bool:
        return code in CARDS

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        rng = cards.Rng(cards.seed_state(setup.seed))
        deck = rng.shuffle(list(CARDS))
        size = setup.options["hand_size"]
        hands = {p: [deck.pop() for _ in range(size)] for p in setup.players}
        return {
            "phase": "play",
            "turn": setup.start,
            "deck": deck,
            "rng": rng.state,
            "left": len(deck),
            "hands": hands,
            "held": {p: size for p in setup.players},
            "scores": {p: 0 for p in setup.players},
            "played": [],
        }

    def _do_play(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["turn"]:
            raise IllegalMove("not_your_turn", N_("It is {turn}'s turn."), turn=state["turn"])
        card = move.get("card")
        if card not in state["hands"][by]:
            raise IllegalMove("rule_violation", N_("{by} does not hold that card."), by=by)
        state["hands"][by].remove(card)
        state["scores"][by] += value(card)
        state["played"].append({"by": by, "card": card})
        if state["deck"]:
            state["hands"][by].append(state["deck"].pop())
        state["left"] = len(state["deck"])
        state["held"][by] = len(state["hands"][by])
        holding = [p for p in state["seats"] if state["hands"][p]]
        if not holding:
            best = max(state["scores"].values())
            state.update(finished=True, phase="over", turn=None)
            state["winners"] = [p for p in state["seats"] if state["scores"][p] == best]
        else:
            state["turn"] = self.next_in(state["seats"], by, holding)

    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        if state["finished"] or player != state["turn"]:
            return []
        return [{"do": "play"}]  # the card is the player's choice, from their own hand


GAME = ThreeCards()
