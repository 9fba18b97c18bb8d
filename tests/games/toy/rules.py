"""A toy referee, registered only by the tests: proof that a game is one package plus one
registration. Two to four players take turns saying something; whoever stops the game wins.

Pure Python like every referee: no Django (the registry test imports it with Django blocked).
"""

from __future__ import annotations

from typing import Any

from games.rules.arguments import move_text
from games.rules.base import Game, Option
from games.rules.errors import N_, IllegalMove
from games.rules.setup import Setup


class Toy(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 4
    options = {
        "max_lines": Option(default=20, min=1, max=100, help="Lines before someone must stop"),
        "polite": Option(default=False, help="Say please"),
    }
    moves = {"say": frozenset({"talk"}), "stop": frozenset({"talk"})}
    card_fields = ()

    def is_card(self, code: str, setup: Setup) -> bool:
        return False

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        return {"phase": "talk", "turn": setup.start, "lines": 0}

    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["turn"]:
            raise IllegalMove("not_your_turn", N_("It is {turn}'s turn."), turn=state["turn"])
        if move["do"] == "say":
            if state["lines"] >= state["options"]["max_lines"]:
                raise IllegalMove("rule_violation", N_("Enough said: someone must stop."))
            state["lines"] += 1
            state["turn"] = self.next_in(state["seats"], by)
        else:
            state["finished"] = True
            state["winners"] = [by]
            state["phase"] = "over"
            state["turn"] = None

    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        if state["finished"] or player != state["turn"]:
            return []
        say = [{"do": "say"}] if state["lines"] < state["options"]["max_lines"] else []
        return [*say, {"do": "stop"}]

    def narrative(self, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {"kind": "line", "by": m.get("by"), "text": move_text(m), "moves": [i]}
            for i, m in enumerate(moves)
            if m.get("do") == "say"
        ]


GAME = Toy()
