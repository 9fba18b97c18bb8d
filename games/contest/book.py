"""The contest game as a book: the cast, then a chronicle in parts (a new part each time the
story changes hands), each contest in a card-by-card box, pretzels and drinks in the margin,
and the winner.

Everything comes from ``games.contest.rules.narrative`` (moves and the events they caused);
the referee's one-line summaries are used for what the book does not lay out itself.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.amnesia.book import card
from games.contest.characters import drinks_as
from games.contest.rules.core import player_and_character
from games.contest.rules.narrative import said_once, teller
from games.contest.story import describe
from stories.books import Chapter, MoveTexts, incipit

TEMPLATE = "contest/chapters.html"
MARGIN = {"pretzel", "penalty", "out"}


def _card(code: str) -> dict[str, Any]:
    try:
        return card(code) or {"code": code, "rank": code, "suit": "", "red": False}
    except (ValueError, IndexError):
        return {"code": code, "rank": code, "suit": "", "red": False}


def _contest_box(record: dict[str, Any]) -> dict[str, Any]:
    sides = []
    for name in (record.get("challenger"), record.get("defender")):
        if not name:
            continue
        played = list((record.get("cards") or {}).get(name, []))
        chain = set((record.get("draws") or {}).get(name, []))
        sides.append(
            {
                "name": name,
                "attribute": (record.get("attributes") or {}).get(name, ""),
                "cards": [dict(_card(c), chain=c in chain) for c in played],
                "total": (record.get("totals") or {}).get(name),
                "penalties": (record.get("penalties") or {}).get(name, []),
            }
        )
    return {
        "type": "contest",
        "kind": record.get("kind", ""),
        "sides": sides,
        "winner": record.get("winner"),
        "loser": record.get("loser"),
    }


def build(entries: list[dict[str, Any]], texts: MoveTexts) -> list[Chapter]:
    cast = [e for e in entries if e.get("type") == "character"]
    chapters: list[Chapter] = []
    if cast:
        chapters.append(
            Chapter(
                anchor="ch-1",
                title=_("The cast"),
                kind="cast",
                template=TEMPLATE,
                data={
                    "cast": [
                        {
                            "player": e.get("player"),
                            "character": e.get("character"),
                            "attributes": e.get("attributes") or {},
                        }
                        for e in cast
                    ]
                },
            )
        )
    part: Chapter | None = None
    seen_text: set[int] = set()
    names = {
        e.get("player", ""): player_and_character(e.get("player", ""), e.get("character"))
        for e in cast
    }
    mode = drinks_as(texts.table) if texts.table is not None else "drinks"
    # A part with nothing written down is listed in the contents by how it began.
    began: dict[str, str] = {}

    def new_part(controller: str, summary: str, lead: int | None) -> Chapter:
        number = len([c for c in chapters if c.kind == "part"]) + 1
        chapter = Chapter(
            anchor=f"ch-{len(chapters) + 1}",
            title=_("Part %(number)s") % {"number": number},
            kind="part",
            template=TEMPLATE,
            narrators=[controller] if controller else [],
            lead_seq=texts.seq(lead) if lead is not None and lead < len(texts.moves) else None,
            data={"how": summary, "items": []},
        )
        chapters.append(chapter)
        return chapter

    for entry in said_once(entries):
        kind, index = entry.get("type"), entry.get("index", 0)
        if kind == "control":
            part = new_part(entry.get("controller", ""), entry.get("summary", ""), index)
            began[part.anchor] = describe(entry, names, mode)
            continue
        if kind == "end":
            chapters.append(
                Chapter(
                    anchor=f"ch-{len(chapters) + 1}",
                    title=_("The winner"),
                    kind="winner",
                    template=TEMPLATE,
                    data={"winner": entry.get("winner"), "summary": entry.get("summary", "")},
                )
            )
            continue
        if part is None:
            continue  # the cast is being made: nothing told yet
        if kind == "move" and index not in seen_text and index < len(texts.moves):
            # Whose it is and where it goes follow one rule (``teller``): the narration of a
            # take-over was typed before it, in this part, by this part's narrator.
            by = teller(entry)
            passage = texts.passage(index, by)
            if passage.text:
                seen_text.add(index)
                part.data["items"].append({"type": "text", "passage": passage})
                part.passages.append(passage)
                if by and by not in part.narrators:
                    part.narrators.append(by)
                if not part.incipit:
                    part.incipit = incipit(passage.text)
        elif kind == "contest" and entry.get("contest"):
            part.data["items"].append(_contest_box(entry["contest"]))
        elif kind in MARGIN:
            part.data["items"].append(
                {"type": "margin", "kind": kind, "summary": entry.get("summary", "")}
            )
    for chapter in chapters:
        if chapter.kind == "part" and not chapter.incipit:
            chapter.incipit = began.get(chapter.anchor, "")
    return chapters
