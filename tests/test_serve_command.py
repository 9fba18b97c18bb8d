"""``manage.py serve`` before it serves: the deploy checks behind TLS, the demo password and
account, the secret key, the server's environment and addresses, the command it runs, and a
port already held."""

from __future__ import annotations

import os
import secrets
import stat
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from amnesia_site.workers import lifeline
from games.management.commands import serve
from games.management.commands.demo import DEMO_PASSWORD, DEMO_USER
from tests.serving import (
    PHONE_ADDRESS,
    ROOT,
    free_port,
)

# Only the demo account's tests reach the database (the command reads it in this process, on
# the test's connection): the others check pure functions, a subprocess on no test database
# or a port, and run on SQLite alone (tests/conftest.py), where a PostgreSQL run flushed every
# table after each (about 0.8 s a test there, ``check --deploy``'s 2.5 s besides).


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
        # A database of its own, never the checkout's db.sqlite3: after `make run` that one
        # holds the demo tables, whose pages the deep check of secrets then renders with no
        # static manifest here (make run, then make test, failed on it); on a fresh checkout
        # the check made an empty db.sqlite3 there.
        DATABASE_URL=f"sqlite:///{tmp_path / 'check.sqlite3'}",
    )
    checkout_database = (ROOT / "db.sqlite3").exists()
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
    assert (ROOT / "db.sqlite3").exists() == checkout_database


# -- the command's own checks (in this process) ------------------------------------------
@pytest.mark.django_db
def test_serve_refuses_the_network_while_the_demo_password_is_published(
    django_user_model, capsys, monkeypatch
):
    demo = django_user_model.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
    # The set-up's interpreter: the refusal names the commands as README.md has them typed (a
    # bare "python" on a fresh machine has no Django).
    monkeypatch.setattr(sys, "executable", str(ROOT / ".venv" / "bin" / "python"))
    with pytest.raises(CommandError) as refused:
        call_command("serve", host="0.0.0.0", no_setup=True, dry_run=True, addresses="10.0.0.2")
    said = str(refused.value)
    assert "\n    .venv/bin/python manage.py changepassword demo\n" in said
    assert "\n    .venv/bin/python manage.py demo --retire\n" in said
    # This machine only: the demo is fine.
    call_command("serve", host="127.0.0.1", no_setup=True, dry_run=True, addresses="10.0.0.2")
    demo.set_password("a-password-of-our-own")
    demo.save()
    call_command("serve", host="0.0.0.0", no_setup=True, dry_run=True, addresses="10.0.0.2")
    assert "http://10.0.0.2:8000/" in capsys.readouterr().out


@pytest.mark.django_db
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


def test_a_command_is_named_as_it_is_typed_at_the_checkout(monkeypatch, tmp_path):
    """The set-up's .venv by its path from the checkout; any other interpreter by its own."""
    from games.management.typed import manage_py

    monkeypatch.setattr(sys, "executable", str(ROOT / ".venv" / "bin" / "python"))
    assert manage_py("demo", "--retire") == ".venv/bin/python manage.py demo --retire"
    elsewhere = tmp_path / "bin" / "python3"
    monkeypatch.setattr(sys, "executable", str(elsewhere))
    assert manage_py("migrate") == f"{elsewhere} manage.py migrate"
