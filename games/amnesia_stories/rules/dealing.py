"""Amnesia Stories: the deck and each turn's set-up: the selection slots and the journey dealt
(drawn by the referee from a virtual deck, named by the bard at a physical table), the used
selection discarded, and the discard put back under the deck when a journey runs short."""

from __future__ import annotations

from typing import Any

from games.rules import cards
from games.rules.base import Game
from games.rules.errors import N_, IllegalMove


class Dealing(Game):
    @staticmethod
    def _draw(state: dict[str, Any], n: int) -> list[str]:
        drawn, state["_deck"] = state["_deck"][:n], state["_deck"][n:]
        state["deck_count"] = len(state["_deck"])
        return drawn

    @staticmethod
    def _place(state: dict[str, Any], slots: list[str], journey: list[str]) -> None:
        state["selection"] = {str(i + 1): card for i, card in enumerate(slots)}
        state["journey"] = list(journey)
        state["story"] = []
        state["answered"] = []
        state["_picks"] = {}
        state["phase"] = "tell"

    @staticmethod
    def _discard_selection(state: dict[str, Any]) -> None:
        """The finished turn's selection cards go to the discard (slot order)."""
        selection = state["selection"]
        state["discard"].extend(selection[k] for k in sorted(selection, key=int))
        state["selection"] = {}

    @staticmethod
    def _refill(state: dict[str, Any]) -> None:
        """The discard goes under the remaining deck: oldest first for a stacked deck or a
        physical table (whose order the referee does not know), shuffled by the game's own
        generator for a seeded virtual deck."""
        returned = list(state["discard"])
        if state["deck_mode"] == "virtual" and not state.get("stacked_deck"):
            rng = cards.Rng(state["rng"])
            rng.shuffle(returned)
            state["rng"] = rng.state
        state["_deck"] = state["_deck"] + returned
        state["discard"] = []
        state["deck_count"] = len(state["_deck"])

    def _next_journey_ready(self, state: dict[str, Any], choices: int) -> None:
        """Discard the finished selection; refill the deck if a journey cannot be dealt."""
        self._discard_selection(state)
        if len(state["_deck"]) < choices:
            self._refill(state)

    def _deal_virtual(self, state: dict[str, Any], choices: int) -> None:
        slots = self._draw(state, choices) if not state["journey"] else list(state["journey"])
        self._next_journey_ready(state, choices)
        self._place(state, slots, self._draw(state, choices))

    def _start_turn(self, state: dict[str, Any]) -> None:
        seats = state["seats"]
        n = state["turn_number"]
        state["round"] = (n - 1) // len(seats) + 1
        state["bard"] = seats[(seats.index(state["start"]) + n - 1) % len(seats)]
        if state["deck_mode"] == "virtual":
            self._deal_virtual(state, state["options"]["choices"])
        else:
            state["phase"] = "deal"

    # -- play --------------------------------------------------------------------------
    def _do_deal(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["bard"]:
            raise IllegalMove(
                "not_your_turn", N_("Only the bard, {bard}, deals the cards."), bard=state["bard"]
            )
        choices = state["options"]["choices"]
        first = state["turn_number"] == 1
        journey = _card_list(move, "journey", choices)
        slots = _card_list(move, "slots", choices) if first or "slots" in move else None
        if slots is not None and not first and slots != state["journey"]:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "After the first turn the slots are the previous journey cards, in order; "
                    "deal only the new journey."
                ),
            )
        new = journey + (slots if first else [])
        if len(set(new)) != len(new):
            raise IllegalMove("rule_violation", N_("The same card cannot be dealt twice."))
        if not first:
            self._next_journey_ready(state, choices)
        for card in new:
            if card not in state["_deck"]:
                raise IllegalMove(
                    "rule_violation", N_("Card {card} has already been dealt."), card=card
                )
        state["_deck"] = [c for c in state["_deck"] if c not in new]
        state["deck_count"] = len(state["_deck"])
        self._place(state, slots if first else list(state["journey"]), journey)


# How a reader names the card lists a move reads: a refusal says these, never a key.
CARD_LISTS = {
    "journey": N_("Journey (text side up)"),
    "slots": N_("Selection slots (face up)"),
    "story": N_("The story, in order"),
}


def _card_list(move: dict[str, Any], key: str, count: int) -> list[str]:
    value = move.get(key)
    if (
        not isinstance(value, list)
        or len(value) != count
        or not all(isinstance(c, str) for c in value)
    ):
        raise IllegalMove(
            "bad_argument",
            N_("{what}: choose a card for each of the {count} places."),
            what=CARD_LISTS[key],
            count=count,
        )
    return list(value)
