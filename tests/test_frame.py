"""The frame around the games: settings from the environment, the database, and accounts."""

from __future__ import annotations

import os
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from amnesia_site.settings import SQLITE_OPTIONS, database_config, env_bool, env_list
from tests.conftest import PASSWORD as GM_PASSWORD

BASE_DIR = Path(__file__).resolve().parents[1]
PASSWORD = "a-long-and-unusual-passphrase"


def run_python(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run Python in the project root with a clean settings environment plus `env`."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"}
        and not key.startswith(("SECURE_", "SESSION_", "CSRF_", "DJANGO_"))
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


# ---- Settings from the environment ---------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "engine"),
    [
        ("", "django.db.backends.sqlite3"),
        (None, "django.db.backends.sqlite3"),
        ("sqlite:////tmp/amnesia.sqlite3", "django.db.backends.sqlite3"),
        ("postgres://postgres@127.0.0.1:5432/amnesia_table", "django.db.backends.postgresql"),
        ("postgresql://u:p@db.example.com/amnesia", "django.db.backends.postgresql"),
    ],
)
def test_database_url_picks_the_engine(url: str | None, engine: str) -> None:
    assert database_config(url)["ENGINE"] == engine


def test_sqlite_gets_wal_immediate_and_a_file_test_database() -> None:
    config = database_config("sqlite:////srv/amnesia/db.sqlite3")
    assert config["NAME"] == "/srv/amnesia/db.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert config["TEST"]["NAME"] == str(
        Path(tempfile.gettempdir()) / f"amnesia-test-{os.getpid()}.sqlite3"
    )
    # kept across requests, as PostgreSQL's: opening one costs a panel a third of its CPU
    assert (config["CONN_MAX_AGE"], config["CONN_HEALTH_CHECKS"]) == (60, True)


def test_default_database_is_sqlite_beside_manage_py() -> None:
    assert database_config(None)["NAME"] == str(BASE_DIR / "db.sqlite3")


def test_postgres_keeps_connections_and_checks_them() -> None:
    config = database_config("postgres://u:secret@db:5433/amnesia", conn_max_age=30)
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("amnesia", "u", "secret")
    assert (config["HOST"], config["PORT"]) == ("db", 5433)
    assert config["CONN_MAX_AGE"] == 30
    assert config["CONN_HEALTH_CHECKS"] is True
    assert "OPTIONS" not in config or "transaction_mode" not in config["OPTIONS"]


def test_env_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMNESIA_FLAG", "off")
    assert env_bool("AMNESIA_FLAG", True) is False
    monkeypatch.setenv("AMNESIA_FLAG", "")
    assert env_bool("AMNESIA_FLAG", True) is True
    monkeypatch.setenv("AMNESIA_FLAG", "maybe")
    with pytest.raises(Exception, match="not a boolean"):
        env_bool("AMNESIA_FLAG", True)
    monkeypatch.setenv("AMNESIA_HOSTS", " a.example , b.example ,")
    assert env_list("AMNESIA_HOSTS", []) == ["a.example", "b.example"]


