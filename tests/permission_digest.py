"""What a request must not change, read fast: every row of the project's tables and the list
of uploaded files (``digest``), and the ``changes`` fixture, which reads the rows again only
after a statement that may write (for the permission matrix's thousands of requests and
tests/test_get_never_writes.py)."""

from __future__ import annotations

import hashlib
import os
import re

import pytest
from django.conf import settings
from django.db import connection

# Not what a request may change: the log-ins of the actors' clients, the migrations.
UNWATCHED_TABLES = frozenset({"django_session", "django_migrations"})


def rows_digest() -> str:
    """Every row of every watched table (raw SQL: it is taken often)."""
    state = hashlib.sha256()
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names(cursor)):
            if table not in UNWATCHED_TABLES:
                cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY 1")
                state.update(repr((table, cursor.fetchall())).encode())
    return state.hexdigest()


UPLOADS = ("decks", "stories")  # the uploads' folders in MEDIA_ROOT


def uploads_digest() -> str:
    """The files under the uploads' folders, by their path in MEDIA_ROOT (os.walk and strings:
    it is taken twice a request, and pathlib's rglob and relative_to were a quarter of the
    matrix's time)."""
    media = settings.MEDIA_ROOT
    files = []
    for folder in UPLOADS:
        for parent, _dirs, names in os.walk(os.path.join(media, folder)):
            inside = os.path.relpath(parent, media).replace(os.sep, "/")
            files += [f"{inside}/{name}" for name in names]
    return repr(sorted(files))


def digest() -> str:
    """Every row of every table and the list of uploads: what a refused POST must not change."""
    return rows_digest() + uploads_digest()


# A statement that cannot change a row. Anything else (INSERT, UPDATE, DELETE, DDL, a PRAGMA, a
# WITH that may hide a write...) makes the next digest read every row again.
READS = re.compile(r"\s*(SELECT|SAVEPOINT|RELEASE|ROLLBACK|BEGIN|COMMIT|SHOW)\b", re.IGNORECASE)


class Changes:
    """``digest()`` for the thousands of requests of the matrix: the rows are read again only
    when a statement that may write has run on the connection since they were last read (every
    statement passes through ``__call__``, Django's execute wrapper); the uploads are listed
    every time. A request that ran only reads left every row as it was."""

    def __init__(self) -> None:
        self.rows: str | None = None
        self.rereads = 0

    def __call__(self, execute, sql, params, many, context):
        if not READS.match(sql):
            self.rows = None
        return execute(sql, params, many, context)

    def digest(self) -> str:
        if self.rows is None:
            self.rows = rows_digest()
            self.rereads += 1
        return self.rows + uploads_digest()


@pytest.fixture
def changes():
    watcher = Changes()
    with connection.execute_wrapper(watcher):
        yield watcher
