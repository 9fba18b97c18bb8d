"""Amnesia as a book: the scenes as prose, the memories set apart, each challenge as a short
dispute, the memory of the room as its own chapter, then the ending.

Everything comes from ``games.amnesia.rules.narrative``; this module only arranges it. The
passes, which tell nothing, are kept as a quiet line after the chapter they follow.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.rules import cards
from stories.books import Chapter, MoveTexts, Passage, incipit

TEMPLATE = "amnesia/chapters.html"
RED_SUITS = {"H", "D"}


def card(code: str | None) -> dict[str, Any] | None:
    if not code:
        return None
    if code in cards.JOKERS:
        return {"code": code, "rank": "★", "suit": "", "red": False}
    rank, suit = cards.split(code)
    return {
        "code": code,
        "rank": rank,
        "suit": cards.SUIT_SYMBOLS.get(suit, suit),
        "red": suit in RED_SUITS,
    }


def _passage(texts: MoveTexts, index: int, by: str) -> Passage:
    return texts.passage(index, by)


def _dispute(challenge: dict[str, Any], suggestion: dict | None, texts: MoveTexts) -> dict:
    return {
        "type": "dispute",
        "at": challenge["moves"][0],
        "narrator": challenge["narrator"],
        "insister": challenge["insister"],
        "suggestion": _passage(texts, suggestion["move"], suggestion["by"]) if suggestion else None,
        "stakes": [_passage(texts, s["move"], s["by"]) for s in challenge["stakes"]],
        "joined": [
            {"by": j["by"], "passage": _passage(texts, j["move"], j["by"])}
            for j in challenge["joined"]
        ],
        "cards": [
            {
                "by": c["by"],
                "guess": c["guess"],
                "card": card(c.get("card")),
                "against": card(c.get("against")),
                "result": c["result"],
            }
            for c in challenge["cards"]
        ],
        "quits": challenge["quits"],
        "winner": challenge["winner"],
        "pot": challenge["pot"],
        "insister_won": challenge["winner"] == challenge["insister"],
    }


def _told_at(entry: dict[str, Any], texts: MoveTexts) -> dict[int, int]:
    """Where each narration of the scene belongs in the reading order, by its move.

    At the table the narrator usually pays for the scene with nothing typed, tells it aloud
    while the others suggest, and types it into the box that ends the scene. That text is the
    scene itself: the suggestions answered it, so it opens the chapter, before them. Text
    typed with the opening move, or on accepting a paid suggestion, stays where it was played.
    """
    opening = entry["moves"][0]
    parts = [part["move"] for part in entry["narration"]]
    if opening in parts:
        return {move: move for move in parts}
    return {
        move: opening if texts.moves[move].payload.get("do") == "end_scene" else move
        for move in parts
    }


def _scene_items(entry: dict[str, Any], texts: MoveTexts) -> list[dict[str, Any]]:
    """The scene's narration, suggestions and disputes in reading order: as they were played,
    except that a scene typed when it ended comes before what was said during it."""
    told_at = _told_at(entry, texts)
    items: list[dict[str, Any]] = [
        {
            "type": "text",
            "at": told_at[part["move"]],
            "passage": _passage(texts, part["move"], part["by"]),
        }
        for part in entry["narration"]
    ]
    refused = [s for s in entry["suggestions"] if s["outcome"] == "refused"]
    for suggestion in entry["suggestions"]:
        if suggestion["outcome"] == "refused":
            continue  # printed inside its dispute
        items.append(
            {
                "type": "suggestion",
                "at": suggestion["move"],
                "paid": suggestion["paid"],
                "outcome": suggestion["outcome"],
                "passage": _passage(texts, suggestion["move"], suggestion["by"]),
            }
        )
    for i, challenge in enumerate(entry["challenges"]):
        items.append(_dispute(challenge, refused[i] if i < len(refused) else None, texts))
    # Stable: at the same place, the scene's own text (listed first) stays first.
    items.sort(key=lambda item: item["at"])
    return items


def _passages_of(items: list[dict[str, Any]]) -> list[Passage]:
    out: list[Passage] = []
    for item in items:
        if item["type"] in ("text", "suggestion"):
            out.append(item["passage"])
        elif item["type"] == "dispute":
            if item["suggestion"]:
                out.append(item["suggestion"])
            out.extend(item["stakes"])
            out.extend(j["passage"] for j in item["joined"])
    return [p for p in out if p.text]


def build(entries: list[dict[str, Any]], texts: MoveTexts) -> list[Chapter]:
    chapters: list[Chapter] = []
    scenes = memories = 0
    for entry in entries:
        kind = entry["kind"]
        if kind == "pass":
            if chapters:
                note = {"by": entry["by"], "take": entry["take"]}
                note["passage"] = _passage(texts, entry["moves"][0], entry["by"])
                chapters[-1].data.setdefault("after", []).append(note)
                if note["passage"].text:
                    chapters[-1].passages.append(note["passage"])
            continue
        anchor = f"ch-{len(chapters) + 1}"
        if kind == "end":
            epilogue = _passage(texts, entry["moves"][0], "")
            epilogue.by = ""  # agreed by all: nobody's narration in particular
            chapters.append(
                Chapter(
                    anchor=anchor,
                    title=_("The ending"),
                    kind="ending",
                    template=TEMPLATE,
                    incipit=incipit(epilogue.text),
                    lead_seq=epilogue.seq,
                    data={"agreed": entry["agreed"], "epilogue": epilogue},
                    passages=[epilogue] if epilogue.text else [],
                )
            )
            continue
        if kind == "scene":
            scenes += 1
            title = _("Chapter %(number)s") % {"number": scenes}
        elif kind == "flashback":
            memories += 1
            title = _("Memory %(number)s") % {"number": memories}
        else:
            title = _("The memory of the room")
        items = _scene_items(entry, texts)
        passages = _passages_of(items)
        first_text = next((i["passage"].text for i in items if i["type"] == "text"), "")
        chapters.append(
            Chapter(
                anchor=anchor,
                title=title,
                kind={"scene": "scene", "flashback": "memory"}.get(kind, "room"),
                template=TEMPLATE,
                narrators=[entry["narrator"]],
                incipit=incipit(first_text),
                lead_seq=texts.seq(entry["moves"][0]),
                data={
                    "narrator": entry["narrator"],
                    "abilities": entry["abilities"],
                    "items": items,
                    "has_text": any(i["type"] == "text" for i in items),
                },
                passages=passages,
            )
        )
    return chapters
