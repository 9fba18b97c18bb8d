"""The push (issue 50, games/push.py): a move made through the server reaches a page that
follows the table within a second, with its polls turned off; with the push blocked the page
still follows, by its polls; and a seat's connection hears the version alone, never state.

The pages are served as ``make serve`` serves them (Granian, the lanes, the websockets beside
them: tests/serving.py), on the test database, one server for the module."""

from __future__ import annotations

import json
import re
import time
import uuid
from contextlib import contextmanager

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from django.urls import reverse
from playwright.sync_api import expect

from games import registry
from games.models import Table
from games.services import new_tables
from tests.browser.helpers import PASSWORD, end_revealed
from tests.games.long_games import ended_game, next_move
from tests.serving import (
    Phone,
    collected_static,
    database_url,
    serve_env,
    start_server,
)

# One server for the module's tests: they run on one test worker.
pytestmark = pytest.mark.xdist_group("push")

NO_POLLS = "() => document.querySelector('[data-poll]').setAttribute('data-poll-every', '3600000')"
VERSION = "() => Number(document.querySelector('[data-poll][data-version]').dataset.version)"


@pytest.fixture(scope="module")
def push_server(django_db_setup, django_db_blocker, test_media_dir, tmp_path_factory):
    unused = tmp_path_factory.mktemp("push-unused")
    static = collected_static(serve_env("sqlite:///:memory:", unused / "s", unused / "m"))
    with django_db_blocker.unblock():
        env = serve_env(database_url(connection.settings_dict), static, test_media_dir)
    log = tmp_path_factory.mktemp("push") / "serve.log"
    running = start_server(env, log)
    yield running
    running.stop()


@pytest.fixture
def laptop(browser, push_server, gm, transactional_db):
    """The game master's browser, logged in on the server (its password hashed as the server
    hashes, quickly), and the phone-like client the moves are sent with."""
    gm.password = PBKDF2PasswordHasher().encode(PASSWORD, "pushtestsalt", iterations=1000)
    gm.save(update_fields=["password"])
    sender = Phone(push_server.port, host="127.0.0.1")
    sender.log_in(gm.username, PASSWORD)
    context = browser.new_context(base_url=f"http://127.0.0.1:{push_server.port}")
    context.set_default_timeout(10_000)
    context.add_cookies(
        [
            {"name": name, "value": value, "domain": "127.0.0.1", "path": "/"}
            for name, value in sender.cookies.items()
        ]
    )
    yield context.new_page(), sender
    context.close()


def send_move(sender: Phone, table: Table) -> None:
    status, _headers, body, _cookies = sender.post_json(
        f"/tables/{table.pk}/move/",
        {"move": next_move(table), "expected_seq": table.last_seq, "client_id": uuid.uuid4().hex},
    )
    assert status == 200, (status, body[:2000])


def table_for(gm, slug: str) -> Table:
    options = {"deck_mode": "virtual"} if slug == "contest" else {}
    return new_tables.create_table(gm, slug, ["Ana", "Bruno", "Caio"], seed=7, **options)


