"""The polls' own process (amnesia_site/pollserver.py): a poll answered by a child with an
interpreter of its own while every thread of the served app is busy; answered here when the
child is killed, and the child back; a frame that is not a poll's request refused without the
child dying; the child stopped with the app, and gone with its parent. Real requests through
the served app (driven by an event loop as Granian drives it) on the test's own database, which
the child opens too. One child for the module (setting Django up costs seconds of CPU)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
from pathlib import Path

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection, connections
from django.urls import reverse

from amnesia_site.lanes import Lanes
from amnesia_site.pollserver import ANSWER, LENGTH, PollProcess, encode_request
from tests.serving import ROOT, database_url, serve_env
from tests.test_lanes import loop_thread, request
from tests.workers import wait_for

# One test worker runs the module (xdist's group): the module's child starts once a run.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("pollserver")]


@pytest.fixture(scope="module")
def loop():
    """The module's app's event loop, on a thread of its own."""
    yield from loop_thread()


def child_env(tmp: Path) -> dict[str, str]:
    """The child's environment: the served site's settings (DEBUG off, plain HTTP), on the
    test's database."""
    return serve_env(
        database_url(connection.settings_dict),
        tmp / "static",
        tmp / "media",
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
    )


def lifespan(loop, app: Lanes, event: str) -> None:
    """Granian's lifespan startup or shutdown, through the app."""

    async def call():
        messages = [{"type": f"lifespan.{event}"}]
        done = asyncio.Event()

        async def receive():
            if messages:
                return messages.pop(0)
            await done.wait()

        async def send(message):
            assert message["type"] == f"lifespan.{event}.complete", message
            done.set()

        task = asyncio.ensure_future(app({"type": "lifespan"}, receive, send))
        await done.wait()
        task.cancel()

    asyncio.run_coroutine_threadsafe(call(), loop).result(30)


def listening(process: PollProcess) -> bool:
    """Whether the child now running accepts connections (Django set up, socket bound)."""
    if process.process is None or process.process.poll() is not None:
        return False
    try:
        with socket.socket(socket.AF_UNIX) as probe:
            probe.connect(process.socket_path)
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker, loop, tmp_path_factory):
    """The served app with one thread per pool and its poll process, started as Granian
    starts it (lifespan) and stopped at the module's end."""
    with django_db_blocker.unblock():
        env = child_env(tmp_path_factory.mktemp("pollserver"))
    app = Lanes(get_wsgi_application(), 1, 1, PollProcess(1, env=env, cwd=str(ROOT)))
    lifespan(loop, app, "startup")
    wait_for(lambda: listening(app.poll_process), "the poll process listening")
    yield app
    lifespan(loop, app, "shutdown")
    for pool in (app.pages, app.polls):
        pool.shutdown(wait=True)


def close_connections(app: Lanes) -> None:
    """Each pool's thread gives its database connection back before the test's data goes."""
    for pool in (app.pages, app.polls):
        pool.submit(connections.close_all).result(10)


def answered_by_the_child(loop, app: Lanes, path: str, query: str) -> tuple[int, bytes]:
    """A poll's answer while both of the app's own pools are held: only the child can give it."""
    release = threading.Event()
    held = [pool.submit(release.wait, 60) for pool in (app.pages, app.polls)]
    try:
        return request(loop, app, path, query).result(30)
    finally:
        release.set()
        for hold in held:
            hold.result(10)


def test_a_poll_is_answered_by_its_process_while_every_thread_here_is_busy(
    loop, served, make_table
) -> None:
    table = make_table("contest", ["Ana", "Bruno"])
    url = reverse("games:seat_poll", args=[table.seats.first().token])
    try:
        assert answered_by_the_child(loop, served, url, f"since={table.version}") == (204, b"")
        status, body = answered_by_the_child(loop, served, url, "since=-1")
        assert status == 200 and f'"version": {table.version}'.encode() in body
        # A page still waits for its own pool, and is answered there.
        status, body = request(loop, served, "/").result(30)
        assert status == 200 and b"<html" in body
    finally:
        close_connections(served)


