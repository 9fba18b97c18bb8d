"""The story so far, kept as the moves come: each entry once, as data, told by the game's
narrator (``games.rules.base.Narrator``) from the states the write path already holds.

The move log stays the truth. The kept story is a cache like ``Table.state``: current when
``Table.story_seq`` is the log's last row, told again from the log otherwise (an undo, a
table kept before this cache, anything in doubt). A test compares it with a full replay's.

Where the entries live. ``Table.story_cursor`` (read and written with the table's row by
every move anyway) holds the narrator's cursor and the entries not written out yet: the
last ``PAGE`` ones (what the table page shows) and the ones a later move may still change
(an open scene, a story not judged yet). Every other entry is a ``StoryEntry`` row, written
once, never changed: when more than ``2 * PAGE`` entries wait in the cursor, those that are
closed and older than the last ``PAGE`` go out in one insert. So a move reads no entry and
writes the table's row (and now and then one insert), and a page reads its last scenes from
the row it loaded anyway: the same work at move 1,000 as at move 10. Earlier scenes come on
demand (``earlier``). A game without a narrator keeps no entries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games import registry
from games.models import Move, StoryEntry, Table
from games.rules import Game, Setup
from games.rules.base import Story

# How many entries a page shows at first and loads each time a reader asks for earlier ones.
PAGE = 30
# Past this many rows to drop, telling the story again drops all the table's rows at once.
STALE_BY_KEY = 500


@dataclass
class Told:
    """One move as the narrator hears it: its row, and the states around it."""

    row: Move
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass
class Kept:
    """One entry of the kept story, wherever it lives, with the move that told it first."""

    position: int
    data: dict[str, Any]
    seq: int
    at: datetime


@dataclass
class Slice:
    """Some consecutive entries of a story: ``start`` is the position of the first."""

    entries: list[dict[str, Any]]
    start: int

    @property
    def has_earlier(self) -> bool:
        return self.start > 0


def _kind(entry: dict[str, Any]) -> str:
    return str(entry.get("kind") or entry.get("type") or "")[:32]


def is_current(table: Table) -> bool:
    return table.story_cursor is not None and table.story_seq == table.last_seq


def keeps_entries(table: Table) -> bool:
    return registry.kit(table.game).referee.narrator_class is not None


# -- telling ----------------------------------------------------------------------------------
def _step(narrator, story: Story, told: Told, index: int, meta: dict[int, list]) -> None:
    """Tell one move, then give each entry it touched the seqs of the moves it shows (the
    move just told is the only new one) and, for a new entry, the move that told it."""
    story.touched.clear()
    narrator.step(story, index, told.row.as_script_move(), told.before, told.after)
    for position in story.touched:
        entry = story.entries[position]
        seqs = entry.setdefault("seqs", [])
        seqs.extend([told.row.seq] * (len(entry.get("moves", [])) - len(seqs)))
        meta.setdefault(position, [told.row.seq, told.row.at.isoformat()])


def _waiting(cursor: dict[str, Any]) -> tuple[dict[int, dict], dict[int, list]]:
    entries = {int(p): e for p, e in cursor.get("entries", {}).items()}
    meta = {int(p): m for p, m in cursor.get("meta", {}).items()}
    return entries, meta


def _write_out(table: Table, story: Story, meta: dict[int, list], narrator) -> None:
    """Write the closed entries older than the last PAGE to rows, once more than 2 * PAGE
    wait (after telling the whole log: ``_write_all``)."""
    keep = set(narrator.open_entries())
    old = [p for p in story.entries if p < story.length - PAGE and p not in keep]
    if old and len(story.entries) > 2 * PAGE:
        _insert(table, story, meta, old)
        for p in old:
            del story.entries[p]
            del meta[p]


def _insert(table: Table, story: Story, meta: dict[int, list], positions) -> None:
    StoryEntry.objects.bulk_create(
        StoryEntry(
            table=table,
            position=p,
            kind=_kind(story.entries[p]),
            seq=meta[p][0],
            at=datetime.fromisoformat(meta[p][1]),
            data=story.entries[p],
        )
        for p in sorted(positions)
    )


def _write_all(table: Table, story: Story, meta: dict[int, list], narrator) -> None:
    """After telling the whole log: the rows become the closed entries older than the last
    PAGE, as ``_write_out`` leaves them. A row already stored as it must be is kept: an undo
    tells again a thousand entries of which only the last few can differ, and writing them
    all again was most of its cost. Every other row is deleted, and the missing ones written."""
    keep = set(narrator.open_entries())
    old = {p for p in story.entries if p < story.length - PAGE and p not in keep}
    missing = set(old)
    stale = []
    rows = StoryEntry.objects.filter(table=table)
    for pk, position, seq, at, kind, data in rows.values_list(
        "pk", "position", "seq", "at", "kind", "data"
    ):
        entry = story.entries.get(position)
        if (
            position in missing
            and entry is not None
            and (seq, kind, data) == (meta[position][0], _kind(entry), entry)
            and at == datetime.fromisoformat(meta[position][1])
        ):
            missing.discard(position)  # stored as it must be
        else:
            stale.append(pk)
    if len(stale) > STALE_BY_KEY:  # many: one delete of them all is the shorter statement
        rows.delete()
        missing = set(old)
    elif stale:
        StoryEntry.objects.filter(pk__in=stale).delete()
    if missing:
        _insert(table, story, meta, missing)
    for p in old:
        del story.entries[p]
        del meta[p]


def _cursor(base: dict[str, Any], narrator, story: Story, meta: dict[int, list]) -> dict:
    cursor = dict(base)
    cursor["narrator"] = narrator.cursor
    cursor["length"] = story.length
    cursor["entries"] = {str(p): story.entries[p] for p in sorted(story.entries)}
    cursor["meta"] = {str(p): meta[p] for p in sorted(story.entries)}
    return cursor


def advance(table: Table, moves: list[Told], setup: Setup, live: Callable[[], list[Move]]) -> None:
    """Tell ``moves`` (just stored, in order) into the kept story of ``table`` (locked by the
    caller, in its transaction). Sets the table's cursor fields; the caller saves them with
    the rest of the row (``services.writing.store``). ``live()`` reads the live moves, for a story
    that must be told again (not current before these moves)."""
    if not moves:
        return
    if table.story_cursor is None or table.story_seq != moves[0].row.seq - 1:
        retell(table, setup, live(), moves[-1].row.seq, save=False)
        return
    cursor = dict(table.story_cursor)
    narrator = registry.kit(table.game).referee.narrator(setup, cursor.get("narrator"))
    if narrator is not None:
        entries, meta = _waiting(cursor)
        story = Story(entries, length=cursor.get("length", 0))
        for i, told in enumerate(moves):
            _step(narrator, story, told, cursor["live"] + i, meta)
        _write_out(table, story, meta, narrator)
        cursor = _cursor(cursor, narrator, story, meta)
    cursor["live"] += len(moves)
    cursor["last"] = moves[-1].row.seq
    table.story_cursor = cursor
    table.story_seq = moves[-1].row.seq


def retell(
    table: Table, setup: Setup, live: list[Move], seq: int | None = None, *, save: bool = True
) -> dict[str, Any] | None:
    """Drop the kept story of ``table`` and tell it again from its live moves ``live`` (the
    caller holds the table's lock, or is its only writer), as of the log's row ``seq``
    (default: the table's last). Sets the cursor fields, and saves them unless the caller
    saves the row itself. Returns the state after ``live`` when it replayed them to tell them (a
    game with a narrator): the caller that needs it (an undo) need not replay them again."""
    referee = registry.kit(table.game).referee
    cursor: dict[str, Any] = {"live": len(live), "last": live[-1].seq if live else None}
    narrator = referee.narrator(setup)
    state = None
    if narrator is None:
        StoryEntry.objects.filter(table=table).delete()
    else:
        story, meta, state = tell_all(referee, setup, narrator, live)
        _write_all(table, story, meta, narrator)
        cursor = _cursor(cursor, narrator, story, meta)
    table.story_cursor = cursor
    table.story_seq = table.last_seq if seq is None else seq
    if save:
        Table.objects.filter(pk=table.pk).update(
            story_cursor=table.story_cursor, story_seq=table.story_seq
        )
    return state


def tell_all(
    referee: Game, setup: Setup, narrator, live: list[Move]
) -> tuple[Story, dict[int, list], dict[str, Any]]:
    """The whole story of ``live`` told move by move, exactly as ``advance`` tells it, and the
    state the moves lead to."""
    story = Story()
    meta: dict[int, list] = {}
    state = referee.initial_state(setup)
    for index, row in enumerate(live):
        after = referee.apply(state, row.payload)
        _step(narrator, story, Told(row, state, after), index, meta)
        state = after
    return story, meta, state


def told(table: Table, setup: Setup, live: list[Move]) -> dict[str, Any]:
    """The cursor ``retell`` would keep, every entry in it, computed in memory and stored
    nowhere: how a reader (a GET never writes) shows a story that is not current. The write
    path keeps it at the next move (``advance`` tells it again)."""
    referee = registry.kit(table.game).referee
    cursor: dict[str, Any] = {"live": len(live), "last": live[-1].seq if live else None}
    narrator = referee.narrator(setup)
    if narrator is not None:
        story, meta, _state = tell_all(referee, setup, narrator, live)
        cursor = _cursor(cursor, narrator, story, meta)
    return cursor


def told_slice(cursor: dict[str, Any], before: int | None, count: int | None = None) -> Slice:
    """The ``count`` entries (default PAGE) before ``before`` (None: the last) of a cursor
    that holds every entry (``told``)."""
    count = PAGE if count is None else count
    entries, _meta = _waiting(cursor)
    length = cursor.get("length", 0)
    end = length if before is None else max(0, min(before, length))
    start = max(0, end - count)
    return Slice([entries[p] for p in range(start, end)], start)


# -- reading (the table's cursor must be current: ``kept.STORY.current``; else ``told``) ------
def _in_cursor(table: Table) -> list[Kept]:
    entries, meta = _waiting(table.story_cursor or {})
    return [
        Kept(p, entries[p], meta[p][0], datetime.fromisoformat(meta[p][1])) for p in sorted(entries)
    ]


def _from_rows(rows) -> list[Kept]:
    return [Kept(r.position, r.data, r.seq, r.at) for r in rows]


def tail(table: Table, count: int | None = None) -> Slice:
    """The last ``count`` (at most PAGE, the default) entries: in the table's row, no query."""
    count = PAGE if count is None else count
    waiting = _in_cursor(table)
    length = (table.story_cursor or {}).get("length", 0)
    start = max(0, length - count)
    shown = [k for k in waiting if k.position >= start]
    if len(shown) < length - start:  # fewer waiting than asked for: read the rows too
        return earlier(table, None, count)
    return Slice([k.data for k in shown], start)


def earlier(table: Table, before: int | None, count: int | None = None) -> Slice:
    """The ``count`` entries (default PAGE) before position ``before`` (None: the last)."""
    count = PAGE if count is None else count
    rows = StoryEntry.objects.filter(table=table)
    waiting = _in_cursor(table)
    if before is not None:
        rows = rows.filter(position__lt=before)
        waiting = [k for k in waiting if k.position < before]
    found = _from_rows(rows.order_by("-position")[:count]) + waiting
    found = sorted(found, key=lambda k: k.position)[-count:]
    start = found[0].position if found else (before if before is not None else 0)
    return Slice([k.data for k in found], start)


def kept(table: Table) -> list[dict[str, Any]]:
    """Every kept entry, in order (the tests compare it with a full replay)."""
    rows = _from_rows(StoryEntry.objects.filter(table=table).order_by("position"))
    return [k.data for k in sorted(rows + _in_cursor(table), key=lambda k: k.position)]
