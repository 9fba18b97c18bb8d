"""``manage.py backup``: a copy of a database holding tables of all three games, restored and
read back, replays every table to the same state. Each run checks its own engine: the SQLite
run restores by opening the copy, the PostgreSQL run restores into a scratch database with
pg_restore."""

from __future__ import annotations

import os
import shutil
import subprocess
from contextlib import contextmanager
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.db.utils import load_backend

from games import registry
from games.management.commands import backup
from games.models import Table
from games.rules.script import replay_script
from games.services import new_tables, reading, writing

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def tables(transactional_db, gm) -> list[Table]:
    """Every demo of every game (finished and in play), one of them with a move undone: all
    committed, as a backup of a running site would see them."""
    made = [
        new_tables.import_script(script, gm)
        for kit in registry.kits()
        for _name, script in kit.demos(NOW)
    ]
    assert {t.game for t in made} == {kit.slug for kit in registry.kits()}
    in_play = next(t for t in made if t.status == Table.Status.ACTIVE)
    writing.undo(in_play, None)
    return made


@contextmanager
def restored(settings_dict: dict):
    """The restored copy as a second database, ``restored``: a connection made here, not a
    database of the settings (the test's isolation only guards those)."""
    alias = "restored"
    config = {**connections.settings["default"], **settings_dict}
    wrapper = load_backend(config["ENGINE"]).DatabaseWrapper(config, alias)
    connections[alias] = wrapper
    try:
        yield alias
    finally:
        wrapper.close()
        del connections[alias]


def same_tables(tables: list[Table], alias: str) -> None:
    """Each table of the copy: the same script, and the referee replays it to the same state.
    A table made after the backup is not in the copy (it is a copy, not the database)."""
    new_tables.import_script(registry.kit("amnesia").demos(NOW)[0][1], tables[0].owner)
    copies = {t.pk: t for t in Table.objects.using(alias).all()}
    assert sorted(copies) == sorted(t.pk for t in tables)
    for table in tables:
        copy = copies[table.pk]
        script = reading.script_of(copy)
        assert script == reading.script_of(table)
        code, state = replay_script(script)
        assert code == 0, state
        assert state == reading.rebuild_state(copy) == reading.state_of(table)
        assert copy.last_seq == table.last_seq and copy.status == table.status


def run_backup(*args: str) -> Path:
    out = StringIO()
    call_command("backup", *args, stdout=out, stderr=StringIO())
    return Path(out.getvalue().strip())


def test_sqlite_backup_opens_as_the_same_tables(tables, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite half: it runs in the test run on SQLite")
    out = run_backup(str(tmp_path / "copy.sqlite3"))
    assert out == tmp_path / "copy.sqlite3" and out.stat().st_size > 0
    with restored({"NAME": str(out), "TEST": {}}) as alias:
        same_tables(tables, alias)


def test_postgresql_backup_restores_as_the_same_tables(tables, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL half: it runs in the test run on PostgreSQL")
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore (PostgreSQL's client tools) are not installed here")
    out = run_backup(str(tmp_path / "copy.pgdump"))
    db = connection.settings_dict
    scratch = f"{db['NAME']}_restored"[:63]
    env = {**os.environ, **({"PGPASSWORD": str(db["PASSWORD"])} if db.get("PASSWORD") else {})}
    where = [f"--host={db['HOST'] or 'localhost'}", f"--port={db['PORT'] or 5432}"]
    where += [f"--username={db['USER']}"] if db.get("USER") else []

    def psql(sql: str) -> None:
        subprocess.run(
            ["psql", *where, "--dbname=postgres", "-v", "ON_ERROR_STOP=1", "-c", sql],
            env=env,
            check=True,
            capture_output=True,
        )

    psql(f'DROP DATABASE IF EXISTS "{scratch}"')
    psql(f'CREATE DATABASE "{scratch}"')
    try:
        subprocess.run(
            ["pg_restore", *where, "--no-owner", f"--dbname={scratch}", str(out)],
            env=env,
            check=True,
            capture_output=True,
        )
        with restored({"NAME": scratch, "TEST": {}}) as alias:
            same_tables(tables, alias)
    finally:
        psql(f'DROP DATABASE IF EXISTS "{scratch}"')


def test_dated_copies_keep_the_newest(transactional_db, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    suffix = backup.SUFFIXES[connection.vendor]
    older = [folder / f"amnesia-2026010{i}-000000{suffix}" for i in range(1, 4)]
    for path in older:
        path.write_bytes(b"old")
    other = folder / "notes.txt"
    other.write_text("mine")
    out = run_backup("--into", str(folder), "--keep", "2")
    assert out.parent == folder and out.name.startswith("amnesia-") and out.suffix == suffix
    assert sorted(folder.iterdir()) == sorted([older[-1], out, other])


def test_a_missing_pg_dump_is_said_plainly(monkeypatch, tmp_path):
    monkeypatch.setattr(backup.shutil, "which", lambda _name: None)
    with pytest.raises(CommandError, match="pg_dump was not found.*postgresql-client"):
        backup.pg_dump({"NAME": "x"}, tmp_path / "x.pgdump")


def test_a_file_or_a_folder_not_both(db, tmp_path):
    with pytest.raises(CommandError):
        call_command("backup", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("backup", str(tmp_path / "a"), "--into", str(tmp_path), stdout=StringIO())