def test_test_settings_allow_the_test_client_and_local_hosts() -> None:
    for host in ("testserver", "localhost", "127.0.0.1"):
        assert host in settings.ALLOWED_HOSTS
    assert "django_htmx" in settings.INSTALLED_APPS
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE
    assert [code for code, _name in settings.LANGUAGES] == ["en", "pt-br", "ja"]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = run_python("-c", "import amnesia_site.settings", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_is_clean_with_production_settings(tmp_path: Path) -> None:
    checkout_database = (BASE_DIR / "db.sqlite3").exists()
    result = run_python(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.com",
        # Its own database: the checkout's db.sqlite3 is the developer's (make run's demo).
        DATABASE_URL=f"sqlite:///{tmp_path / 'check.sqlite3'}",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stderr
    assert (BASE_DIR / "db.sqlite3").exists() == checkout_database


# ---- The database connection ---------------------------------------------------------------

sqlite_only = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="SQLite's own settings",
)


@sqlite_only
@pytest.mark.django_db
def test_sqlite_connection_is_in_wal_mode_with_a_busy_timeout() -> None:
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert cursor.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert connection.transaction_mode == SQLITE_OPTIONS["transaction_mode"]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_sqlite_transactions_take_the_write_lock_when_they_begin() -> None:
    """With IMMEDIATE, a transaction holds the write lock from BEGIN, before it reads anything
    that another writer could make stale."""
    other = sqlite3.connect(connection.settings_dict["NAME"], timeout=0, isolation_level=None)
    try:
        with transaction.atomic():
            # Nothing read or written yet: under DEFERRED the other writer would get in.
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # free again once the transaction is over
        other.execute("ROLLBACK")
    finally:
        other.close()


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_sqlite_writers_wait_for_each_other_instead_of_failing(django_user_model) -> None:
    holding = threading.Event()
    releasing_at: list[float] = []
    errors: list[BaseException] = []

    def first_writer() -> None:
        try:
            with transaction.atomic():
                django_user_model.objects.create_user(username="first")
                holding.set()
                time.sleep(0.3)
                releasing_at.append(time.monotonic())  # the lock goes at the commit, just after
        except BaseException as error:  # noqa: BLE001 - reported to the main thread
            errors.append(error)
            holding.set()
        finally:
            connection.close()

    thread = threading.Thread(target=first_writer)
    thread.start()
    assert holding.wait(5)
    with transaction.atomic():  # BEGIN IMMEDIATE: blocks until the first writer commits
        began_at = time.monotonic()
        django_user_model.objects.create_user(username="second")
    thread.join()
    assert not errors
    assert began_at >= releasing_at[0], "the second writer should have waited for the first"
    assert set(django_user_model.objects.values_list("username", flat=True)) == {
        "first",
        "second",
    }


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="PostgreSQL's own settings",
)
@pytest.mark.django_db
def test_postgres_connection_is_live_and_health_checked() -> None:
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


# ---- Accounts ------------------------------------------------------------------------------


def signup(client: Client, username: str = "ada", next_url: str | None = None):
    url = reverse("signup") + (f"?next={next_url}" if next_url else "")
    return client.post(url, {"username": username, "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.django_db
def test_signup_page_renders_inside_the_site(client: Client) -> None:
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Amnesia Table" in content
    assert 'hx-headers=\'{"x-csrftoken": "' in content
    assert "htmx" in content and "https://" not in content.split("<body")[0]


@pytest.mark.django_db
def test_signup_logs_the_new_user_in_and_goes_home(client: Client) -> None:
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    user = get_user_model().objects.get(username="ada")
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db
def test_signup_follows_a_safe_next_and_ignores_an_outside_one(client: Client) -> None:
    assert signup(client, "ada", "/stories/")["Location"] == "/stories/"
    assert signup(Client(), "bob", "https://evil.example/")["Location"] == "/"


@pytest.mark.django_db
def test_signup_rejects_mismatched_passwords(client: Client) -> None:
    response = client.post(
        reverse("signup"), {"username": "ada", "password1": PASSWORD, "password2": "nope"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.filter(username="ada").exists()


def test_signed_in_user_is_sent_away_from_signup(gm_client: Client) -> None:
    assert gm_client.get(reverse("signup"))["Location"] == "/"


def test_login_and_logout(client: Client, gm) -> None:
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert b"Log in" in page.content

    response = client.post(reverse("login"), {"username": "gm", "password": GM_PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(gm.pk)

    home = client.get(reverse("password_change"))
    assert b'data-testid="current-user"' in home.content

    assert client.get(reverse("logout")).status_code == 405  # logging out takes a POST
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_rejects_a_wrong_password(client: Client, gm) -> None:
    response = client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_login_post_needs_the_csrf_token(gm) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "gm", "password": GM_PASSWORD})
    assert response.status_code == 403

    page = client.get(reverse("login"))
    token = page.context["csrf_token"]
    response = client.post(
        reverse("login"),
        {"username": "gm", "password": GM_PASSWORD, "csrfmiddlewaretoken": str(token)},
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_language_switch_is_wired(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/accounts/login/"})
    assert response.status_code == 302
    page = client.get(reverse("login"))
    assert b'<html lang="ja">' in page.content
