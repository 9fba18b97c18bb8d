"""What a pure, slow function made (a drawn picture, an encoded image, a printed PDF), kept
for the rest of the test run: in the process, and in ``TEST_MEMO_DIR`` when it is set, so that
the other test worker and the PostgreSQL run after the SQLite one read the same bytes instead of
making them again.

``make test`` sets ``TEST_MEMO_DIR`` to a new temporary folder for its two runs and removes it
after: the code cannot change while it is kept, so nothing is ever stale, and the next
``make test`` makes everything once again for real. Keep here only what the same arguments
always make alike whatever the database holds (the test of the function itself says so);
a failure is never kept.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path

_KEPT: dict[str, tuple[bytes, ...]] = {}


def folder() -> Path | None:
    """The folder the runs share, or None (a plain ``pytest``: this process alone keeps)."""
    value = os.environ.get("TEST_MEMO_DIR", "").strip()
    return Path(value) if value else None


def remember(
    kind: str, key: str | bytes, make: Callable[[], tuple[bytes, ...]]
) -> tuple[bytes, ...]:
    """``make()``'s parts for ``(kind, key)``: made the first time in this run, read after."""
    raw = key if isinstance(key, bytes) else key.encode()
    name = f"{kind}-{hashlib.sha256(raw).hexdigest()}"
    if name in _KEPT:
        return _KEPT[name]
    shared = folder()
    path = shared / name if shared else None
    parts: tuple[bytes, ...] | None = None
    if path is not None and path.is_file():
        try:
            loaded = pickle.loads(path.read_bytes())
        except (pickle.UnpicklingError, EOFError, ValueError):
            loaded = None  # not one of ours whole (it is written by rename): made again below
        if isinstance(loaded, tuple) and all(isinstance(p, bytes) for p in loaded):
            parts = loaded
    if parts is None:
        parts = tuple(make())
        if path is not None:
            # Written beside and renamed: the other worker reads the whole file or none.
            from games.images import write_atomically

            write_atomically(path, pickle.dumps(parts))
    _KEPT[name] = parts
    return parts
