"""A game of pure chance, for the tests of the search bot and the skill figures (registered
only by them): each seat in turn calls "high" or "low" and then rolls a die from the game's
generator; the call changes nothing. After ``rounds`` rolls each, the highest total wins
(ties share the win). No way of playing can do better than another: a measure of skill must
find none here. With the option ``loaded`` a call of high adds 3 to the roll: then calling
high is a dominant line, and forbidding it costs nearly every win."""

from __future__ import annotations

from typing import Any

from games.rules import cards
from games.rules.base import Game, Option
from games.rules.errors import N_, IllegalMove
from games.rules.setup import Setup
from games.simulate.bots import Bot


class Chance(Game):
    name = "chance"
    title = "Chance"
    min_players = 2
    max_players = 4
    options = {
        "rounds": Option(3, 1, 20, help="rolls each"),
        "loaded": Option(False, help="a call of high adds 3 to the roll"),
    }
    moves = {"high": frozenset({"play"}), "low": frozenset({"play"})}
    card_fields = ()

    def is_card(self, code: str, setup: Setup) -> bool:
        return False

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        return {
            "phase": "play",
            "turn": setup.start,
            "rolls": 0,
            "score": dict.fromkeys(setup.players, 0),
            "rng": cards.seed_state(setup.seed),
        }

    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["turn"]:
            raise IllegalMove("not_your_turn", N_("It is {turn}'s turn."), turn=state["turn"])
        rng = cards.Rng(state["rng"])
        state["score"][by] += 1 + rng.below(6)
        if state["options"]["loaded"] and move["do"] == "high":
            state["score"][by] += 3
        state["rng"] = rng.state
        state["rolls"] += 1
        if state["rolls"] >= state["options"]["rounds"] * len(state["seats"]):
            top = max(state["score"].values())
            winners = [s for s in state["seats"] if state["score"][s] == top]
            state.update(finished=True, winners=winners, phase="over", turn=None)
            return
        state["turn"] = self.next_in(state["seats"], by)

    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        if state["finished"] or player != state["turn"]:
            return []
        return [{"do": "high"}, {"do": "low"}]


GAME = Chance()


class RandomBot(Bot):
    """High or low, at random (it changes nothing)."""

    def choose(self, view, legal_moves, may_wait=False):
        return dict(self.pick(legal_moves))


class SensibleBot(Bot):
    """Always calls high (it changes nothing either)."""

    def choose(self, view, legal_moves, may_wait=False):
        return {"do": "high"}


BOTS = {"random": RandomBot, "sensible": SensibleBot}


def figures(setup, moves, initial, states, bots_by_seat) -> dict[str, Any]:
    return {"moves": len(moves)}
