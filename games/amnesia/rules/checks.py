"""Amnesia: the phases, the limits, and what every part of the game asks of a move: whose turn
or role it is, and a token paid."""

from __future__ import annotations

from typing import Any

from games.rules.base import Game
from games.rules.errors import N_, IllegalMove

TURN, SCENE, INSIST, CHALLENGE, ENDED = "turn", "scene", "insist", "challenge", "ended"

MAX_ABILITY_LENGTH = 80
MAX_ABILITIES = 10


class Checks(Game):
    @staticmethod
    def _pay(state: dict[str, Any], who: str, pile: str, why: str) -> None:
        if state["tokens"][who] < 1:
            raise IllegalMove(
                "insufficient_tokens",
                N_("{who} has 0 tokens and cannot pay {why}."),
                who=who,
                why=why,
            )
        state["tokens"][who] -= 1
        state[pile] += 1

    def _require_turn(self, state: dict[str, Any], by: str) -> None:
        if by != state["turn"]:
            raise IllegalMove(
                "not_your_turn", N_("It is {turn}'s turn, not {by}'s."), turn=state["turn"], by=by
            )

    def _require_narrator(self, state: dict[str, Any], by: str, what: str) -> None:
        if by != state["narrator"]:
            raise IllegalMove(
                "not_your_turn",
                N_("Only the narrator, {narrator}, can {what}."),
                narrator=state["narrator"],
                what=what,
            )

    def _require_not_narrator(self, state: dict[str, Any], by: str, what: str) -> None:
        if by == state["narrator"]:
            raise IllegalMove(
                "not_your_turn", N_("{by} is narrating and cannot {what}."), by=by, what=what
            )