def test_a_wrong_seat_link_is_answered_here_where_guesses_are_counted(loop, served) -> None:
    """Only a poll's 200 or 204 comes from the child: a 404 is asked again in the app's own
    pool, so while that pool is held the answer waits for it."""
    release = threading.Event()
    held = served.polls.submit(release.wait, 60)
    try:
        guess = request(loop, served, "/seat/not-a-real-token/poll/", "since=0")
        wait_for(lambda: served.polls._work_queue.qsize() == 1, "the guess queued here")
        assert not guess.done()
    finally:
        release.set()
    assert held.result(10)
    assert guess.result(30)[0] == 404
    close_connections(served)


def test_a_frame_that_is_no_polls_request_ends_its_connection_not_the_process(
    served, make_table
) -> None:
    table = make_table("contest", ["Ana", "Bruno"])
    pid = served.poll_process.process.pid
    poll = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": reverse("games:seat_poll", args=[table.seats.first().token]),
        "QUERY_STRING": f"since={table.version}",
        "SCRIPT_NAME": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
    }
    malformed = [
        LENGTH.pack(2**31),  # longer than any poll
        LENGTH.pack(8) + b"not json",
        LENGTH.pack(4) + b"\xff\xfe{}",  # not text
        LENGTH.pack(2) + b"[]",
        encode_request({**poll, "REQUEST_METHOD": "POST"}),  # not a poll's method
        encode_request(poll)[:10],  # cut short
    ]
    for frame in malformed:
        with socket.socket(socket.AF_UNIX) as conn:
            conn.settimeout(30)
            conn.connect(served.poll_process.socket_path)
            conn.sendall(frame)
            conn.shutdown(socket.SHUT_WR)
            assert conn.recv(1024) == b"", frame  # closed, no answer
    # The same process answers a poll's request on a new connection.
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(30)
        conn.connect(served.poll_process.socket_path)
        conn.sendall(encode_request(poll))
        head, body = ANSWER.unpack(conn.recv(ANSWER.size, socket.MSG_WAITALL))
        data = conn.recv(head + body, socket.MSG_WAITALL)
    assert data.startswith(b'{"status":"204 No Content"') and body == 0
    assert served.poll_process.process.pid == pid and served.poll_process.process.poll() is None


def test_a_killed_poll_process_is_answered_for_here_and_comes_back(
    loop, served, make_table
) -> None:
    table = make_table("contest", ["Ana", "Bruno"])
    url = reverse("games:seat_poll", args=[table.seats.first().token])
    try:
        # Its connection to the child is open and idle when the child is killed.
        assert answered_by_the_child(loop, served, url, "since=-1")[0] == 200
        killed = served.poll_process.process
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(10)
        # Nothing lost: the polls are answered here (the app's pools are free)...
        assert request(loop, served, url, f"since={table.version}").result(30) == (204, b"")
        assert request(loop, served, url, "since=-1").result(30)[0] == 200
        # ...and the child is started again, and answers them once more.
        wait_for(
            lambda: served.poll_process.process is not killed and listening(served.poll_process),
            "the poll process started again",
        )
        assert answered_by_the_child(loop, served, url, f"since={table.version}") == (204, b"")
    finally:
        close_connections(served)


def test_the_poll_process_stops_with_the_app_and_ends_with_its_parent(loop, tmp_path) -> None:
    """Stopped at lifespan shutdown, its socket's folder gone; and a child whose parent's end
    of its standard input closes (the parent died, however) ends by itself."""
    polls = PollProcess(1, env=child_env(tmp_path), cwd=str(ROOT))
    app = Lanes(get_wsgi_application(), 1, 1, polls)
    lifespan(loop, app, "startup")
    child, folder = polls.process, Path(polls.folder)
    assert child.poll() is None and folder.is_dir()
    assert oct(folder.stat().st_mode & 0o777) == "0o700"  # no one else can reach the socket
    lifespan(loop, app, "shutdown")
    assert child.poll() is not None and not folder.exists()
    assert polls.process is None
    for pool in (app.pages, app.polls):
        pool.shutdown(wait=True)

    orphan = PollProcess(1, env=child_env(tmp_path), cwd=str(ROOT))
    orphan.start()
    try:
        orphan.process.stdin.close()  # what the parent's death does to the pipe
        assert orphan.process.wait(30) == 0
    finally:
        orphan.stop()
