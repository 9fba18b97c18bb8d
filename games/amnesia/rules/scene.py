"""Amnesia: a scene: the others' suggestions, a paid insistence, and the narrator's answer to
it (accepting, or refusing, which opens a challenge); the narrator ends the scene."""

from __future__ import annotations

from games.amnesia.rules.checks import CHALLENGE, INSIST, SCENE, TURN, Checks
from games.rules.errors import N_, IllegalMove


class SceneMoves(Checks):
    def _do_suggest(self, state, move):
        by = move["by"]
        self._require_not_narrator(state, by, N_("make suggestions to themself"))

    def _do_insist(self, state, move):
        by = move["by"]
        self._require_not_narrator(state, by, N_("pay themself to insist"))
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens", N_("{by} has 0 tokens and cannot pay to insist."), by=by
            )
        state["insist"] = {"by": by}
        state["phase"] = INSIST

    def _do_end_scene(self, state, move):
        by = move["by"]
        self._require_narrator(state, by, N_("end the scene"))
        state["turn"] = self.next_in(state["seats"], by)
        state["narrator"] = None
        state["scene_kind"] = None
        state["phase"] = TURN

    def _do_accept(self, state, move):
        by = move["by"]
        self._require_narrator(state, by, N_("accept a paid suggestion"))
        insister = state["insist"]["by"]
        state["tokens"][insister] -= 1
        state["tokens"][by] += 1
        state["insist"] = None
        state["phase"] = SCENE

    def _do_refuse(self, state, move):
        by = move["by"]
        self._require_narrator(state, by, N_("refuse a paid suggestion"))
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens",
                N_("{by} has 0 tokens and cannot refuse: a challenge needs a token to open."),
                by=by,
            )
        insister = state["insist"]["by"]
        state["tokens"][insister] -= 1
        state["pot"] += 1
        state["challenge"] = {
            "narrator": by,
            "insister": insister,
            "participants": [p for p in state["seats"] if p in (by, insister)],
            "bets": {insister: 1},
            "reference": None,
            "to_act": None,
            "drawn": [],
            "joined": [],
        }
        state["insist"] = None
        state["phase"] = CHALLENGE
