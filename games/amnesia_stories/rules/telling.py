"""Amnesia Stories: the bard's telling (a story of journey cards, in order) and the listeners'
matching (everyone's secret picks of a slot for each step); the last answer has the turn
judged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.amnesia_stories.rules.dealing import _card_list
from games.rules.arguments import optional_text
from games.rules.base import Game
from games.rules.errors import N_, IllegalMove


class Telling(Game):
    if TYPE_CHECKING:  # the turn judged, once the last answer is in: ``scoring.Scoring``

        def _judge(self, state: dict[str, Any]) -> None: ...

    def _do_tell(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["bard"]:
            raise IllegalMove(
                "not_your_turn", N_("Only the bard, {bard}, tells the story."), bard=state["bard"]
            )
        questions = state["options"]["questions"]
        story = _card_list(move, "story", questions)
        optional_text(move, "text")
        if len(set(story)) != len(story):
            raise IllegalMove("rule_violation", N_("A story cannot use the same card twice."))
        for card in story:
            if card not in state["journey"]:
                raise IllegalMove(
                    "rule_violation", N_("Card {card} is not in the journey."), card=card
                )
        state["story"] = story
        state["phase"] = "answer"

    def _do_answer(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        opts = state["options"]
        questions, choices = opts["questions"], opts["choices"]
        picks = move.get("picks")
        if not isinstance(picks, list) or len(picks) != questions:
            raise IllegalMove(
                "bad_argument",
                N_("Choose a slot number for each of the {questions} steps."),
                questions=questions,
            )
        for pick in picks:
            if isinstance(pick, bool) or not isinstance(pick, int) or not 1 <= pick <= choices:
                raise IllegalMove(
                    "bad_argument",
                    N_("Each pick must be a slot number from 1 to {choices}."),
                    choices=choices,
                )
        if len(set(picks)) != len(picks):
            raise IllegalMove(
                "rule_violation", N_("You hold one card of each number: picks must all differ.")
            )
        if by in state["answered"]:
            raise IllegalMove("rule_violation", N_("{by} has already answered this turn."), by=by)
        state["answered"].append(by)
        state["_picks"][by] = list(picks)
        if len(state["answered"]) == len(state["seats"]):
            self._judge(state)
