"""The story so far, kept as the moves come: each entry once, as data, told by the game's
narrator (``games.rules.base.Narrator``) from the states the write path already holds.

The move log stays the truth. The kept entries (``StoryEntry`` rows) and the table's
``story_cursor`` are a cache like ``Table.state``: current when ``Table.story_seq`` is the
log's last row, told again from the log otherwise (an undo, a table kept before this cache,
anything in doubt). A test compares the kept story with a full replay's.

A move reads the few entries its narrator says are still open, and writes back those it
touched: the same work at move 1,000 as at move 10. A page reads the last entries
(``tail``) and links to the earlier ones (``earlier``). A game without a narrator keeps no
entries; its pages tell the whole story from the log, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import registry
from games.models import Move, StoryEntry, Table
from games.rules import Game, Setup
from games.rules.base import Story

# How many entries a page shows at first and loads each time a reader asks for earlier ones.
PAGE = 30


@dataclass
class Told:
    """One move as the narrator hears it: its row, and the states around it."""

    row: Move
    before: dict[str, Any]
    after: dict[str, Any]


def _kind(entry: dict[str, Any]) -> str:
    return str(entry.get("kind") or entry.get("type") or "")[:32]


def is_current(table: Table) -> bool:
    return table.story_cursor is not None and table.story_seq == table.last_seq


def _step(narrator, story: Story, told: Told, index: int, meta: dict[int, tuple]) -> None:
    """Tell one move, then give each entry it touched the seqs of the moves it shows (the
    move just told is the only new one) and, for a new entry, where it came from."""
    story.touched.clear()
    narrator.step(story, index, told.row.as_script_move(), told.before, told.after)
    for position in story.touched:
        entry = story.entries[position]
        seqs = entry.setdefault("seqs", [])
        seqs.extend([told.row.seq] * (len(entry.get("moves", [])) - len(seqs)))
        meta.setdefault(position, (told.row.seq, told.row.at))


def advance(table: Table, moves: list[Told], setup: Setup, live: Callable[[], list[Move]]) -> None:
    """Tell ``moves`` (just stored, in order) into the kept story of ``table`` (locked by the
    caller, in its transaction). Sets the table's cursor fields; the caller saves them with
    the rest of the row (``services._store``). ``live()`` reads the live moves, for a story
    that must be told again (not current before these moves)."""
    if not moves:
        return
    before_seq = moves[0].row.seq - 1
    if table.story_cursor is None or table.story_seq != before_seq:
        retell(table, setup, live(), moves[-1].row.seq, save=False)
        return
    referee = registry.kit(table.game).referee
    cursor = dict(table.story_cursor)
    narrator = referee.narrator(setup, cursor.get("narrator"))
    if narrator is not None:
        wanted = narrator.open_entries()
        rows = (
            {
                row.position: row
                for row in StoryEntry.objects.filter(table=table, position__in=wanted)
            }
            if wanted
            else {}
        )
        length = cursor.get("length", 0)
        story = Story({p: row.data for p, row in rows.items()}, length=length)
        meta: dict[int, tuple] = {}
        touched: set[int] = set()
        for i, told in enumerate(moves):
            _step(narrator, story, told, cursor["live"] + i, meta)
            touched |= story.touched
        new = [p for p in sorted(touched) if p >= length]
        StoryEntry.objects.bulk_create(
            StoryEntry(
                table=table,
                position=p,
                kind=_kind(story.entries[p]),
                seq=meta[p][0],
                at=meta[p][1],
                data=story.entries[p],
            )
            for p in new
        )
        # The narrator changed these in place (an open scene, a story now judged).
        for p in sorted(touched - set(new)):
            StoryEntry.objects.filter(pk=rows[p].pk).update(data=story.entries[p])
        cursor["narrator"] = narrator.cursor
        cursor["length"] = story.length
    cursor["live"] = cursor["live"] + len(moves)
    cursor["last"] = moves[-1].row.seq
    table.story_cursor = cursor
    table.story_seq = moves[-1].row.seq


def retell(
    table: Table, setup: Setup, live: list[Move], seq: int | None = None, *, save: bool = True
) -> None:
    """Drop the kept story of ``table`` and tell it again from its live moves ``live`` (the
    caller holds the table's lock, or is its only writer), as of the log's row ``seq``
    (default: the table's last). Sets the cursor fields, and saves them unless the caller
    saves the row itself."""
    referee = registry.kit(table.game).referee
    StoryEntry.objects.filter(table=table).delete()
    cursor: dict[str, Any] = {"live": len(live), "last": live[-1].seq if live else None}
    narrator = referee.narrator(setup)
    if narrator is not None:
        entries, meta = tell_all(referee, setup, narrator, live)
        StoryEntry.objects.bulk_create(
            StoryEntry(
                table=table,
                position=p,
                kind=_kind(entry),
                seq=meta[p][0],
                at=meta[p][1],
                data=entry,
            )
            for p, entry in enumerate(entries)
        )
        cursor["narrator"] = narrator.cursor
        cursor["length"] = len(entries)
    table.story_cursor = cursor
    table.story_seq = table.last_seq if seq is None else seq
    if save:
        Table.objects.filter(pk=table.pk).update(
            story_cursor=table.story_cursor, story_seq=table.story_seq
        )


def tell_all(
    referee: Game, setup: Setup, narrator, live: list[Move]
) -> tuple[list[dict[str, Any]], dict[int, tuple]]:
    """The whole story of ``live`` told move by move, as ``advance`` tells it."""
    story = Story()
    meta: dict[int, tuple] = {}
    state = referee.initial_state(setup)
    for index, row in enumerate(live):
        after = referee.apply(state, row.payload)
        _step(narrator, story, Told(row, state, after), index, meta)
        state = after
    return story.as_list(), meta


def keeps_entries(table: Table) -> bool:
    return registry.kit(table.game).referee.narrator_class is not None


@dataclass
class Slice:
    """Some consecutive entries of a story: ``start`` is the position of the first."""

    entries: list[dict[str, Any]]
    start: int

    @property
    def has_earlier(self) -> bool:
        return self.start > 0


def tail(table: Table, count: int = PAGE) -> Slice:
    """The last ``count`` entries of the kept story (one query)."""
    return earlier(table, None, count)


def earlier(table: Table, before: int | None, count: int = PAGE) -> Slice:
    """The ``count`` entries before position ``before`` (None: the last ones). Like every
    reader here, it reads the kept story as it is: make it current first
    (``services.current_story``)."""
    rows = StoryEntry.objects.filter(table=table)
    if before is not None:
        rows = rows.filter(position__lt=before)
    found = list(rows.order_by("-position").values_list("position", "data")[:count])
    found.reverse()
    start = found[0][0] if found else (before if before is not None else 0)
    return Slice([data for _p, data in found], start)


def last_of_kind(table: Table, kind: str) -> StoryEntry | None:
    """The latest kept entry of one kind (a page that needs one fact from far back)."""
    return StoryEntry.objects.filter(table=table, kind=kind).order_by("-position").first()


def all_of_kind(table: Table, kind: str) -> list[dict[str, Any]]:
    return list(
        StoryEntry.objects.filter(table=table, kind=kind)
        .order_by("position")
        .values_list("data", flat=True)
    )


def kept(table: Table) -> list[dict[str, Any]]:
    """Every kept entry, in order (the tests compare it with a full replay)."""
    return list(
        StoryEntry.objects.filter(table=table).order_by("position").values_list("data", flat=True)
    )
