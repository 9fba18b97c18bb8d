"""The server's two lanes (amnesia_site/lanes.py): polls run in a pool of their own, so a poll
answers while every thread for pages is busy, and pages wait their turn in their pool's queue,
holding no thread. Real requests through the site's real application (the ASGI wrapper around
its WSGI handler, driven by an event loop as Granian drives it)."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future

import pytest
from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.db import connections
from django.urls import reverse

from amnesia_site.lanes import Lanes, is_poll

pytestmark = pytest.mark.django_db(transaction=True)


def loop_thread() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop on a thread of its own, as the server's (for a fixture of any scope)."""
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, daemon=True)
    thread.start()
    yield running
    running.call_soon_threadsafe(running.stop)
    thread.join(10)
    running.close()


@pytest.fixture
def loop():
    yield from loop_thread()


@pytest.fixture
def lanes():
    app = Lanes(get_wsgi_application(), 1, 1)
    yield app
    # Each pool's thread gives its database connection back before the test database goes.
    for pool in (app.pages, app.polls):
        pool.submit(connections.close_all).result(10)
        pool.shutdown(wait=True)


def request(loop, app, path: str, query: str = "") -> Future:
    """A GET through the ASGI application; the future's result is (status, body)."""

    async def call():
        messages = [{"type": "http.request", "body": b"", "more_body": False}]
        answer = {"body": b""}

        async def receive():
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            else:
                answer["body"] += message.get("body", b"")

        scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "root_path": "",
            "query_string": query.encode(),
            "http_version": "1.1",
            "scheme": "http",
            "headers": [(b"host", b"testserver")],
            "server": ("testserver", 80),
            "client": ("127.0.0.1", 50000),
        }
        await app(scope, receive, send)
        return answer["status"], answer["body"]

    return asyncio.run_coroutine_threadsafe(call(), loop)


def test_the_polls_and_only_they_take_the_poll_lane(make_table) -> None:
    table = make_table("contest", ["Ana", "Bruno"])
    seat = table.seats.first()
    assert is_poll(reverse("games:seat_poll", args=[seat.token]))
    assert is_poll(reverse("games:poll", args=[table.pk]))
    assert is_poll("/seat/not-a-real-token/poll/")  # a wrong token is the poll's own 404
    for page in (
        "/",
        reverse("games:table", args=[table.pk]),
        reverse("games:move", args=[table.pk]),
        f"/seat/{seat.token}/",
        "/no/such/page/",
    ):
        assert not is_poll(page), page


def test_a_poll_answers_while_every_thread_for_pages_is_busy(loop, lanes, make_table) -> None:
    table = make_table("contest", ["Ana", "Bruno"])
    seat = table.seats.first()
    poll_url = reverse("games:seat_poll", args=[seat.token])
    # Warm up: each pool's thread has answered once.
    assert request(loop, lanes, "/").result(30)[0] == 200
    assert request(loop, lanes, poll_url, f"since={table.version}").result(30)[0] == 204
    # The pages' only thread is taken (a long page, a book printed in the request)...
    release = threading.Event()
    busy = lanes.pages.submit(release.wait, 30)
    try:
        page = request(loop, lanes, "/")
        # ...so a page waits in the queue, while polls answer, the changed table's too.
        assert request(loop, lanes, poll_url, f"since={table.version}").result(10) == (204, b"")
        status, body = request(loop, lanes, poll_url, "since=-1").result(10)
        assert status == 200 and f'"version": {table.version}'.encode() in body
        assert not page.done()
    finally:
        release.set()
    assert busy.result(10)
    status, body = page.result(30)
    assert status == 200 and b"<html" in body


def test_the_served_application_has_its_two_lanes() -> None:
    python_default = sys.getswitchinterval()
    try:
        from amnesia_site.served import lanes as application

        assert isinstance(application, Lanes)
        assert application.pages._max_workers == settings.THREADS
        assert application.polls._max_workers == settings.POLL_THREADS
        # and a thread waiting for the interpreter gets its turn within the setting's interval
        assert sys.getswitchinterval() == pytest.approx(settings.SWITCH_INTERVAL_US / 1_000_000)
    finally:
        # Importing the served app set the interval for this whole test process: the tests
        # after this one (a live server beside a browser's driver) run as Python runs them.
        sys.setswitchinterval(python_default)