def wait_for_version(page, version: int, within: float) -> float:
    """Seconds until the page shows ``version`` (its panel fetched again), at most ``within``."""
    started = time.monotonic()
    page.wait_for_function(f"() => ({VERSION})() >= {version}", timeout=within * 1000)
    return time.monotonic() - started


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_a_move_reaches_the_table_page_by_the_push_and_by_polls_when_it_is_blocked(
    laptop, gm, slug
) -> None:
    page, sender = laptop
    table = table_for(gm, slug)
    opened, frames = listening(page)
    page.goto(f"/tables/{table.pk}/")
    page.evaluate(NO_POLLS)
    first_frame(page, opened, frames)  # open, the current version heard
    assert opened and opened[0].url.endswith("/push/?key=" + opened[0].url.rsplit("key=", 1)[1])
    polls = []
    page.on("request", lambda r: polls.append(r.url) if "/poll/" in r.url else None)
    before = page.evaluate(VERSION)
    send_move(sender, table)
    table.refresh_from_db()
    assert table.version > before
    wait_for_version(page, table.version, within=1.0)
    assert polls == []  # the push alone brought it

    # The push blocked (a proxy that drops the upgrade): the page follows by its polls.
    page.route_web_socket("**/push/**", lambda ws: ws.close())
    page.goto(f"/tables/{table.pk}/")
    # Polls every 300 ms from now (a page shown again asks at once, then at its pace).
    page.evaluate(
        "() => { document.querySelector('[data-poll]').setAttribute('data-poll-every', '300');"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    send_move(sender, table)
    table.refresh_from_db()
    wait_for_version(page, table.version, within=5.0)
    assert any("/poll/" in url for url in polls)


def listening(page) -> tuple[list, list[str]]:
    """The page's websockets as they open, and every frame they hear, from now on."""
    sockets: list = []
    frames: list[str] = []

    def opened(ws) -> None:
        sockets.append(ws)
        ws.on("framereceived", lambda frame: frames.append(frame))  # a function: Playwright tags it

    page.on("websocket", opened)
    return sockets, frames


def first_frame(page, sockets: list, frames: list) -> None:
    """Wait until the page's push has spoken once (the version it connected at): for the
    socket to open, then for its first frame, as events (none lost: Playwright hands them to
    the handlers only inside its own calls, after the waiter is set)."""
    if not sockets:
        page.wait_for_event("websocket", timeout=10_000)
    if not frames:
        sockets[0].wait_for_event("framereceived", timeout=10_000)
    assert frames, "the push never spoke"


@contextmanager
def seat_phone(browser, push_server, seat, script: str | None = None):
    """A phone on ``seat``'s page (an Amnesia table's), its polls off and its push heard once
    (open, the current version heard): (page, the frames it hears from now on). ``script``
    runs in the page before its own."""
    phone = browser.new_context(base_url=f"http://127.0.0.1:{push_server.port}")
    try:
        page = phone.new_page()
        if script:
            page.add_init_script(script)
        sockets, frames = listening(page)
        page.goto(f"/seat/{seat.token}/amnesia/")
        page.evaluate(NO_POLLS)
        first_frame(page, sockets, frames)
        yield page, frames
    finally:
        phone.close()


def test_a_seat_connection_hears_the_version_alone(laptop, gm, browser, push_server) -> None:
    page, sender = laptop
    table = table_for(gm, "amnesia")
    seat = table.seats.get(name="Bruno")
    with seat_phone(browser, push_server, seat) as (bruno, frames):
        send_move(sender, table)
        table.refresh_from_db()
        wait_for_version(bruno, table.version, within=1.0)
        assert frames, "the seat's page heard nothing"
        assert [json.loads(f) for f in frames] == [
            {"version": v} for v in [table.version - 1, table.version]
        ]

        # Pushes coalesce: moves in a burst never put two fetches of the panel in flight, nor
        # one per move queued; the last one's panel comes within a second of it.
        panel = f"/seat/{seat.token}/amnesia/"
        flight = {"now": 0, "most": 0, "fetches": 0}

        def went(request) -> None:
            if request.url.endswith(panel) and request.headers.get("hx-request"):
                flight["now"] += 1
                flight["fetches"] += 1
                flight["most"] = max(flight["most"], flight["now"])

        def ended(request) -> None:
            if request.url.endswith(panel) and request.headers.get("hx-request"):
                flight["now"] -= 1

        bruno.on("request", went)
        bruno.on("requestfinished", ended)
        bruno.on("requestfailed", ended)
        for _ in range(4):
            send_move(sender, table)
            table.refresh_from_db()
        wait_for_version(bruno, table.version, within=1.0)
        # timing: a fetch that should not come, had it been queued, is given time to come.
        bruno.wait_for_timeout(200)  # timing: (see above)
        assert flight["most"] == 1, flight
        assert 1 <= flight["fetches"] <= 4, flight

        # A hidden page (a phone in a pocket) fetches nothing; shown again, it fetches at once.
        bruno.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => "
            "true}); document.dispatchEvent(new Event('visibilitychange')); }"
        )
        fetched = flight["fetches"]
        send_move(sender, table)
        table.refresh_from_db()
        bruno.wait_for_timeout(400)  # timing: a hidden page's fetch, if it made one, would come
        assert flight["fetches"] == fetched
        assert bruno.evaluate(VERSION) < table.version
        bruno.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => "
            "false}); document.dispatchEvent(new Event('visibilitychange')); }"
        )
        assert wait_for_version(bruno, table.version, within=1.0) < 1.0
        assert flight["fetches"] == fetched + 1


