"""A bundle exported from SQLite comes into PostgreSQL whole (a server of its own, when one
answers)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.models import Table
from stories.bundles.export import export_bundle

pytestmark = pytest.mark.django_db


# -- from this database to another backend --------------------------------------------------
def _postgres_server() -> str | None:
    url = os.environ.get("PG_TEST_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    try:
        import psycopg  # only to see whether a server answers

        psycopg.connect(url, dbname="postgres", connect_timeout=3).close()
    except Exception:  # no server (or no driver): the cross-backend test has nothing to use
        return None
    return url


def _other_url(server: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


@pytest.mark.long
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite to PostgreSQL only")
def test_a_bundle_from_sqlite_comes_into_postgresql(laptop, tmp_path):
    """A fresh PostgreSQL database, migrated and filled by the ``bundle`` command in another
    process, holds the same tables, states, stories and reports."""
    from tests.stories.bundle_digest import digest

    server = _postgres_server()
    if server is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("PostgreSQL does not answer: CI needs it for this test.")
        pytest.skip("PostgreSQL does not answer")
    import psycopg

    name = f"test_bundles_{os.getpid()}"
    admin = psycopg.connect(server, dbname="postgres", autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    path = tmp_path / "laptop.zip"
    path.write_bytes(export_bundle(Table.objects.all(), with_pending=True, with_deck=True))
    env = {
        **os.environ,
        "DATABASE_URL": _other_url(server, name),
        "MEDIA_ROOT": str(tmp_path / "media"),
    }
    root = Path(__file__).resolve().parents[2]

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    # One process, a Django of its own on the new database: the migrations and the importer's
    # account; the import with the arguments a person types (``call_command`` reads them with
    # the command's own parser); the digest there, the same bundle imported again and the
    # digest once more. (Three processes before, one per step: each start is seconds of CPU,
    # and ``manage.py``'s own start is every subprocess test's.)
    try:
        script = (
            "import io; from django.core.management import call_command"
            "; from django.contrib.auth.models import User"
            "; from tests.stories.bundle_digest import digest"
            "; call_command('migrate', verbosity=0); User.objects.create(username='mover')"
            "; out = io.StringIO()"
            f"; call_command('bundle', 'import', {str(path)!r}, '--owner', 'mover', stdout=out)"
            "; print('FIRST ' + out.getvalue().replace(chr(10), ' '))"
            "; print('DIGEST ' + digest())"
            "; out = io.StringIO()"
            f"; call_command('bundle', 'import', {str(path)!r}, '--owner', 'mover', stdout=out)"
            "; print('AGAIN ' + out.getvalue().replace(chr(10), ' '))"
            "; print('DIGEST ' + digest())"
        )
        lines = manage("shell", "-c", script).splitlines()
        assert "3 tables came in." in next(line for line in lines if line.startswith("FIRST "))
        there, after = (line[7:] for line in lines if line.startswith("DIGEST "))
        assert json.loads(there) == json.loads(digest())
        assert "0 tables came in." in next(line for line in lines if line.startswith("AGAIN "))
        assert after == there
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
