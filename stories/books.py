"""A story as a book: chapters built from the move log by each game's book builder.

The referee's ``narrative(setup, moves)`` says what happened; the game's kit
(``games.registry``) names a *book builder* that turns those entries into chapters, each
naming the template that prints it. The authors' edits are laid over the moves' text before
the narrative is built, so the referee reads exactly the log it would replay, with only the
prose changed.

A game with no chapters of its own can pass :func:`chronicle` as its builder: every narrated
move in order, in one chapter.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.aliases import Aliases, aliases_of
from games.languages import normalise, table_language
from games.models import Move, Table
from games.snapshot import Snapshot

# Bumped when the book's structure changes in a way the content hash cannot see.
BOOK_FORMAT = 1


def story_language(story: Any) -> str:
    """The language a story is told in: its own (the authors may change it), else its table's.

    Its page, its PDF and its EPUB all ask here, so they never disagree."""
    return normalise(getattr(story, "language", "")) or table_language(story.table)


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
    # Of ``words``, the characters of a script written without spaces (Japanese): the credit
    # counts in the narration's own language, characters when most of it is Japanese.
    wide: int = 0

    @property
    def in_characters(self) -> bool:
        return self.wide * 2 > self.words


class MoveTexts:
    """The live moves of a table with the authors' edits laid over their text, the players
    who asked to be left out shown as their labels (``games.aliases``), and the table, for a
    builder that shows something of the table's own (a custom deck's pictures)."""

    def __init__(
        self,
        moves: list[Move],
        edits: dict[int, str],
        aliases: Aliases | None = None,
        table: Table | None = None,
    ) -> None:
        self.moves = moves
        self.edits = edits
        self.table = table
        self.by_seq = {m.seq: m for m in moves}
        self.aliases = aliases or Aliases()

    def seq(self, index: int) -> int:
        return self.moves[index].seq

    def _text(self, seq: int) -> str:
        if seq in self.edits:
            return self.edits[seq]
        return self.by_seq[seq].text

    def text(self, seq: int) -> str:
        return self.aliases.text(self._text(seq))

    def passage(self, index: int, by: str | None = None) -> Passage:
        move = self.moves[index]
        return Passage(
            seq=move.seq,
            by=by or self.aliases.name(move.payload.get("by", "")),
            text=self.text(move.seq),
            edited=move.seq in self.edits,
        )

    def script_moves(self) -> list[dict[str, Any]]:
        out = []
        for move in self.moves:
            script = move.as_script_move()
            script.pop("text", None)
            text = self._text(move.seq)
            if text:
                script["text"] = text
            out.append(self.aliases.move(script))
        return out


def build_chapters(table: Table, edits: dict[int, str]) -> tuple[list[Chapter], MoveTexts]:
    """The book's chapters: the game's own builder over the referee's narrative of the live
    moves (the authors' edits laid over their text; the set-up and the moves renamed, so the
    referee tells the story with the labels of the players who asked to be left out)."""
    snap = Snapshot(table)
    aliases = aliases_of(table)
    texts = MoveTexts(snap.moves, edits, aliases, table)
    entries = snap.referee.narrative(aliases.setup(snap.setup), texts.script_moves())
    return snap.kit.book(entries, texts), texts


def chronicle(entries: list[dict[str, Any]], texts: MoveTexts) -> list[Chapter]:
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
    """The first words of a text (the first characters, for text written without spaces).

    A text may mix both: Japanese with a space or two in it (a full-width one between its
    sentences, a name in Latin letters) counts its Japanese by characters, as ``counted``
    does, and its spaced words by words, so that a few spaces never put a whole paragraph in
    the table of contents."""
    line = " ".join(text.split())
    if not line:
        return ""
    parts = line.split(" ")
    if len(parts) == 1 or len(parts[0]) > chars * 2:
        return line if len(line) <= chars else line[:chars].rstrip() + "…"
    head: list[str] = []
    spaced = wide = 0
    for part in parts:
        if any(ord(ch) >= 0x3000 for ch in part):
            room = chars - wide
            if len(part) > room:
                head.append(part[: max(room, 0)])
                return " ".join(head).rstrip() + "…"
            wide += len(part)
        else:
            spaced += 1
            if spaced > words:
                return " ".join(head).rstrip(",;:.") + "…"
        head.append(part)
    return line


def word_count(text: str) -> int:
    """Words for spaced scripts; for Japanese, characters count as the words do."""
    return sum(counted(text))


def counted(text: str) -> tuple[int, int]:
    """(spaced words, characters of the scripts written without spaces) in ``text``."""
    words = characters = 0
    for token in text.split():
        wide = sum(1 for ch in token if ord(ch) >= 0x3000)
        if wide:
            characters += wide
        else:
            words += 1
    return words, characters


def credits(chapters: list[Chapter], players: list[str]) -> list[Credit]:
    """Who told what: each player's chapters and the words of narration they wrote."""
    names: dict[str, Credit] = {name: Credit(name, [], 0) for name in players}
    for chapter in chapters:
        for name in chapter.narrators:
            names.setdefault(name, Credit(name, [], 0)).chapters.append(chapter.title)
    for passage in (p for chapter in chapters for p in chapter.passages):
        if passage.by:
            credit = names.setdefault(passage.by, Credit(passage.by, [], 0))
            words, characters = counted(passage.text)
            credit.words += words + characters
            credit.wide += characters
    return list(names.values())


def content_hash(payload: Any) -> str:
    raw = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()
