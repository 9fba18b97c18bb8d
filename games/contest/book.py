"""The contest game as a book: the cast, then a chronicle in parts (a new part each time the
story changes hands), each contest in a card-by-card box, pretzels and drinks in the margin,
and the winner.

Everything comes from ``games.contest.rules.narrative`` (moves and the events they caused).
The referee's one-line summaries are English: the book tells each event with the table page's
own sentence (``games.contest.story.describe``) and names cards and attributes as the table
does, so a book reads in its story's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.contest.cards import card, card_label
from games.contest.characters import ATTRIBUTE_LABELS, drinks_as
from games.contest.page import shown_name
from games.contest.rules.narrative import said_once, teller
from games.contest.story import count_drinks, describe
from stories.books import Chapter, MoveTexts, incipit

TEMPLATE = "contest/chapters.html"
# Told in the margin: what befell a player outside a contest's box (an unnamed challenge says why
# its narrator pays). A refused (or void) challenge has no box: the challenge is told with it,
# so the penalties that follow read why.
MARGIN = {"pretzel", "eat", "penalty", "out", "refusal", "void", "unnamed"}


def _card(code: str) -> dict[str, Any]:
    """A card as the table page draws it (10♥, a joker's star), never its code."""
    try:
        shown = card(code)
    except (ValueError, IndexError, KeyError):
        return {"code": code, "rank": "?", "suit": "", "red": False}
    return dict(shown, red=shown["colour"] == "red")


def _attribute(key: str | None) -> str:
    return str(ATTRIBUTE_LABELS.get(key or "", key or ""))


def _penalty(paid: str, mode: str) -> str:
    """A penalty as the table page says it: a drink in this table's words, or the lost card."""
    if paid == "drink":
        return count_drinks(mode, 1)
    return _("lost %(card)s") % {"card": card_label(paid)}


def _contest_box(record: dict[str, Any], names: dict[str, str], mode: str) -> dict[str, Any]:
    sides = []
    for name in (record.get("challenger"), record.get("defender")):
        if not name:
            continue
        played = list((record.get("cards") or {}).get(name, []))
        chain = set((record.get("draws") or {}).get(name, []))
        sides.append(
            {
                "name": name,
                "who": names.get(name, name),
                "attribute": (record.get("attributes") or {}).get(name, ""),
                "attribute_label": _attribute((record.get("attributes") or {}).get(name)),
                "cards": [dict(_card(c), chain=c in chain) for c in played],
                "total": (record.get("totals") or {}).get(name),
                "penalties": [
                    _penalty(p, mode) for p in (record.get("penalties") or {}).get(name, [])
                ],
            }
        )
    winner, loser = record.get("winner"), record.get("loser")
    return {
        "type": "contest",
        "kind": record.get("kind", ""),
        "sides": sides,
        "winner": winner,
        "loser": loser,
        "winner_who": names.get(winner, winner) if winner else winner,
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
                            "attributes": {
                                _attribute(key): value
                                for key, value in (e.get("attributes") or {}).items()
                            },
                        }
                        for e in cast
                    ]
                },
            )
        )
    part: Chapter | None = None
    seen_text: set[int] = set()
    names = {e.get("player", ""): shown_name(e.get("player", ""), e.get("character")) for e in cast}
    mode = drinks_as(texts.table) if texts.table is not None else "drinks"
    # A part with nothing written down is listed in the contents by how it began.
    began: dict[str, str] = {}
    challenged: dict[str, Any] | None = None  # a challenge not answered yet

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

    # The margin notes of a contest under way wait for its box: a penalty the box already lists
    # is not told a second time, before the contest it was paid for.
    held: list[tuple[dict[str, Any], dict[str, Any]]] | None = None

    def release(paid: frozenset[str] = frozenset()) -> None:
        nonlocal held
        if held and part is not None:
            part.data["items"].extend(
                item
                for held_entry, item in held
                if not (held_entry.get("type") == "penalty" and held_entry.get("player") in paid)
            )
        held = None

    for entry in said_once(entries):
        kind, index = entry.get("type"), entry.get("index", 0)
        if kind in ("control", "end"):
            release()
        if kind == "control":
            how = describe(entry, names, mode)
            part = new_part(entry.get("controller", ""), how, index)
            began[part.anchor] = how
            continue
        if kind == "end":
            chapters.append(
                Chapter(
                    anchor=f"ch-{len(chapters) + 1}",
                    title=_("The winner"),
                    kind="winner",
                    template=TEMPLATE,
                    data={
                        "winner": entry.get("winner"),
                        "summary": describe(entry, names, mode),
                    },
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
            record = entry["contest"]
            part.data["items"].append(_contest_box(record, names, mode))
            challenged = None
            release(
                frozenset(name for name, paid in (record.get("penalties") or {}).items() if paid)
            )
        elif kind == "challenge":
            challenged = entry  # told by its contest's box, or with its refusal
            held = []
        elif kind in MARGIN:
            note = {"type": "margin", "kind": kind, "summary": describe(entry, names, mode)}
            if kind in ("refusal", "void", "unnamed"):
                release()  # no contest: what waited is told, then why the penalties come
                if kind != "unnamed" and challenged is not None:
                    part.data["items"].append(
                        {
                            "type": "margin",
                            "kind": "challenge",
                            "summary": describe(challenged, names, mode),
                        }
                    )
                challenged = None
            if held is not None:
                held.append((entry, note))
            else:
                part.data["items"].append(note)
    release()
    for chapter in chapters:
        if chapter.kind == "part" and not chapter.incipit:
            chapter.incipit = began.get(chapter.anchor, "")
    return chapters
