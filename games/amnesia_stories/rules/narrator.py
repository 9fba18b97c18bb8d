"""Amnesia Stories: the story record: each bard's story, one move at a time, with its cards'
adventure texts (a custom deck's own, or the built-in ones)."""

from __future__ import annotations

from typing import Any

from games.amnesia_stories.area_texts import area_texts
from games.rules.base import Narrator, Story
from games.rules.plain import copy_plain


class StoriesNarrator(Narrator):
    """Each bard's story, one move at a time: a ``tell`` opens the story's entry, and the
    judging of its turn (a new row of ``history``) fills in the picks and points. The cursor
    names the stories told and not judged yet, by turn (the only entries a move may change)."""

    def open_entries(self) -> list[int]:
        return sorted(self.cursor.get("open", {}).values())

    def step(
        self,
        story: Story,
        index: int,
        move: dict[str, Any],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        open_turns = self.cursor.setdefault("open", {})
        if move.get("do") == "tell":
            custom_texts = self.setup.extra.get("area_texts") or {}
            entry = {
                "turn": after["turn_number"],
                "round": after["round"],
                "bard": after["bard"],
                "story": list(after["story"]),
                "cards": [{"id": c, "texts": _texts_for(c, custom_texts)} for c in after["story"]],
                "text": move.get("text") or "",
                "at": move.get("at"),
                "judged": False,
                "picks": None,
                "gains": None,
                "red_cards": None,
                "selection": dict(after["selection"]),
            }
            open_turns[str(entry["turn"])] = story.append(entry)
        judged = after.get("history", [])[len(before.get("history", [])) :]
        for turn in judged:
            position = open_turns.pop(str(turn["turn_number"]), None)
            if position is not None:
                story[position].update(
                    judged=True,
                    picks=copy_plain(turn["picks"]),
                    gains=dict(turn["gains"]),
                    red_cards=dict(turn["red_cards"]),
                )


def _texts_for(card: str, custom: dict[str, Any]) -> dict[str, str]:
    if card in custom:
        value = custom[card]
        if isinstance(value, dict):
            return {k: str(v) for k, v in value.items()}
        return {"en": str(value)}
    return area_texts(card)
