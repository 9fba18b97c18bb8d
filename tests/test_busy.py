"""A database that is locked or gone: 503, Retry-After, a page (or an htmx message) that says
nothing was applied, and nothing stored. Real locks on SQLite, lock timeouts and killed
connections on PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import time

import psycopg
import pytest
from django.conf import settings
from django.db import InterfaceError, OperationalError, ProgrammingError, connection
from django.test import Client, override_settings
from django.urls import reverse

from amnesia_site.busy import is_busy
from amnesia_site.errors import BUSY_RETRY_AFTER
from games.models import Move, Table
from games.services import reading

ENGINE = settings.DATABASES["default"]["ENGINE"]
sqlite_only = pytest.mark.skipif(
    ENGINE != "django.db.backends.sqlite3", reason="SQLite's own locking"
)
postgres_only = pytest.mark.skipif(
    ENGINE != "django.db.backends.postgresql", reason="PostgreSQL's own timeouts"
)


def wrapped(wrapper: type[Exception], cause: BaseException) -> Exception:
    """A driver error as Django raises it: its own class, the driver's error as the cause."""
    try:
        raise wrapper(str(cause)) from cause
    except wrapper as error:
        return error


def sqlite_error(message: str, code: int) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    ("error", "busy"),
    [
        (wrapped(OperationalError, sqlite_error("database is locked", sqlite3.SQLITE_BUSY)), True),
        (wrapped(OperationalError, sqlite_error("table is locked", sqlite3.SQLITE_LOCKED)), True),
        (wrapped(OperationalError, sqlite_error("no such table: x", sqlite3.SQLITE_ERROR)), False),
        (wrapped(OperationalError, psycopg.errors.LockNotAvailable("lock timeout")), True),
        (wrapped(OperationalError, psycopg.errors.QueryCanceled("statement timeout")), True),
        (wrapped(OperationalError, psycopg.errors.AdminShutdown("terminated")), True),
        (wrapped(OperationalError, psycopg.errors.DeadlockDetected("deadlock")), True),
        (wrapped(OperationalError, psycopg.errors.TooManyConnections("too many")), True),
        (wrapped(OperationalError, psycopg.OperationalError("server closed the connection")), True),
        (wrapped(InterfaceError, psycopg.InterfaceError("connection already closed")), True),
        (wrapped(ProgrammingError, psycopg.errors.UndefinedTable("no table")), False),
        (wrapped(OperationalError, psycopg.errors.UndefinedColumn("no column")), False),
        (OperationalError("no cause"), False),
        (RuntimeError("not the database"), False),
    ],
)
def test_only_locks_timeouts_and_lost_connections_count_as_busy(error, busy) -> None:
    assert is_busy(error) is busy


# ---- Through the pages, with a real lock ----------------------------------------------------


def post_move(client: Client, table: Table, **headers):
    table.refresh_from_db()
    turn = reading.state_of(table)["turn"]
    fields = {"by": turn, "do": "continue", "expected_seq": table.last_seq}
    return client.post(reverse("games:move", args=[table.pk]), fields, **headers)


def post_json_move(client: Client, table: Table):
    turn = reading.state_of(table)["turn"]
    return client.post(
        reverse("games:move", args=[table.pk]),
        {"move": {"by": turn, "do": "continue"}, "expected_seq": table.last_seq},
        content_type="application/json",
    )


