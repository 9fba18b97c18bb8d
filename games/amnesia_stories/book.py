"""Amnesia Stories as a book: each bard's journey is a chapter, with the illustrations the bard
matched to its steps, the adventure texts in order, the bard's narration and, once the turn
was judged, the step-by-step result.

Everything comes from ``games.amnesia_stories.rules.narrative``; the narration's move is the
n-th ``tell`` of the live moves (the narrative lists the stories in the order they were told).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.amnesia_stories.decks import table_cards
from stories.books import Chapter, MoveTexts, incipit

TEMPLATE = "amnesia_stories/chapters.html"
TEXT_LANGUAGE = {"pt-br": "pt", "pt": "pt", "ja": "ja"}


def _text_in(texts: dict[str, str], language: str) -> str:
    return texts.get(TEXT_LANGUAGE.get(language, "en")) or texts.get("en") or ""


def _steps(
    entry: dict[str, Any], language: str, pictures: dict[str, int] | None
) -> list[dict[str, Any]]:
    told = (entry.get("picks") or {}).get(entry["bard"]) if entry.get("judged") else None
    selection = entry.get("selection") or {}
    audience = [p for p in (entry.get("picks") or {}) if p != entry["bard"]]
    steps = []
    for k, journey in enumerate(entry["cards"]):
        slot = told[k] if told and k < len(told) else None
        illustration = selection.get(str(slot)) if slot is not None else None
        steps.append(
            {
                "number": k + 1,
                "journey": journey["id"],
                "text": _text_in(journey.get("texts") or {}, language),
                # The illustration the bard matched this step to, once the turn is judged.
                "illustration": illustration,
                # With a custom deck: the number of its card's picture (the story's picture
                # views serve it), None for a card whose deck is gone.
                "upload": pictures.get(illustration) if pictures and illustration else None,
                "slot": slot,
                "matched": [p for p in audience if entry["picks"][p][k] == slot]
                if slot is not None
                else [],
            }
        )
    return steps


def deck_pictures(table) -> dict[str, int] | None:
    """``{card id: picture number}`` of the custom deck the table played with; None when it
    played with the built-in cards."""
    if table is None or table.extra.get("area_ids") is None:
        return None
    return dict(table_cards(table).values_list("card_id", "pk"))


def build(entries: list[dict[str, Any]], texts: MoveTexts) -> list[Chapter]:
    language = (get_language() or "en").lower()
    pictures = deck_pictures(texts.table)
    tells = [i for i, m in enumerate(texts.moves) if m.payload.get("do") == "tell"]
    chapters: list[Chapter] = []
    for n, entry in enumerate(entries):
        passage = texts.passage(tells[n], entry["bard"]) if n < len(tells) else None
        steps = _steps(entry, language, pictures)
        chapters.append(
            Chapter(
                anchor=f"ch-{n + 1}",
                title=_("Journey %(number)s") % {"number": n + 1},
                kind="journey",
                template=TEMPLATE,
                narrators=[entry["bard"]],
                incipit=incipit(passage.text) if passage else "",
                lead_seq=passage.seq if passage else None,
                data={
                    "bard": entry["bard"],
                    "round": entry.get("round"),
                    "steps": steps,
                    "passage": passage,
                    "judged": entry.get("judged", False),
                    "players": list(entry.get("picks") or {}),
                    "gains": entry.get("gains") or {},
                    "red_cards": {k: v for k, v in (entry.get("red_cards") or {}).items() if v},
                    # The built-in cards' art (the book and its cover print it) or, with a
                    # custom deck, the numbers of its pictures (never the built-in art).
                    "custom_deck": pictures is not None,
                    "images": [s["illustration"] for s in steps if s["illustration"]]
                    if pictures is None
                    else [],
                    "uploads": [s["upload"] for s in steps if s["upload"]],
                },
                passages=[passage] if passage and passage.text else [],
            )
        )
    return chapters
