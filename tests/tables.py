"""Tables the tests share, for the fixtures in tests/conftest.py and for the browser tests
(which make their tables after logging in through the page). Each goes through the write path."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import Table
from games.services import new_tables, writing

# A contest's usual cast: Zed (Ana) and Yum (Bo), 3 points in every attribute.
CAST = (("Ana", "Zed"), ("Bo", "Yum"))
EVEN = {"brains": 3, "muscle": 3, "moves": 3, "coolness": 3}


def contest_in_play(owner, *, at: datetime | None = None, **options: Any) -> Table:
    """A two-seat contest with its characters made, waiting for the first challenge; the
    options (seed, deck_mode, name...) go to `new_tables.create_table`."""
    table = new_tables.create_table(owner, "contest", [by for by, _ in CAST], **options)
    for by, name in CAST:
        writing.play_many(table, [{"by": by, "do": "character", "name": name, **EVEN}], None, at=at)
    table.refresh_from_db()
    return table