def assert_busy_answers(client: Client, table: Table) -> None:
    """Every way of sending the move gets 503, Retry-After and the words."""
    htmx = post_move(client, table, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 503
    assert htmx["Retry-After"] == str(BUSY_RETRY_AFTER)
    # The message alone: htmx swaps nothing on a 503, the page shows this above the form.
    body = htmx.content.decode()
    assert body.startswith('<p class="flash flash--error" role="alert" data-request-error>')
    assert "nothing you sent was applied" in body and "send it again" in body

    page = post_move(client, table)
    assert page.status_code == 503
    assert page["Retry-After"] == str(BUSY_RETRY_AFTER)
    html = page.content.decode()
    assert "<h1>The table is busy</h1>" in html
    assert 'class="brand"' in html  # the site's frame, without anything read from the database
    assert 'data-testid="current-user"' not in html

    data = post_json_move(client, table)
    assert data.status_code == 503
    assert data.json()["error"]["code"] == "busy"


def assert_nothing_stored(table: Table) -> None:
    table.refresh_from_db()
    assert table.last_seq == 0
    assert not Move.objects.filter(table=table).exists()


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_write_lock_held_past_the_busy_timeout_answers_503(gm_client, make_table) -> None:
    table = make_table("amnesia")
    holder = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock and keeps it
    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout = 100")  # the site waits 5 s; the test less
        assert_busy_answers(gm_client, table)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        connection.close()  # the next connection gets the site's own busy timeout back
    assert_nothing_stored(table)
    # Sent again once the lock is gone, the same move is played.
    assert post_move(gm_client, table).status_code == 302
    table.refresh_from_db()
    assert table.last_seq == 1


def pg_connect(**options) -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        **options,
    )


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_row_lock_past_the_lock_timeout_answers_503(gm_client, make_table) -> None:
    table = make_table("amnesia")
    holder = pg_connect()
    holder.execute(f"SELECT 1 FROM {Table._meta.db_table} WHERE id = %s FOR UPDATE", [table.pk])
    try:
        with override_settings(WRITE_LOCK_TIMEOUT_MS=200):  # the site waits seconds; the test less
            assert_busy_answers(gm_client, table)
    finally:
        holder.rollback()
        holder.close()
        connection.close()
    assert_nothing_stored(table)
    assert post_move(gm_client, table).status_code == 302


# Long enough that a move with no lock timeout of its own (main before the write path set one)
# is still waiting when the test looks, short enough that such a run ends instead of hanging.
HOLD_AT_MOST = 15


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_move_behind_a_held_table_row_gives_up_within_seconds(gm_client, make_table) -> None:
    """Another connection holds the table's row (a long transaction, a stuck worker): the move
    waits the site's own lock timeout, a few seconds, then answers 503 with Retry-After and
    stores nothing, instead of holding a server thread for as long as the lock is held. The
    timeout is the write path's alone: the connection keeps no lock or statement timeout."""
    table = make_table("amnesia")
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with pg_connect() as holder:
            holder.execute(
                f"SELECT 1 FROM {Table._meta.db_table} WHERE id = %s FOR UPDATE", [table.pk]
            )
            held.set()
            release.wait(HOLD_AT_MOST)
            holder.rollback()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        started = time.monotonic()
        response = post_move(gm_client, table, HTTP_HX_REQUEST="true")
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join()
    assert response.status_code == 503, response.status_code
    assert response["Retry-After"] == str(BUSY_RETRY_AFTER)
    assert "nothing you sent was applied" in response.content.decode()
    assert settings.WRITE_LOCK_TIMEOUT_MS / 1000 <= waited < 10
    assert_nothing_stored(table)
    # Only the write path's transaction had a timeout: the same connection has none now.
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == "0"
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "0"
    # Once the lock is gone, the same move is played.
    assert post_move(gm_client, table).status_code == 302
    table.refresh_from_db()
    assert table.last_seq == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_connection_killed_mid_move_answers_503(gm_client, make_table) -> None:
    table = make_table("amnesia")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    killed = []

    def kill_before_the_move_is_stored(execute, sql, params, many, context):
        if sql.startswith(f'INSERT INTO "{Move._meta.db_table}"') and not killed:
            with pg_connect(autocommit=True) as killer:
                # Waits (up to 5 s) until the backend is gone, mid-transaction.
                killer.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
            killed.append(pid)
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(kill_before_the_move_is_stored):
            response = post_move(gm_client, table, HTTP_HX_REQUEST="true")
    finally:
        connection.close()
    assert killed == [pid]
    assert response.status_code == 503
    assert response["Retry-After"] == str(BUSY_RETRY_AFTER)
    assert "nothing you sent was applied" in response.content.decode()
    assert_nothing_stored(table)
