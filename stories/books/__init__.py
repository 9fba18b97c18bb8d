"""A story as a book: chapters built from the move log, one builder per game.

The referee's ``narrative(setup, moves)`` (in ``games.rules.<game>``) says what happened; a
*book builder* registered here for that game turns its entries into chapters, and names the
template that prints them. The authors' edits are laid over the moves' text before the
narrative is built, so the referee reads exactly the log it would replay, with only the prose
changed.

A game gets its own chapters by registering a builder::

    @register("contest")
    def contest_book(entries, moves) -> list[Chapter]: ...

(see ``stories.books.amnesia``). A game without a builder still has a book: the generic
chronicle below prints every narrated move in order, so a new game is archived (and can be
printed) from its first day, and reads better once its builder lands.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.models import Move, Table

# Bumped when the book's structure changes in a way the content hash cannot see.
BOOK_FORMAT = 1


@dataclass
class Passage:
    """One piece of narration: the text of one move, as the authors last left it."""

    seq: int
    by: str
    text: str
    edited: bool = False


@dataclass
class Chapter:
    anchor: str  # the HTML id (the table of contents and the bookmarks point at it)
    title: str
    kind: str  # a CSS class and the name of the template part that prints it
    template: str
    narrators: list[str] = field(default_factory=list)
    incipit: str = ""  # the first words, shown in the table of contents
    # The move whose text an author may fill in when the chapter has no narration yet.
    lead_seq: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    # Every passage the chapter prints, in order (for search, credits and the tests).
    passages: list[Passage] = field(default_factory=list)


@dataclass
class Credit:
    name: str
    chapters: list[str]
    words: int


Builder = Callable[[list[dict[str, Any]], "MoveTexts"], list[Chapter]]
BUILDERS: dict[str, Builder] = {}


def register(game: str) -> Callable[[Builder], Builder]:
    def decorate(builder: Builder) -> Builder:
        BUILDERS[game] = builder
        return builder

    return decorate


class MoveTexts:
    """The live moves of a table with the authors' edits laid over their text."""

    def __init__(self, moves: list[Move], edits: dict[int, str]) -> None:
        self.moves = moves
        self.edits = edits
        self.by_seq = {m.seq: m for m in moves}

    def seq(self, index: int) -> int:
        return self.moves[index].seq

    def text(self, seq: int) -> str:
        if seq in self.edits:
            return self.edits[seq]
        return self.by_seq[seq].text

    def passage(self, index: int, by: str | None = None) -> Passage:
        move = self.moves[index]
        return Passage(
            seq=move.seq,
            by=by or move.payload.get("by", ""),
            text=self.text(move.seq),
            edited=move.seq in self.edits,
        )

    def script_moves(self) -> list[dict[str, Any]]:
        out = []
        for move in self.moves:
            script = move.as_script_move()
            script.pop("text", None)
            text = self.text(move.seq)
            if text:
                script["text"] = text
            out.append(script)
        return out


def narrative_entries(table: Table, texts: MoveTexts) -> list[dict[str, Any]] | None:
    """The referee's narrative of the live moves (None when the game has none)."""
    try:
        module = importlib.import_module(f"games.rules.{table.game}")
    except ImportError:
        return None
    build = getattr(module, "narrative", None)
    if build is None:
        return None
    return build(services.setup_of(table), texts.script_moves())


def load_builders() -> None:
    """Import the builder of every game whose module exists."""
    for name in ("amnesia", "amnesia_stories", "contest"):
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ImportError:
            continue


def build_chapters(table: Table, edits: dict[int, str]) -> tuple[list[Chapter], MoveTexts]:
    load_builders()
    texts = MoveTexts(services.live_moves(table), edits)
    builder = BUILDERS.get(table.game)
    entries = narrative_entries(table, texts) if builder is not None else None
    if builder is None or entries is None:
        return chronicle(texts), texts
    return builder(entries, texts), texts


def chronicle(texts: MoveTexts) -> list[Chapter]:
    """The book of a game with no builder: every narrated move, in order, in one chapter."""
    passages = [texts.passage(i) for i in range(len(texts.moves))]
    passages = [p for p in passages if p.text]
    return [
        Chapter(
            anchor="ch-1",
            title=_("The chronicle"),
            kind="chronicle",
            template="stories/chapters/chronicle.html",
            narrators=sorted({p.by for p in passages}),
            incipit=incipit(passages[0].text) if passages else "",
            lead_seq=texts.moves[0].seq if texts.moves else None,
            passages=passages,
        )
    ]


def incipit(text: str, words: int = 7, chars: int = 16) -> str:
    """The first words of a text (the first characters, for text written without spaces)."""
    line = " ".join(text.split())
    if not line:
        return ""
    parts = line.split(" ")
    if len(parts) == 1 or len(parts[0]) > chars * 2:
        return line if len(line) <= chars else line[:chars].rstrip() + "…"
    head = " ".join(parts[:words])
    return head if len(parts) <= words else head.rstrip(",;:.") + "…"


def word_count(text: str) -> int:
    """Words for spaced scripts; for Japanese, characters count as the words do."""
    count = 0
    for token in text.split():
        wide = sum(1 for ch in token if ord(ch) >= 0x3000)
        count += wide if wide else 1
    return count


def credits(chapters: list[Chapter], players: list[str]) -> list[Credit]:
    """Who told what: each player's chapters and the words of narration they wrote."""
    names: dict[str, Credit] = {name: Credit(name, [], 0) for name in players}
    for chapter in chapters:
        for name in chapter.narrators:
            names.setdefault(name, Credit(name, [], 0)).chapters.append(chapter.title)
    for passage in (p for chapter in chapters for p in chapter.passages):
        if passage.by:
            names.setdefault(passage.by, Credit(passage.by, [], 0)).words += word_count(
                passage.text
            )
    return list(names.values())


def content_hash(payload: Any) -> str:
    raw = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()
