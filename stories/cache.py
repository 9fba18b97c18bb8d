"""The archive's disk cache: the books' PDFs, generated covers and printed area pictures.

It lives under ``STORY_CACHE_DIR`` (default: a folder in the system's temporary directory, never
a public one). Every file is named after a hash of what went into it, so a changed story gets a
new file; :func:`cached` makes a missing one, writes it whole, and removes the stale versions.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from games.images import write_atomically


def cache_dir() -> Path:
    configured = getattr(settings, "STORY_CACHE_DIR", None)
    return Path(configured) if configured else Path(tempfile.gettempdir()) / "amnesia-stories"


def cached(path: Path, make: Callable[[], bytes], *, stale: str | None = None) -> bytes:
    """The file's bytes; when it is missing, ``make()`` them, write them atomically, and remove
    the other files of the folder matching the glob ``stale`` (older versions of the same)."""
    if path.is_file():
        return path.read_bytes()
    data = make()
    write_atomically(path, data)
    if stale:
        for old in path.parent.glob(stale):
            if old != path:
                old.unlink(missing_ok=True)
    return data
