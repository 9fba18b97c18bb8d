"""Amnesia Stories: scoring: each step and each turn judged (points for agreeing with the bard,
the bard's for a step some but not all matched, red cards for a step nobody did), the next
turn started, and the end (the red cards' penalty, the winners)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.rules.base import Game
from games.rules.plain import copy_plain


class Scoring(Game):
    if TYPE_CHECKING:  # the next turn set up, once one is judged: ``dealing.Dealing``

        def _start_turn(self, state: dict[str, Any]) -> None: ...

    def _judge(self, state: dict[str, Any]) -> None:
        opts = state["options"]
        bard = state["bard"]
        seats = state["seats"]
        picks = {p: state["_picks"][p] for p in seats}
        gains, reds = judge_turn(opts, bard, picks)
        for p in seats:
            state["vp"][p] += gains[p]
            state["red_cards"][p] += reds[p]
        turn = {
            "turn_number": state["turn_number"],
            "bard": bard,
            "story": list(state["story"]),
            "picks": picks,
            "gains": gains,
            "red_cards": reds,
        }
        state["last_turn"] = turn
        state["history"].append(copy_plain(turn))
        state["_picks"] = {}
        if state["turn_number"] >= state["turns"]:
            self._end(state)
        else:
            state["turn_number"] += 1
            self._start_turn(state)

    def _end(self, state: dict[str, Any]) -> None:
        worst = max(state["red_cards"].values())
        for p in state["seats"]:
            if worst > 0 and state["red_cards"][p] == worst:
                state["penalty"][p] = worst
                state["vp"][p] -= worst
        best = max(state["vp"].values())
        state["winners"] = [p for p in state["seats"] if state["vp"][p] == best]
        state["finished"] = True
        state["phase"] = "ended"
        state["bard"] = None
        state["story"] = []
        state["answered"] = []


def judge_step(
    options: dict[str, Any], bard: str, picks: dict[str, int], *, climax: bool
) -> tuple[dict[str, int], dict[str, int], str]:
    """One step of a story: ``(gains, red_cards, outcome)``, the outcome ``"all"``, ``"some"``
    or ``"none"`` of the audience matching the bard. ``climax`` is the story's last step.
    No set bonus here: that is judged over the whole turn."""
    gains = {p: 0 for p in picks}
    reds = {p: 0 for p in picks}
    audience = [p for p in picks if p != bard]
    matched = [p for p in audience if picks[p] == picks[bard]]
    for p in matched:
        gains[p] += options["audience_points"]
    if not matched:
        outcome = "none"
        if options["red_card_on_all_wrong"]:
            reds[bard] += 1
    elif len(matched) < len(audience):
        outcome = "some"
        gains[bard] += options["bard_points"]
    else:
        outcome = "all"
        # Draft 3 paid the bard for an obvious step too, except at the story's climax.
        if options.get("all_matched", "zero") == "zero_at_climax" and not climax:
            gains[bard] += options["bard_points"]
    return gains, reds, outcome


def judge_turn(
    options: dict[str, Any], bard: str, picks: dict[str, list[int]]
) -> tuple[dict[str, int], dict[str, int]]:
    """VP gained and red cards given by one judged turn: ``(gains, red_cards)``."""
    gains = {p: 0 for p in picks}
    reds = {p: 0 for p in picks}
    audience = [p for p in picks if p != bard]
    told = picks[bard]
    last = len(told) - 1
    for step in range(len(told)):
        step_gains, step_reds, _outcome = judge_step(
            options, bard, {p: picks[p][step] for p in picks}, climax=step == last
        )
        for p in picks:
            gains[p] += step_gains[p]
            reds[p] += step_reds[p]
    for p in audience:
        if set(picks[p]) == set(told):
            gains[p] += options["set_bonus"]
    return gains, reds
