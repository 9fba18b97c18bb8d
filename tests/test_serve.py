"""``manage.py serve`` (``make serve``) for real: Granian on a free port, DEBUG off, static files
served with long caching, a login and a move over plain HTTP from a phone's address; and two
servers on one PostgreSQL database keeping one table's log whole."""

from __future__ import annotations

import re
import threading
import uuid

import psutil
import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from django.utils import timezone

from games import registry
from games.models import Move, Table
from games.services import new_tables, reading, writing
from tests.conftest import PASSWORD
from tests.server_processes import granian_environment
from tests.serving import (
    Phone,
    database_url,
    serve_env,
    start_server,
)

pytestmark = pytest.mark.django_db(transaction=True)

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.fixture
def gm(gm):
    """The game master, with a password the servers can check: the tests' own fast hasher
    (conftest) is not one the servers know, so the hash is the site's default kind, made
    quick with few iterations."""
    gm.password = PBKDF2PasswordHasher().encode(PASSWORD, "servetestsalt", iterations=1000)
    gm.save(update_fields=["password"])
    return gm


# The tests that need a server with nothing special of it share the module's (below): they run
# on one test worker (xdist's group), so it starts once a run (each start is four processes
# setting Django up: serve, Granian and its worker).
SHARED_SERVER = pytest.mark.xdist_group("serve")


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, static_root, test_media_dir, tmp_path_factory):
    """One server for the module, on the test database (SQLite's file or PostgreSQL's), with
    --threads and --poll-threads off their defaults (for the test of their sizes). Between tests
    pytest-django empties the tables under it: its connections stay open, idle, holding no
    lock, and nothing it keeps in memory is read by id after its rows went (new rows take new
    ids, on both engines)."""
    with django_db_blocker.unblock():
        env = serve_env(database_url(connection.settings_dict), static_root, test_media_dir)
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    running = start_server(env, log, "--threads", "3", "--poll-threads", "5")
    yield running
    running.stop()


def _links(page: bytes, pattern: str) -> list[str]:
    return re.findall(pattern.encode(), page)


