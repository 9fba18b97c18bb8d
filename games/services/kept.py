"""What is kept from the log: derived, droppable, advanced by the write path and only by it.

The move log is the only truth. Beside it the table keeps what would be slow to compute from
it on every request: the referee's state (``Table.state``), the story so far
(``Table.story_cursor`` and ``StoryEntry`` rows, ``games.story``), the table's version (what
the pages that follow a table poll, ``games.live``) and, for a finished table, its playtest
report's figures (``games.playtests``). Each is a ``Kept``, with one interface:

- ``current(table)``: whether what is kept is current (from the row as loaded when it can);
- ``advance(locked, step)``: on a move or an undo, in the write path's transaction, the row
  locked; it sets the row's fields it names (``fields``: ``writing.store`` saves them in the
  move's one UPDATE) or writes its own rows;
- ``rebuild(table)``: what the log says now, computed and stored nowhere. A page (a GET never
  writes) that finds what is kept not current shows this instead; the write path keeps it
  again at the next move;
- ``kept(table)``: what is kept, in the shape ``rebuild`` gives (the tests compare the two
  after moves and undos, for every game).

The write path advances ``KEPT`` in order; a feature outside the table engine adds its own
with ``register`` (in its ``AppConfig.ready``), so that the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from games import story as kept_story
from games.models import Move, StoryEntry, Table
from games.rules.setup import Setup
from games.services import reading


@dataclass
class Step:
    """One write of the log, as what is kept hears it: the rows appended (moves, or one undo)
    each with the states around it, the set-up, and the moves in force after it (read only
    by what must start again from the log: an undo, a cache that was not current)."""

    rows: list[kept_story.Told]
    setup: Setup
    live: Callable[[], list[Move]]
    undo: bool = False

    @property
    def seq(self) -> int:
        return self.rows[-1].row.seq

    @property
    def before(self) -> dict[str, Any]:
        return self.rows[0].before

    @property
    def after(self) -> dict[str, Any]:
        return self.rows[-1].after


class Kept(Protocol):
    name: str
    fields: tuple[str, ...]  # the table's own fields it keeps (saved by ``writing.store``)

    def current(self, table: Table) -> bool: ...

    def advance(self, locked: Table, step: Step) -> None: ...

    def rebuild(self, table: Table) -> Any: ...

    def kept(self, table: Table) -> Any: ...


class State:
    """The referee's state after the log (``Table.state`` as of ``state_seq``)."""

    name = "state"
    fields: tuple[str, ...] = ("state", "state_seq")

    def current(self, table: Table) -> bool:
        return table.state is not None and table.state_seq == table.last_seq

    def advance(self, locked: Table, step: Step) -> None:
        locked.state = step.after
        locked.state_seq = step.seq

    def rebuild(self, table: Table) -> dict[str, Any]:
        return reading.rebuild_state(table)

    def kept(self, table: Table) -> dict[str, Any] | None:
        state: dict[str, Any] | None = table.state
        return state


class Story:
    """The story so far, told by the game's narrator (``games.story``): its cursor in the row
    and the entries written out to ``StoryEntry`` rows."""

    name = "story"
    fields: tuple[str, ...] = ("story_cursor", "story_seq")

    def current(self, table: Table) -> bool:
        return kept_story.is_current(table)

    def advance(self, locked: Table, step: Step) -> None:
        if step.undo:  # the narrator only goes forward: told again from the log
            if locked.story_seq != step.seq:  # unless the undo told it to get its state
                kept_story.retell(locked, step.setup, step.live(), step.seq, save=False)
        else:
            kept_story.advance(locked, step.rows, step.setup, step.live)

    def rebuild(self, table: Table) -> dict[str, Any]:
        cursor = kept_story.told(table, reading.setup_of(table), reading.live_moves(table))
        return self._whole(cursor, [])

    def kept(self, table: Table) -> dict[str, Any]:
        rows = StoryEntry.objects.filter(table=table).order_by("position")
        return self._whole(table.story_cursor or {}, [(r.position, r.data) for r in rows])

    @staticmethod
    def _whole(cursor: dict[str, Any], written: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        """A cursor with every entry, wherever kept, in order (and where the narrator is)."""
        waiting = [(int(p), e) for p, e in cursor.get("entries", {}).items()]
        return {
            "live": cursor.get("live"),
            "last": cursor.get("last"),
            "length": cursor.get("length", 0),
            "narrator": cursor.get("narrator"),
            "entries": [e for _p, e in sorted(written + waiting, key=lambda pe: pe[0])],
        }


class Version:
    """The table's version, which the pages that follow it poll: one per row of the log,
    plus one per change outside it (``writing.bump_version``: a reveal, a timer, a seat's
    new link), which the table counts in ``bumps``."""

    name = "version"
    fields: tuple[str, ...] = ("version",)

    def current(self, table: Table) -> bool:
        return table.version == table.last_seq + table.bumps

    def advance(self, locked: Table, step: Step) -> None:
        locked.version = (locked.version or 0) + len(step.rows)

    def rebuild(self, table: Table) -> int:
        return Move.objects.filter(table=table).count() + table.bumps

    def kept(self, table: Table) -> int:
        return table.version


STATE, STORY, VERSION = State(), Story(), Version()
# In the order the write path advances them (the story reads the state it was given, not
# the row's; the features' own come last, once the row says where the log is).
KEPT: list[Kept] = [STATE, STORY, VERSION]


def register(kept: Kept) -> None:
    """Have the write path advance ``kept`` too (a feature's own, from its ``ready``)."""
    if all(k.name != kept.name for k in KEPT):
        KEPT.append(kept)


def fields() -> list[str]:
    return [field for k in KEPT for field in k.fields]