# Times on the page's own clock: each push frame heard, each fetch of the panel sent.
STOPWATCH = """
window.__heard = []; window.__sent = [];
const Socket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = new Socket(url, protocols);
  ws.addEventListener("message", () => window.__heard.push(performance.now()));
  return ws;
};
window.WebSocket.prototype = Socket.prototype;
const send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.send = function (body) {
  window.__sent.push(performance.now());
  return send.call(this, body);
};
"""


def page_spread() -> float:
    """live.js's PUSH_SPREAD, in milliseconds (bench/push.py's phones read it the same way)."""
    script = (settings.BASE_DIR / "static" / "js" / "live.js").read_text()
    found = re.search(r"var PUSH_SPREAD = (\d+);", script)
    assert found, "static/js/live.js says no PUSH_SPREAD"
    return float(found.group(1))


def test_a_pushed_version_is_fetched_within_the_spread(laptop, gm, browser, push_server) -> None:
    """The screens of a table hear a move at once, and each fetches its panel after a wait drawn
    below PUSH_SPREAD, so they do not reach the server in one burst: with the draw at its top
    the fetch waits most of the spread, at its bottom it goes at once."""
    spread = page_spread()
    assert 20 <= spread <= 250  # long enough to spread a table's panels, short beside 300 ms
    _page, sender = laptop
    table = table_for(gm, "amnesia")
    seat = table.seats.get(name="Caio")
    with seat_phone(browser, push_server, seat, STOPWATCH) as (caio, _frames):
        # The wait drawn for the version heard at connect runs out first (a version heard
        # during a wait is covered by it, and would be fetched when it ends).
        caio.wait_for_timeout(spread + 50)  # timing: the spread drawn at connect, run out
        waits = []
        for draw in (0.999, 0.0):
            caio.evaluate(f"() => {{ Math.random = () => {draw}; window.__sent = []; }}")
            send_move(sender, table)
            table.refresh_from_db()
            wait_for_version(caio, table.version, within=1.0)
            waits.append(caio.evaluate("() => window.__sent[0] - window.__heard.at(-1)"))
    top, bottom = waits
    assert spread * 0.9 <= top <= spread + 200, waits
    assert bottom < spread * 0.5, waits


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits() if kit.seat_page])
def test_a_phone_hears_an_undo_after_the_end(laptop, gm, browser, push_server, slug) -> None:
    """After the end a seat's page keeps its push: the game master's undo of the last move
    (on the table page) brings the phone back into the game with its polls off."""
    page, _sender = laptop
    table = new_tables.import_script(ended_game(slug), gm)
    assert table.status == Table.Status.FINISHED
    end_revealed(table)
    seat = table.seats.order_by("position").first()
    assert seat is not None
    phone = browser.new_context(base_url=f"http://127.0.0.1:{push_server.port}")
    try:
        seat_page = phone.new_page()
        sockets, frames = listening(seat_page)
        seat_page.goto(reverse(registry.kit(slug).seat_page, args=[seat.token]))
        expect(seat_page.locator("[data-poll][data-version]")).to_have_count(1)  # it follows
        seat_page.evaluate(NO_POLLS)
        first_frame(seat_page, sockets, frames)
        impressions = seat_page.get_by_test_id("seat-impressions")
        expect(impressions).to_be_visible()

        page.goto(table.get_absolute_url())
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("details.undo-after-end summary").click()
        page.locator('form[action$="/undo/"] button').click()
        expect(page.locator("details.undo-after-end")).to_have_count(0)
        table.refresh_from_db()
        assert table.status != Table.Status.FINISHED
        wait_for_version(seat_page, table.version, within=1.0)
        expect(impressions).to_have_count(0)
    finally:
        phone.close()
