"""The write path and what it reads and checks: every move, undo, new table and import.

Four rooms, one way through (each says more):

- ``writing``: the one write path. Lock the table, check the move, have the referee judge
  it, store it, and advance what is kept from the log (state, story, version), in one
  transaction. Resends are answered with what was stored.
- ``reading``: the set-up, the moves in force, the state, the script. Never writes.
- ``validating``: what a move may hold, a client's move id, the position a move is judged
  against; and the refusals (``StaleMove``, ``StaleTurn``, ``NothingToUndo``), kept as data
  until ``games.answers`` puts them into the reader's language.
- ``new_tables`` (a table from a set-up or a script) and ``table_writes`` (a seat's new
  link, the narration being typed): writes that go through ``writing``'s lock.

Callers use this package's names (``services.play``, ``services.state_of``...).
"""

from __future__ import annotations

from games.services.new_tables import create_table, default_name, import_script
from games.services.reading import (
    LANGUAGE_KEY,
    is_resend,
    live_moves,
    rebuild_state,
    script_head,
    script_of,
    setup_of,
    state_of,
    story_facts,
)
from games.services.table_writes import reissue_seat_link, save_draft
from games.services.validating import (
    MAX_NAME,
    MAX_TEXT,
    NothingToUndo,
    StaleMove,
    StaleTurn,
)
from games.services.writing import (
    Played,
    bump_version,
    current_story,
    play,
    play_many,
    play_sent,
    undo,
)

__all__ = [
    "LANGUAGE_KEY",
    "MAX_NAME",
    "MAX_TEXT",
    "NothingToUndo",
    "Played",
    "StaleMove",
    "StaleTurn",
    "bump_version",
    "create_table",
    "current_story",
    "default_name",
    "import_script",
    "is_resend",
    "live_moves",
    "play",
    "play_many",
    "play_sent",
    "rebuild_state",
    "reissue_seat_link",
    "save_draft",
    "script_head",
    "script_of",
    "setup_of",
    "state_of",
    "story_facts",
    "undo",
]
