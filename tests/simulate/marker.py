"""A toy game with rule holes planted on purpose, for the simulator's tests (registered only
by them). Players take turns moving a marker left or right along a track; whoever moves it
onto an end of the track wins.

Planted holes, each behind an option:
- ``bounce``: the ends bounce the marker back, so nobody can ever win: the game loops
  forever;
- ``dead_end``: on square 1 nobody has a legal move, though the game is not over;
- ``polite``: read by no rule at all: an inert option.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.rules.base import Game, Option
from games.rules.errors import N_, IllegalMove
from games.rules.setup import Setup
from games.simulate.bots import Bot, Param


class Marker(Game):
    name = "marker"
    title = "Marker"
    min_players = 2
    max_players = 4
    options = {
        "length": Option(6, 3, 20, help="squares on the track"),
        "bounce": Option(False, help="the ends bounce the marker back (no one can win)"),
        "dead_end": Option(False, help="square 1 leaves nobody a legal move"),
        "polite": Option(False, help="say please (no rule reads it)"),
    }
    moves = {"left": frozenset({"play"}), "right": frozenset({"play"})}
    card_fields = ()

    def is_card(self, code: str, setup: Setup) -> bool:
        return False

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        return {"phase": "play", "turn": setup.start, "pos": setup.options["length"] // 2}

    def _stuck(self, state) -> bool:
        return state["options"]["dead_end"] and state["pos"] == 1

    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["turn"] or self._stuck(state):
            raise IllegalMove("not_your_turn", N_("It is {turn}'s turn."), turn=state["turn"])
        step = 1 if move["do"] == "right" else -1
        pos = state["pos"] + step
        end = state["options"]["length"]
        if pos in (0, end):
            if state["options"]["bounce"]:
                pos -= 2 * step
            else:
                state.update(pos=pos, finished=True, winners=[by], phase="over", turn=None)
                return
        state["pos"] = pos
        state["turn"] = self.next_in(state["seats"], by)

    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        if state["finished"] or player != state["turn"] or self._stuck(state):
            return []
        return [{"do": "left"}, {"do": "right"}]


GAME = Marker()


class RandomBot(Bot):
    """Left or right, at random."""

    def choose(self, view, legal_moves, may_wait=False):
        return dict(self.pick(legal_moves))


class SensibleBot(Bot):
    """Onto an end when one step away (a win); otherwise a step that does not leave the
    marker one step from an end, heading right with chance ``right`` when both do."""

    params = {"right": Param(0.5, 0, 1, "chance of heading right when both steps are safe")}

    def choose(self, view, legal_moves, may_wait=False):
        pos, end = view["pos"], view["options"]["length"]
        if pos - 1 == 0:
            return {"do": "left"}
        if pos + 1 == end:
            return {"do": "right"}
        safe = [d for d, to in (("left", pos - 1), ("right", pos + 1)) if to not in (1, end - 1)]
        if len(safe) == 1:
            return {"do": safe[0]}
        return {"do": "right" if self.chance(self.p["right"]) else "left"}


BOTS = {"random": RandomBot, "sensible": SensibleBot}


def figures(setup, moves, initial, states, bots_by_seat) -> dict[str, Any]:
    final = states[-1] if states else initial
    verbs = Counter(m["do"] for m in moves)
    out = {"moves": len(moves), "rights": verbs["right"], "end_pos": final["pos"]}
    if final["finished"]:
        for index, seat in enumerate(setup.players, 1):
            out[f"seat{index}.wins"] = (seat in final["winners"]) / len(final["winners"])
    return out
