"""Amnesia: the player's turn: continuing the story, a flashback, passing to refill, and the
finale (the memory of the room once the discard is full enough, then the story's end)."""

from __future__ import annotations

from typing import Any

from games.amnesia.rules.checks import ENDED, MAX_ABILITIES, MAX_ABILITY_LENGTH, SCENE, Checks
from games.rules.arguments import require_int
from games.rules.errors import N_, IllegalMove


class TurnMoves(Checks):
    @staticmethod
    def finale_threshold(state: dict[str, Any]) -> int:
        return state["options"]["finale_factor"] * len(state["seats"])

    def _first_move_check(self, state: dict[str, Any], verb: str) -> None:
        if state["moves_made"] == 0 and verb != "continue":
            raise IllegalMove(
                "rule_violation",
                N_("The story must begin with the start player continuing it."),
            )

    def _start_scene(self, state: dict[str, Any], by: str, kind: str) -> None:
        state["phase"] = SCENE
        state["narrator"] = by
        state["scene_kind"] = kind

    def _do_continue(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        self._pay(state, by, "bank", N_("to continue the story"))
        state["scenes"] += 1
        self._start_scene(state, by, "scene")

    def _do_flashback(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        abilities = move.get("abilities", [])
        if abilities is None:
            abilities = []
        if not isinstance(abilities, list) or not all(isinstance(a, str) for a in abilities):
            raise IllegalMove(
                "bad_argument", N_("The abilities a memory awakens must be short texts.")
            )
        abilities = [a.strip() for a in abilities]
        if any(not a or len(a) > MAX_ABILITY_LENGTH for a in abilities):
            raise IllegalMove(
                "bad_argument",
                N_("Each ability must be between 1 and {max_length} characters."),
                max_length=MAX_ABILITY_LENGTH,
            )
        if len(abilities) > MAX_ABILITIES:
            raise IllegalMove(
                "bad_argument",
                N_("A memory activates at most {max_abilities} abilities."),
                max_abilities=MAX_ABILITIES,
            )
        self._first_move_check(state, "flashback")
        if state["room_flashback_told"]:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "The memory of the room has been told: no more flashbacks, "
                    "the story heads to its end."
                ),
            )
        self._pay(state, by, "discard", N_("for a flashback"))
        state["abilities"].extend(abilities)
        state["flashbacks"] += 1
        self._start_scene(state, by, "flashback")

    def _do_room_flashback(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        self._first_move_check(state, "room_flashback")
        if state["room_flashback_told"]:
            raise IllegalMove("rule_violation", N_("The memory of the room has already been told."))
        need = self.finale_threshold(state)
        if not state["discard"] > need:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "The memory of the room opens once the discard holds more than {need} tokens "
                    "(it holds {discard})."
                ),
                need=need,
                discard=state["discard"],
            )
        self._pay(state, by, "discard", N_("for the memory of the room"))
        state["room_flashback_told"] = True
        state["flashbacks"] += 1
        self._start_scene(state, by, "room")

    @staticmethod
    def _pass_at_cap(state: dict[str, Any]) -> str:
        # States made before the option existed lack it; their tables carry "allow".
        return state["options"].get("pass_at_cap", "refuse")

    def _do_pass(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        take = require_int(move, "take", 0, what=N_("The tokens to take from the bank"))
        if take > state["bank"]:
            raise IllegalMove(
                "bad_argument",
                N_("The bank holds {bank} tokens; {by} cannot take {take}."),
                bank=state["bank"],
                by=by,
                take=take,
            )
        cap = state["options"]["token_cap"]
        if state["tokens"][by] >= cap and self._pass_at_cap(state) == "refuse":
            raise IllegalMove(
                "bad_argument",
                N_(
                    "{by} has {tokens} tokens, at or above the cap of {cap}: a pass refills, "
                    "so {by} cannot pass and must continue or tell a memory."
                ),
                by=by,
                tokens=state["tokens"][by],
                cap=cap,
            )
        if take > 0 and state["tokens"][by] + take >= cap:
            raise IllegalMove(
                "bad_argument",
                N_(
                    "{by} has {tokens} tokens and must end a pass below {cap}; "
                    "taking {take} is too many."
                ),
                by=by,
                tokens=state["tokens"][by],
                cap=cap,
                take=take,
            )
        self._first_move_check(state, "pass")
        state["tokens"][by] += take
        state["bank"] -= take
        state["turn"] = self.next_in(state["seats"], by)

    def _do_end_story(self, state, move):
        agreed = move.get("agreed")
        if not isinstance(agreed, list) or not all(isinstance(a, str) for a in agreed):
            raise IllegalMove("bad_argument", N_("Tick every player who agrees to end the story."))
        for name in agreed:
            if name not in state["seats"]:
                raise IllegalMove(
                    "unknown_player", N_("There is no player called “{name}”."), name=name
                )
        if not state["room_flashback_told"]:
            raise IllegalMove(
                "rule_violation",
                N_("The story can end only after the memory of the room is told."),
            )
        missing = [p for p in state["seats"] if p not in agreed]
        if missing:
            raise IllegalMove(
                "rule_violation",
                N_("Everyone must agree to end the story; not yet: {missing}."),
                missing=", ".join(missing),
            )
        state["phase"] = ENDED
        state["finished"] = True
        state["turn"] = None
