"""Contest: the optional moves of voting off and extra points."""

from __future__ import annotations

from games.contest.rules.checks import Checks, _fail, _names, _penalty_list
from games.contest.rules.core import (
    State,
    active,
    event,
    pay,
    put_out,
    set_controller,
    who,
)
from games.rules.errors import N_


class ContestOptions(Checks):
    # -- voting ----------------------------------------------------------------------------------
    def _voters(self, state: State, move: dict, keys: tuple[str, ...], exclude: set[str]) -> dict:
        lists = {key: _names(move, key) for key in keys}
        for names in lists.values():
            for name in names:
                self._target(state, name, "voter")
        return lists

    @staticmethod
    def _everyone_once(state: State, lists: dict, exclude: set[str], what: str) -> None:
        listed = [n for names in lists.values() for n in names]
        expected = [n for n in active(state) if n not in exclude]
        if sorted(listed) != sorted(expected):
            raise _fail(
                "rule_violation",
                N_("Every other active player ({players}) must {what} exactly once."),
                players=", ".join(expected) or "nobody",
                what=what,
            )

    def _do_vote_off(self, state: State, move: dict) -> None:
        by = move["by"]
        if by != state["controller"]:
            raise _fail("not_your_turn", N_("Only the narrator may call a vote."))
        target = move.get("target")
        if not isinstance(target, str):
            raise _fail("bad_argument", N_("Choose the player to vote off."))
        lists = self._voters(state, move, ("up", "down", "pretzels"), {by, target})
        self._target(state, target)
        self._require_option(state, "voting_off", "voting off")
        if target == by:
            raise _fail("rule_violation", N_("The narrator cannot vote themselves off."))
        self._everyone_once(state, lists, {by, target}, "vote or throw")
        up, down = len(lists["up"]), len(lists["down"])
        event(
            state,
            "vote",
            f"{who(state, by)} calls a vote on {who(state, target)}: {up} up, {down} down, "
            f"{len(lists['pretzels'])} pretzel(s).",
            caller=by,
            target=target,
            up=lists["up"],
            down=lists["down"],
            pretzels=lists["pretzels"],
        )
        if lists["pretzels"]:
            state["players"][by]["pretzels"] += len(lists["pretzels"])
            if state["players"][by]["pretzels"] >= state["options"]["pretzel_limit"]:
                put_out(state, by, "pretzels")
                return
        if up > down:
            state["vote"] = {"caller": by, "target": target, "player": target}
        elif down > up:
            set_controller(state, target, "vote")
            state["vote"] = {"caller": by, "target": target, "player": by}
        else:
            event(state, "vote_tie", "The vote is tied: nothing happens.")
            return
        state["phase"] = "vote"

    def _voted(self, state: State, by: str) -> None:
        vote = state["vote"]
        if not vote or by != vote["player"]:
            raise _fail("not_your_turn", N_("{by} was not voted off."), by=by)

    def _do_stay(self, state: State, move: dict) -> None:
        by = move["by"]
        self._voted(state, by)
        penalties = _penalty_list(move, 3)
        named = self._physical_cards(state, move, penalties.count("card"))
        event(state, "stay", f"{who(state, by)} pays three penalties to stay.", player=by)
        state["vote"] = None
        state["phase"] = "story"
        pay(state, by, penalties, named)

    def _do_leave(self, state: State, move: dict) -> None:
        by = move["by"]
        self._voted(state, by)
        state["vote"] = None
        state["phase"] = "story"
        put_out(state, by, "vote")

    # -- extra points -----------------------------------------------------------------------------
    def _do_extra_point(self, state: State, move: dict) -> None:
        by = move["by"]
        lists = self._voters(state, move, ("up", "down"), {by})
        self._require_option(state, "extra_points", "extra points")
        if state["players"][by]["extra_point_earned"]:
            raise _fail(
                "rule_violation", N_("{by} has already earned an extra point this game."), by=by
            )
        self._everyone_once(state, lists, {by}, "vote")
        won = len(lists["up"]) > len(lists["down"])
        self._extra(state, by, won, "vote")

    def _do_bribe(self, state: State, move: dict) -> None:
        by = move["by"]
        lists = self._voters(state, move, ("accepted_by",), {by})
        self._require_option(state, "extra_points", "extra points")
        if state["players"][by]["extra_point_earned"]:
            raise _fail(
                "rule_violation", N_("{by} has already earned an extra point this game."), by=by
            )
        accepted = lists["accepted_by"]
        if by in accepted or len(set(accepted)) != len(accepted):
            raise _fail("rule_violation", N_("List each other player at most once."))
        others = [n for n in active(state) if n != by]
        self._extra(state, by, sorted(accepted) == sorted(others), "bribe")

    def _extra(self, state: State, by: str, won: bool, how: str) -> None:
        if won:
            state["players"][by]["extra_point_earned"] = True
            state["earned_points"][by] += 1
            event(
                state, "extra_point", f"{who(state, by)} earns an extra point ({how}).", player=by
            )
        else:
            event(state, "extra_point_denied", f"{who(state, by)} does not get the extra point.")