# SQLite only (tests/conftest.py), this test and the threads' below: they read the server's
# processes, headers, static files and pools (the threads' one poll is the poll test's, which
# runs on both engines); on PostgreSQL each flushed every table after it (1 to 2 s). The
# module's server still starts there for the moves, the polls and the two servers.
@SHARED_SERVER
@pytest.mark.sqlite_only
def test_the_server_is_granian_with_debug_off_and_long_cached_static_files(server):
    phone = Phone(server.port)
    status, headers, page, _ = phone.get("/")
    assert status == 200, server.log()
    assert headers.get("server") == "granian"  # not runserver's WSGIServer
    # The serve command's process supervises Granian, its child.
    children = psutil.Process(server.process.pid).children()
    assert [c for c in children if "granian" in c.cmdline()]
    assert not [c for c in children if "runserver" in c.cmdline()]
    # DEBUG off: a missing page is the site's own 404, never Django's technical page.
    status, _headers, body, _ = phone.get("/no-such-page/")
    assert status == 404 and b"URLconf" not in body and b"Traceback" not in body
    sheets = _links(page, r'href="(/static/[^"]+\.css)"')
    scripts = _links(page, r'src="(/static/[^"]+\.js)"')
    assert sheets and scripts
    for path in [*sheets, *scripts]:
        path = path.decode()
        assert re.search(r"\.[0-9a-f]{12}\.(css|js)$", path), f"{path} has no hash in its name"
        status, headers, body, _ = phone.get(path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and body, path
        assert "max-age=315360000" in headers["cache-control"], (path, headers)
        assert "immutable" in headers["cache-control"]
    # The site's own headers are on the server's answers too.
    assert "content-security-policy" in {k for k in phone.get("/")[1]}


@SHARED_SERVER
def test_a_phone_logs_in_and_plays_a_move_over_plain_http(server, gm, make_table):
    table = make_table("amnesia", ["Ana", "Bruno"])
    phone = Phone(server.port)  # Host: 192.168.1.20:PORT, as a phone on the Wi-Fi sends
    phone.log_in(gm.username, PASSWORD)
    status, _headers, _body, set_cookies = phone.get(f"/tables/{table.pk}/")
    assert status == 200
    status, headers, body, set_cookies = phone.post_form(
        f"/tables/{table.pk}/move/",
        {
            "by": "Ana",
            "do": "continue",
            "text": "Over the Wi-Fi.",
            "expected_seq": 0,
            "client_id": uuid.uuid4().hex,
            "csrfmiddlewaretoken": phone.cookies["csrftoken"],
        },
    )
    assert status == 302, (status, body[:3000], server.log())
    assert headers["location"].endswith(f"/tables/{table.pk}/")
    move = Move.objects.get(table=table)
    assert move.payload == {"by": "Ana", "do": "continue"} and move.text == "Over the Wi-Fi."
    # Plain HTTP: no cookie may be marked Secure, or the phone would never send it back.
    status, _headers, _body, set_cookies = phone.get("/accounts/login/")
    assert all("secure" not in c.lower() for c in set_cookies)
    # A Host nobody configured is refused.
    assert Phone(server.port, host="evil.example").get("/")[0] == 400


@SHARED_SERVER
def test_the_poll_answers_through_the_server(server, gm, make_table):
    table = make_table("amnesia", ["Ana", "Bruno"])
    seat = table.seats.first()
    phone = Phone(server.port)
    status, headers, body, _ = phone.get(f"/seat/{seat.token}/poll/?since=0")
    assert status == 204 and not body and "set-cookie" not in headers
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    status, headers, body, _ = phone.get(f"/seat/{seat.token}/poll/?since=0")
    assert status == 200 and headers["hx-trigger"] == "table-changed"


@SHARED_SERVER
@pytest.mark.sqlite_only
def test_the_server_gives_pages_and_polls_their_own_threads(server, make_table):
    """--threads and --poll-threads size the app's two pools (amnesia_site/lanes.py), and
    both answer: a poll and a page."""
    table = make_table("amnesia", ["Ana", "Bruno"])
    seat = table.seats.first()
    environment = granian_environment(server.process.pid)
    assert environment["THREADS"] == "3" and environment["POLL_THREADS"] == "5"
    phone = Phone(server.port)
    assert phone.get(f"/seat/{seat.token}/poll/?since={table.version}")[0] == 204
    assert phone.get("/")[0] == 200


@SHARED_SERVER
@pytest.mark.skipif(not ON_POSTGRES, reason="several processes on one database: PostgreSQL")
def test_two_servers_on_one_database_keep_one_log_whole(server, server_env, tmp_path, gm):
    """Conflicting moves on one table through two server processes: every round one of the
    two is stored and the other refused as stale, so the log is 1..N with nothing lost or
    stored twice; a move sent again through the other server is answered, not stored."""
    _name, script = registry.kit("amnesia").demos(timezone.now())[0]
    moves = [{k: v for k, v in m.items() if k not in ("at", "text")} for m in script["moves"]]
    table = new_tables.import_script({**script, "moves": []}, gm, name="Two servers")
    # The module's server and one more.
    other = start_server(server_env, tmp_path / "serve-1.log")
    servers = [server, other]
    try:
        phones = [Phone(s.port) for s in servers]
        for phone in phones:
            phone.log_in(gm.username, PASSWORD)
        url = f"/tables/{table.pk}/move/"
        stored: list[str] = []
        refused: list[str] = []
        for seq, move in enumerate(moves):
            answers: dict[str, tuple[int, bytes]] = {}

            def send(phone: Phone, client_id: str, move=move, seq=seq, answers=answers) -> None:
                status, _h, body, _c = phone.post_json(
                    url, {"move": move, "expected_seq": seq, "client_id": client_id}
                )
                answers[client_id] = (status, body)

            ids = [uuid.uuid4().hex for _ in phones]
            threads = [
                threading.Thread(target=send, args=(p, i)) for p, i in zip(phones, ids, strict=True)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            statuses = sorted(answers[i][0] for i in ids)
            assert statuses == [200, 409], (seq, answers, servers[0].log(), servers[1].log())
            stored += [i for i in ids if answers[i][0] == 200]
            refused += [i for i in ids if answers[i][0] == 409]
        # The first move again, through the other server: its stored answer, nothing new.
        first = Move.objects.get(table=table, seq=1)
        status, _h, body, _c = phones[1].post_json(
            url, {"move": moves[0], "expected_seq": 0, "client_id": first.client_id}
        )
        assert status == 200 and b'"seq": 1' in body
    finally:
        other.stop()
    rows = list(Move.objects.filter(table=table).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(moves) + 1))
    assert [r.client_id for r in rows] == stored
    assert not Move.objects.filter(client_id__in=refused).exists()
    assert [r.payload for r in rows] == moves
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.last_seq == len(moves) and fresh.version == len(moves)
    assert reading.rebuild_state(fresh) == fresh.state


def _redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:
        return False


REDIS_URL = "redis://127.0.0.1:6379/0"


# SQLite only (tests/conftest.py): the counts it checks are kept in Redis, whichever engine
# holds the seats (the seat links' own tests run on both); on PostgreSQL it started two more
# servers (12 to 14 s under load).
@pytest.mark.sqlite_only
@pytest.mark.skipif(not _redis_answers(REDIS_URL), reason="no Redis at 127.0.0.1:6379")
def test_two_servers_with_redis_count_wrong_seat_links_together(server_env, tmp_path, make_table):
    """With REDIS_URL the throttles' counters are shared: wrong links tried through one server
    count on the other too (each process's own memory would forget them)."""
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    env = {
        **server_env,
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": f"serve-test-{uuid.uuid4().hex}",  # this test's counters only
        "SECRET_LINK_FAILURES": "3",
    }
    servers = [start_server(env, tmp_path / f"redis-{n}.log") for n in range(2)]
    try:
        one, two = (Phone(s.port) for s in servers)
        assert one.get("/seat/wrong-1/poll/")[0] == 404
        assert one.get("/seat/wrong-2/poll/")[0] == 404
        assert two.get(f"/seat/{table.seats.first().token}/poll/?since=0")[0] == 204
        assert two.get("/seat/wrong-3/poll/")[0] == 404  # the third, through the other server
        assert one.get(f"/seat/{table.seats.first().token}/poll/?since=0")[0] == 429
    finally:
        for running in servers:
            running.stop()
