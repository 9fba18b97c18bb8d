"""A database that is locked or gone answers 503 "busy, nothing applied", not a bare 500.

Busy means: SQLite still locked when its busy timeout ran out; on PostgreSQL a lock or statement
timeout, a deadlock or serialisation failure, a connection lost, refused or killed. The
transaction the write path was in has been rolled back, so nothing was stored. Any other
database error (a missing table, a broken query) is a bug and stays a 500.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

from amnesia_site.errors import database_busy

logger = logging.getLogger(__name__)

# SQLSTATE classes: 08 connection exception, 40 transaction rollback (deadlock, serialisation),
# 53 insufficient resources (too many connections), 57 operator intervention (statement
# timeout, backend terminated, server shutting down); and 55P03, lock not available.
PG_BUSY_CLASSES = {"08", "40", "53", "57"}
PG_BUSY_STATES = {"55P03"}
SQLITE_BUSY_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


def is_busy(error: BaseException) -> bool:
    """Whether a database error means "busy or unreachable, try again" rather than a bug."""
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    cause = error.__cause__
    if isinstance(cause, sqlite3.Error):
        code = getattr(cause, "sqlite_errorcode", None)
        return code is not None and code & 0xFF in SQLITE_BUSY_CODES  # primary code
    # psycopg as loaded by the PostgreSQL backend: a site on SQLite never imports it (a fifth
    # of a second at every start), and then no error can be one of its own.
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(cause, psycopg.Error):
        state = cause.sqlstate
        # No SQLSTATE: the client library's own error, a connection closed or never made.
        return state is None or state[:2] in PG_BUSY_CLASSES or state in PG_BUSY_STATES
    return False


class DatabaseBusyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_busy(exception):
            return None
        logger.warning("Database busy on %s %s: %s", request.method, request.path, exception)
        return database_busy(request)
