"""The workers' test databases (tests/databases.py): the first worker migrates, the others copy
its template, and the template goes once nobody needs it. Played here with SQLite files and
three workers, one after the other, as the run's lock orders them."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from django.conf import settings

from tests import databases


class Creation:
    def __init__(self, connection) -> None:
        self.connection = connection

    def _get_test_db_name(self) -> str:
        return self.connection.test_name


class Worker:
    """What the module uses of a Django connection, on a SQLite file of its own."""

    vendor = "sqlite"
    alias = "worker-test"

    def __init__(self, folder: Path, name: str) -> None:
        self.settings_dict = {"NAME": "site.sqlite3"}
        self.test_name = str(folder / f"{name}.sqlite3")
        self.creation = Creation(self)
        self.migrated = False
        self.connected = False

    def close(self) -> None:
        self.connected = False

    def ensure_connection(self) -> None:
        self.connected = True

    def migrate(self) -> databases.Made:
        """Django's setup_databases, in short: the database made and pointed at."""
        with closing(sqlite3.connect(self.test_name)) as db, db:
            db.execute("CREATE TABLE scene (id INTEGER PRIMARY KEY, text TEXT)")
            db.execute("INSERT INTO scene (text) VALUES ('the room with no door')")
        self.migrated = True
        self.settings_dict["NAME"] = self.test_name
        return [(self, "site.sqlite3", True)]


def rows(path: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT id, text FROM scene").fetchall()


def note(folder: Path) -> dict:
    return json.loads((folder / "test-database-sqlite.json").read_text())


def test_the_first_worker_migrates_the_others_copy_and_the_template_goes(tmp_path, monkeypatch):
    monkeypatch.setitem(settings.DATABASES, Worker.alias, {"NAME": "site.sqlite3"})
    first, second, third = (Worker(tmp_path, f"gw{i}") for i in range(3))

    made = databases.setup_worker_database(first, tmp_path, 3, first.migrate)
    template = note(tmp_path)["template"]
    assert first.migrated and made == [(first, "site.sqlite3", True)]
    assert rows(template) == rows(first.test_name) == [(1, "the room with no door")]

    for worker in (second, third):
        made = databases.setup_worker_database(worker, tmp_path, 3, worker.migrate)
        assert not worker.migrated, "a later worker copies, it does not migrate"
        assert made == [(worker, "site.sqlite3", True)]
        assert (
            worker.settings_dict["NAME"]
            == worker.test_name
            == settings.DATABASES[Worker.alias]["NAME"]
        )
        assert worker.connected
        assert rows(worker.test_name) == [(1, "the room with no door")]
    # The last copy taken, the template is gone and the note says so.
    assert note(tmp_path) == {"template": None, "copies": 2}
    assert not Path(template).exists()


def test_a_worker_after_the_template_went_migrates_its_own(tmp_path, monkeypatch):
    monkeypatch.setitem(settings.DATABASES, Worker.alias, {"NAME": "site.sqlite3"})
    first, late = Worker(tmp_path, "gw0"), Worker(tmp_path, "gw1")
    databases.setup_worker_database(first, tmp_path, 2, first.migrate)
    template = note(tmp_path)["template"]
    # The first worker ends before the other one needs a database: the template goes with it.
    databases.drop_template(first, tmp_path)
    assert not Path(template).exists() and note(tmp_path)["template"] is None

    databases.setup_worker_database(late, tmp_path, 2, late.migrate)
    assert late.migrated
    assert rows(late.test_name) == [(1, "the room with no door")]
