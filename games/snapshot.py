"""One object to read a table through, for the length of one request.

The table page, the game's page context, the characters and the book all need the same few
things (the set-up, the live moves, the state, the legal moves, the readable story). A
``Snapshot`` loads each of them the first time somebody asks and keeps it, so a request reads
the log once however many consumers it has; nothing is loaded that nobody asks for.

It only reads (``games.services.reading``): every write goes through ``games.services``. After a write, make a new one
(from the table the write path refreshed: its state and story cursor are current, so the
answer to a move reads neither the log nor a replay).

A page reads the story so far from what the write path keeps (``story_tail``, the last
entries; ``games.story``) and whether a move may be undone from the kept cursor, so it does
no work that grows with the log. ``moves`` and ``narrative()`` are the whole log and its full
replay, for the readers that need all of it (a book, an export).
"""

from __future__ import annotations

import copy
from functools import cached_property
from typing import Any

from games import registry
from games import story as kept_story
from games.models import Move, Table
from games.prepared import Prepared
from games.registry import GameKit
from games.rules import Game, Setup
from games.services import kept, reading

# How many of the log's last rows a page shows.
RECENT = 12
# A table page's every fetch reads the log's last rows (``Snapshot.recent_rows``): compiled
# once (games.prepared).
_RECENT_ROWS = Prepared(
    lambda pk, after: Move.objects.filter(table_id=pk, seq__gt=after).order_by("-seq")[:RECENT],
    9_100_000_000_000_000_001,
    2_147_000_001,
)


class Snapshot:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def kit(self) -> GameKit:
        return registry.kit(self.table.game)

    @property
    def referee(self) -> Game:
        return self.kit.referee

    @cached_property
    def setup(self) -> Setup:
        return reading.setup_of(self.table)

    @cached_property
    def moves(self) -> list[Move]:
        """The moves in force (undone ones taken out), oldest first."""
        return reading.live_moves(self.table)

    @cached_property
    def script_moves(self) -> list[dict[str, Any]]:
        return [m.as_script_move() for m in self.moves]

    @cached_property
    def state(self) -> dict[str, Any]:
        """The current state: the cache when it is current, else a replay of ``moves``."""
        table = self.table
        if kept.STATE.current(table):
            return kept.STATE.kept(table) or {}
        return reading.rebuild_state(table, self.moves, self.setup)

    @cached_property
    def view(self) -> dict[str, Any]:
        """The state as the game master's screen may show it (no hidden information)."""
        return self.referee.view(self.state, None)

    @cached_property
    def legal_moves(self) -> dict[str, list[dict]]:
        """Each seat's legal moves now, as the referee lists them (asked once per request)."""
        return {name: self.referee.legal_moves(self.state, name) for name in self.state["seats"]}

    @cached_property
    def legal(self) -> dict[str, dict[str, dict]]:
        """Each seat's legal moves now, by verb (the templates the buttons are made from)."""
        return {
            name: {tpl["do"]: tpl for tpl in templates}
            for name, templates in self.legal_moves.items()
        }

    @cached_property
    def _narrative(self) -> list[dict[str, Any]]:
        moves = self.moves
        entries = self.referee.narrative(self.setup, self.script_moves)
        for entry in entries:
            entry["seqs"] = [moves[i].seq for i in entry.get("moves", []) if i < len(moves)]
        return entries

    def narrative(self) -> list[dict[str, Any]]:
        """The game's readable story; each caller gets its own copy to arrange."""
        return copy.deepcopy(self._narrative)

    # -- the kept story so far (no work proportional to the log) ----------------------------
    @cached_property
    def _cursor(self) -> dict[str, Any]:
        """The kept story's cursor when it is current; else (a table kept before that cache,
        one whose cache was dropped) the story told now in memory and shown, not stored: a
        GET never writes, and the write path keeps it again at the next move."""
        if kept.STORY.current(self.table):
            return self.table.story_cursor or {}
        return kept_story.told(self.table, self.setup, self.moves)

    @property
    def _told_now(self) -> bool:
        """Whether the story so far was told in memory for this request (not current)."""
        return not kept.STORY.current(self.table)

    @cached_property
    def story_tail(self) -> kept_story.Slice:
        """The story so far's last entries (``games.story.PAGE``), and where they start."""
        if not kept_story.keeps_entries(self.table):  # a game without a narrator
            entries = self._narrative
            start = max(0, len(entries) - kept_story.PAGE)
            return kept_story.Slice(copy.deepcopy(entries[start:]), start)
        if self._told_now:
            return kept_story.told_slice(self._cursor, None)
        return kept_story.tail(self.table)

    def story_before(self, position: int) -> kept_story.Slice:
        """The entries before ``position`` (a page of them: "show earlier scenes")."""
        if not kept_story.keeps_entries(self.table):
            entries = self._narrative
            position = max(0, min(position, len(entries)))
            start = max(0, position - kept_story.PAGE)
            return kept_story.Slice(copy.deepcopy(entries[start:position]), start)
        if self._told_now:
            return kept_story.told_slice(self._cursor, position)
        return kept_story.earlier(self.table, position)

    @property
    def story_facts(self) -> dict[str, Any]:
        """What the game's narrator remembers between moves (its cursor): the facts a page
        shows from anywhere in the story, without reading it (empty without a narrator)."""
        return self._cursor.get("narrator") or {}

    @property
    def can_undo(self) -> bool:
        """Whether a move is in force (so one may be taken back)."""
        return bool(self._cursor.get("live"))

    @cached_property
    def recent_rows(self) -> list[Move]:
        """The log's last rows, newest first (the move log a page shows). Read from the model's
        own manager: the table's related one costs about as much again as the query itself,
        to tie each row to a table the page never asks a row for.

        Asked as a range of ``seq`` (the ``(table, seq)`` index), not as the table's rows
        sorted: the write path numbers the rows 1, 2, 3... with no gap (an undo is a row too),
        so the last ones are those after ``last_seq - RECENT``, read the same at any length of
        the log. By ``table`` alone PostgreSQL may read and sort every row of the table (it
        did, at 1,000 moves, until its statistics were gathered). A row written since the
        table was loaded comes first all the same; a log with a gap (none is written) is read
        the long way rather than shown short."""
        pk, last = self.table.pk, self.table.last_seq
        recent = _RECENT_ROWS.all(pk, last - RECENT)
        if len(recent) < min(RECENT, last):
            recent = list(Move.objects.filter(table_id=pk).order_by("-seq")[:RECENT])
        return recent

    @cached_property
    def last_move(self) -> Move | None:
        """The last move in force: among the recent rows, or one query."""
        seq = self._cursor.get("last")
        if seq is None:
            return None
        found = next((m for m in self.recent_rows if m.seq == seq), None)
        return found or self.table.moves.filter(seq=seq).first()
