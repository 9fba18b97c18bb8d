"""``manage.py serve`` (``make serve``) for real: Granian on a free port, DEBUG off, static files
served with long caching, a login and a move over plain HTTP from a phone's address; and two
servers on one PostgreSQL database keeping one table's log whole."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import shutil
import signal
import ssl
import stat
import subprocess
import sys
import threading
import uuid

import psutil
import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from amnesia_site.workers import lifeline, work
from amnesia_site.workers.models import WorkerBeat
from games import registry, services
from games.management.commands import serve
from games.management.commands.demo import DEMO_PASSWORD, DEMO_USER
from games.models import Move, Table
from tests.conftest import PASSWORD
from tests.serving import (
    PHONE_ADDRESS,
    ROOT,
    Phone,
    collected_static,
    database_url,
    free_port,
    serve_env,
    start_server,
)
from tests.workers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    unused = tmp_path_factory.mktemp("serve-unused")
    return collected_static(serve_env("sqlite:///:memory:", unused / "static", unused / "media"))


@pytest.fixture
def server_env(static_root, test_media_dir):
    return serve_env(database_url(connection.settings_dict), static_root, test_media_dir)


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
# setting Django up: serve, Granian and its worker, the polls' own process).
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


@SHARED_SERVER
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


def test_serve_runs_the_workers_and_starts_again_one_that_died(server_env, tmp_path):
    """make serve: a worker for the books, one for the long runs and one for the uploaded
    pictures beside Granian; a worker killed is started again; stopping the server stops them
    all, the polls' own process too."""
    log = tmp_path / "serve.log"
    server = start_server(server_env, log, workers=True)
    try:

        def workers() -> dict[str, int]:
            return {
                w.queues: w.pid
                for w in WorkerBeat.objects.filter(host=work.HOST)
                if not work.gone(w)
            }

        first = wait_for(lambda: len(workers()) == 3 and workers(), "three workers", log=log)
        assert set(first) == {"books", "long", "pictures"}
        supervised = {c.pid for c in psutil.Process(server.process.pid).children()}
        assert set(first.values()) <= supervised
        os.kill(first["books"], signal.SIGKILL)
        again = wait_for(
            lambda: workers().get("books") not in (None, first["books"]) and workers(),
            "the books worker started again",
            log=log,
        )
        # the others untouched
        assert (again["long"], again["pictures"]) == (first["long"], first["pictures"])
        assert "The books worker stopped (exit status -9): started again" in log.read_text()
        polls = wait_for(
            lambda: poll_process(server.process.pid), "the poll process under Granian's worker"
        )
        children = psutil.Process(server.process.pid).children(recursive=True)
    finally:
        server.stop()
    assert server.process.returncode == 0
    for child in children:  # Granian, its workers, the task workers: all gone with it
        assert not psutil.pid_exists(child.pid) or child.status() == psutil.STATUS_ZOMBIE
    # The polls' own process too (stopped by its worker, or ending when the worker's pipe
    # closes).
    wait_for(lambda: not running_still(polls), "the poll process gone with the server")


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
    services.play(table, {"by": "Ana", "do": "continue"}, 0, gm)
    status, headers, body, _ = phone.get(f"/seat/{seat.token}/poll/?since=0")
    assert status == 200 and headers["hx-trigger"] == "table-changed"


def granian_environment(serve_pid: int) -> dict[str, str]:
    """The environment of the Granian process ``serve`` started (a child of it)."""
    for child in psutil.Process(serve_pid).children():
        if any("granian" in part for part in child.cmdline()):
            return child.environ()
    raise AssertionError(f"no Granian process under serve ({serve_pid})")


@SHARED_SERVER
def test_the_server_gives_pages_and_polls_their_own_threads(server, make_table):
    """--threads and --poll-threads size the app's two pools (amnesia_site/lanes.py), and the
    polls' own process under Granian's worker (amnesia_site/pollserver.py) has as many threads
    (that it goes with the server: the test of the workers, whose server stops)."""
    table = make_table("amnesia", ["Ana", "Bruno"])
    seat = table.seats.first()
    environment = granian_environment(server.process.pid)
    assert environment["THREADS"] == "3" and environment["POLL_THREADS"] == "5"
    phone = Phone(server.port)
    assert phone.get(f"/seat/{seat.token}/poll/?since={table.version}")[0] == 204
    assert phone.get("/")[0] == 200
    child = wait_for(
        lambda: poll_process(server.process.pid), "the poll process under Granian's worker"
    )
    assert child.environ()["POLL_THREADS"] == "5"


