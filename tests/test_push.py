"""The push across processes (issue 50): two servers on one PostgreSQL database with Redis as
their channel layer; a move through one reaches a screen connected to the other. And what
serves the site on the laptop (make run: runserver) is Daphne's, which speaks websockets.

The test starts its own Redis (Debian's redis-server) on a free loopback port, and is skipped
with a message when it is missing, except in CI."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import get_commands
from django.db import connection, connections

from games import followers
from tests.games.long_games import next_move
from tests.serving import (
    Phone,
    Socket,
    collected_static,
    database_url,
    free_port,
    serve_env,
    start_server,
)

PASSWORD = "correct-horse-battery-staple"
ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture
def redis_url(tmp_path) -> Iterator[str]:
    """A Redis of this test's own on a free loopback port, nothing kept on disk."""
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is missing: run scripts/setup.sh as root to install it."
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_make_run_serves_through_daphne_which_speaks_websockets() -> None:
    assert get_commands()["runserver"] == "daphne"
    assert settings.ASGI_APPLICATION == "amnesia_site.asgi.application"


@pytest.mark.skipif(not ON_POSTGRES, reason="two server processes share PostgreSQL, not SQLite")
@pytest.mark.django_db(transaction=True)
def test_a_move_through_one_server_reaches_a_screen_on_the_other(
    redis_url, gm, make_table, test_media_dir, tmp_path
) -> None:
    gm.password = PBKDF2PasswordHasher().encode(PASSWORD, "pushtestsalt", iterations=1000)
    gm.save(update_fields=["password"])
    table = make_table("amnesia", ["Ana", "Bruno"])
    seat = table.seats.get(name="Bruno")
    before = table.version
    static = collected_static(serve_env("sqlite:///:memory:", tmp_path / "s", tmp_path / "m"))
    env = {
        **serve_env(database_url(connection.settings_dict), static, test_media_dir),
        "REDIS_URL": redis_url,
        "CACHE_KEY_PREFIX": f"push-test-{uuid.uuid4().hex}",
    }
    # Both started at once: each sets Django up on its own core.
    with ThreadPoolExecutor(2) as pool:
        one, two = pool.map(lambda name: start_server(env, tmp_path / f"{name}.log"), "ab")
    try:
        # A page on another site may not connect (the Origin is checked against the hosts).
        refused = Socket(one.port, f"/seat/{seat.token}/push/", "http://evil.example")
        assert refused.status == 403
        refused.close()
        screen = Socket(one.port, f"/seat/{seat.token}/push/", f"http://127.0.0.1:{one.port}")
        assert screen.status == 101, one.log()
        assert json.loads(screen.message(5)) == {"version": table.version}

        sender = Phone(two.port, host="127.0.0.1")
        sender.log_in(gm.username, PASSWORD)
        sent = time.monotonic()
        status, _h, body, _c = sender.post_json(
            f"/tables/{table.pk}/move/",
            {"move": next_move(table), "expected_seq": 0, "client_id": uuid.uuid4().hex},
        )
        assert status == 200, (status, body[:2000], two.log())
        heard = json.loads(screen.message(1))
        assert time.monotonic() - sent < 1.5
        table.refresh_from_db()
        assert heard == {"version": table.version} and table.version > before
        screen.close()
    finally:
        with ThreadPoolExecutor(2) as pool:  # each waits for its own end: at once
            list(pool.map(lambda server: server.stop(), (one, two)))


@pytest.mark.django_db(transaction=True)
def test_wrong_seat_links_on_the_push_count_as_guesses_and_a_guesser_is_refused(
    settings, make_table
) -> None:
    """The seat links' throttle covers the push as it covers the poll: each wrong token counts,
    and an address refused for guessing cannot connect even with a right one."""
    settings.SECRET_LINK_FAILURES = 2
    token = make_table("amnesia", ["Ana", "Bruno"]).seats.first().token
    address = f"10.9.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"  # counted apart

    connects = connector(address)

    assert connected(connects, f"/seat/{token}/push/")
    assert not connected(connects, "/seat/wrong-one/push/")
    assert connected(connects, f"/seat/{token}/push/")  # one guess: not yet refused
    assert not connected(connects, "/seat/wrong-two/push/")
    assert not connected(connects, f"/seat/{token}/push/")  # refused: two guesses


@pytest.mark.django_db(transaction=True)
def test_several_processes_without_redis_refuse_the_push(settings, make_table) -> None:
    """Each would hear only its own moves: the pages poll at their own pace instead."""
    token = make_table("amnesia", ["Ana", "Bruno"]).seats.first().token
    connects = connector("10.8.0.1")
    assert connected(connects, f"/seat/{token}/push/")
    settings.PUSH = False
    assert not connected(connects, f"/seat/{token}/push/")


def connected(connects, path: str) -> bool:
    """``connects(path)`` run on an event loop of its own, in a thread of its own: a browser
    test before this one in the same worker leaves Playwright's loop running in this thread,
    where asgiref's async_to_sync refuses to run."""

    async def once() -> bool:
        try:
            return await connects(path)
        finally:
            # The consumer read the database in asgiref's thread for sync code: its kept
            # connection closed there, or PostgreSQL cannot copy or drop the test database
            # while it is open ("being accessed by other users").
            await sync_to_async(connections.close_all)()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, once()).result()


def connector(address: str):
    """A connection to the push (Channels' test communicator) as from ``address``: whether it
    was accepted (and then its first message is the version alone)."""

    async def connects(path: str) -> bool:
        communicator = WebsocketCommunicator(
            followers.application(),
            path,
            headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")],
        )
        communicator.scope["client"] = (address, 5000)
        connected, _ = await communicator.connect()
        if connected:
            assert set(await communicator.receive_json_from()) == {"version"}
        await communicator.disconnect()
        return connected

    return connects