def poll_process(serve_pid: int) -> psutil.Process | None:
    """The polls' own process, a child of Granian's worker under ``serve``."""
    for process in psutil.Process(serve_pid).children(recursive=True):
        try:
            if "amnesia_site.pollserver" in process.cmdline():
                return process
        except psutil.NoSuchProcess:  # a process that ended while the tree was read
            continue
    return None


def running_still(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@SHARED_SERVER
@pytest.mark.skipif(not ON_POSTGRES, reason="several processes on one database: PostgreSQL")
def test_two_servers_on_one_database_keep_one_log_whole(server, server_env, tmp_path, gm):
    """Conflicting moves on one table through two server processes: every round one of the
    two is stored and the other refused as stale, so the log is 1..N with nothing lost or
    stored twice; a move sent again through the other server is answered, not stored."""
    _name, script = registry.kit("amnesia").demos(timezone.now())[0]
    moves = [{k: v for k, v in m.items() if k not in ("at", "text")} for m in script["moves"]]
    table = services.import_script({**script, "moves": []}, gm, name="Two servers")
    # The module's server and one more, without the polls' own process (no polls here).
    other = start_server({**server_env, "POLL_PROCESS": "0"}, tmp_path / "serve-1.log")
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
    assert services.rebuild_state(fresh) == fresh.state


@pytest.mark.skipif(not shutil.which("openssl"), reason="openssl makes the test certificate")
def test_https_mode_serves_a_self_signed_certificate_with_secure_cookies(server_env, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-subj", "/CN=amnesia-table", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    # No polls here: without the polls' own process (the shared server's tests have it).
    env = {**server_env, "SERVE_CERT": str(cert), "SERVE_KEY": str(key), "POLL_PROCESS": "0"}
    running = start_server(env, tmp_path / "https.log", "--https")
    try:
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False  # the certificate names no address: phones warn once
        connection = http.client.HTTPSConnection("127.0.0.1", running.port, context=context)
        connection.request("GET", "/accounts/login/", headers={"Host": f"{PHONE_ADDRESS}:1"})
        response = connection.getresponse()
        response.read()
        cookies = response.headers.get_all("Set-Cookie") or []
        connection.close()
    finally:
        running.stop()
    assert response.status == 200, running.log()
    assert cookies and all("secure" in c.lower() for c in cookies)
    assert response.getheader("Strict-Transport-Security") is None  # never HSTS here


def _redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:
        return False


REDIS_URL = "redis://127.0.0.1:6379/0"


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
    # The first with the polls' own process (which reads the shared counts: its 429 below),
    # the second without (its polls are answered in its own pool): a process less to start.
    servers = [
        start_server(env, tmp_path / "redis-0.log"),
        start_server({**env, "POLL_PROCESS": "0"}, tmp_path / "redis-1.log"),
    ]
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


def test_check_deploy_is_clean_for_the_served_app_behind_tls(tmp_path):
    """WhiteNoise and a PUBLIC_URL behind a TLS proxy: the HTTPS settings stay on (only the
    serve command turns them off, for plain HTTP) and ``check --deploy`` has nothing to say."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"}
        and not k.startswith(("SECURE_", "SESSION_", "CSRF_", "DJANGO_"))
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        SERVE_STATIC="1",
        PUBLIC_URL="https://table.example.com",
        LAN_ADDRESSES="192.168.1.20",
        SECURE_PROXY_SSL_HEADER="1",
        STATIC_ROOT=str(tmp_path),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_a_killed_serve_takes_every_child_with_it_and_frees_the_port(server_env, tmp_path):
    """kill -9 of ``serve`` stops nobody itself: Granian (and so its worker and the polls'
    own process) ends by the kernel's parent-death signal, and the port is free for a new
    serve (orphans used to keep it, and a new serve bound it beside them). The task workers
    die the same way (tests/test_workers.py, with quicker stand-ins)."""
    server = start_server(server_env, tmp_path / "serve.log")
    children: list[psutil.Process] = []
    try:
        wait_for(lambda: poll_process(server.process.pid), "the poll process")
        children = psutil.Process(server.process.pid).children(recursive=True)
        commands = [" ".join(c.cmdline()) for c in children]
        assert sum("granian" in c for c in commands) == 2, commands  # Granian and its worker
        assert any("amnesia_site.pollserver" in c for c in commands), commands
        server.process.kill()
        server.process.wait(timeout=10)
        wait_for(
            lambda: not any(running_still(c) for c in children),
            "every child of the killed serve gone",
            timeout=20,
            log=server.output,
        )
        wait_for(lambda: not lifeline.port_in_use("127.0.0.1", server.port), "the port free")
    finally:
        server.stop()
        for child in children:  # on the code as it was: the orphans, stopped here
            if running_still(child):
                child.kill()


# -- the command's own checks (in this process) ------------------------------------------
def test_serve_refuses_the_network_while_the_demo_password_is_published(django_user_model, capsys):
    demo = django_user_model.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
    with pytest.raises(CommandError) as refused:
        call_command("serve", host="0.0.0.0", no_setup=True, dry_run=True, addresses="10.0.0.2")
    assert "changepassword demo" in str(refused.value) and "demo --retire" in str(refused.value)
    # This machine only: the demo is fine.
    call_command("serve", host="127.0.0.1", no_setup=True, dry_run=True, addresses="10.0.0.2")
    demo.set_password("a-password-of-our-own")
    demo.save()
    call_command("serve", host="0.0.0.0", no_setup=True, dry_run=True, addresses="10.0.0.2")
    assert "http://10.0.0.2:8000/" in capsys.readouterr().out


def test_a_retired_demo_account_stays_retired(django_user_model):
    call_command("demo", "--retire")
    demo = django_user_model.objects.get(username=DEMO_USER)
    assert not demo.is_active and not demo.has_usable_password()
    assert not serve.demo_password_in_use()
    call_command("serve", host="0.0.0.0", no_setup=True, dry_run=True, addresses="10.0.0.2")


def test_the_secret_key_is_made_once_readable_by_its_owner_only(tmp_path):
    path = serve.secret_key_file(tmp_path / "key")
    key = path.read_text().strip()
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert serve.secret_key_file(tmp_path / "key").read_text().strip() == key


def test_the_server_environment_is_plain_http_with_debug_off(tmp_path):
    env = serve.server_environment(
        {"DEBUG": "1"}, key_file=tmp_path / "key", addresses=[PHONE_ADDRESS], https=False
    )
    assert env["DEBUG"] == "0" and env["SERVE_STATIC"] == "1"
    assert env["SECRET_KEY_FILE"] == str(tmp_path / "key")
    assert env["LAN_ADDRESSES"] == PHONE_ADDRESS
    for name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
        assert env[name] == "0", name
    assert env["SECURE_HSTS_SECONDS"] == "0"
    behind_tls = serve.server_environment(
        {"SESSION_COOKIE_SECURE": "1"}, key_file=tmp_path / "k", addresses=[], https=False
    )
    assert behind_tls["SESSION_COOKIE_SECURE"] == "1"  # said explicitly: kept
    https = serve.server_environment({}, key_file=tmp_path, addresses=[], https=True)
    assert https["SESSION_COOKIE_SECURE"] == https["CSRF_COOKIE_SECURE"] == "1"


def test_the_addresses_follow_the_host_it_binds():
    assert serve.lan_addresses_for("127.0.0.1", None) == []
    assert serve.lan_addresses_for("192.168.7.7", None) == ["192.168.7.7"]
    assert serve.lan_addresses_for("0.0.0.0", ["10.1.1.1"]) == ["10.1.1.1"]
    assert all(a.count(".") == 3 for a in serve.lan_addresses_for("0.0.0.0", None))


def test_the_server_command_is_granian_running_the_two_lanes():
    command = serve.granian_command("0.0.0.0", 8123, 2, None)
    assert command[1:3] == ["-m", "granian"]
    # The site's WSGI application, in the lanes' two pools of threads (amnesia_site/lanes.py).
    assert command[command.index("--interface") + 1] == "asgi"
    assert command[-1] == "amnesia_site.served:application"
    assert "--port" in command and "8123" in command and "runserver" not in command


def _listener(port: int) -> subprocess.Popen:
    """Another program listening on ``port`` (once it does)."""
    code = (
        "import socket, sys, time; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1])))"
        "; s.listen(); print('up', flush=True); time.sleep(60)"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, str(port)], stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline() == b"up\n"
    return holder


@pytest.mark.parametrize("command", ["serve", "devserver"])
def test_a_server_refuses_a_port_held_and_says_by_whom(command):
    port = free_port()
    holder = _listener(port)
    try:
        with pytest.raises(CommandError) as refused:
            if command == "serve":
                call_command(
                    "serve", host="127.0.0.1", port=port, no_setup=True, addresses="10.0.0.2"
                )
            else:
                call_command("devserver", f"127.0.0.1:{port}", no_workers=True)
        said = str(refused.value)
        assert f"Port {port} is already in use, by process {holder.pid} (" in said
        assert "socket.socket()" in said  # its command line
    finally:
        holder.kill()
        holder.wait()
    # Free again: no refusal (the check alone: nothing is started here).
    assert lifeline.refuse_if_held("127.0.0.1", port) is None
