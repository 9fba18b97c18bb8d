"""The test workers' databases: the first worker of a run migrates its own, the others copy it.

Under pytest-xdist each worker has a test database of its own (``_gw0``, ``_gw1``...). Made the
usual way, each one runs every migration: about 3.7 s of CPU time a worker here, once per
engine in ``make test``. Instead, the first worker to take the run's lock migrates its own
database as usual and copies it whole into a template; each other worker copies the template
into its own database (SQLite's backup API; PostgreSQL's ``CREATE DATABASE ... TEMPLATE``,
a copy of the files in the server), a small part of the migrations' time. The last worker to
copy it removes the template, or the first worker to finish its tests, whichever comes first
(a worker that comes after that migrates its own). The migrations themselves still run every time, on
each engine: in the first worker, and in tests/test_migrations.py.

The lock and the note that says where the template is are files in the run's own temporary
folder (the one pytest gives the workers' folders, and cleans up after a few runs); so is
SQLite's template. A run without workers, or with one, makes its database the usual way.
"""

from __future__ import annotations

import fcntl
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

Made = list[tuple[Any, str, bool]]  # what Django's setup_databases gives teardown_databases


@contextmanager
def run_lock(connection, folder: Path) -> Iterator[Path]:
    """The run's lock for this engine, held while a worker makes, copies or drops a database;
    yields the note that says where the template is (a worker made it) and how many workers
    copied it."""
    with (folder / f"test-database-{connection.vendor}.lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield folder / f"test-database-{connection.vendor}.json"
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def template_name(connection, folder: Path, old_name: str) -> str:
    """A file in the run's folder (SQLite), or a database on the same server (PostgreSQL),
    named after the site's database as Django names the test ones: a template that a killed
    run left there is replaced by the next run's."""
    if connection.vendor == "sqlite":
        return str(folder / "test-database-template.sqlite3")
    return f"test_{old_name}_template"


def copy_database(connection, source: str, target: str) -> None:
    """``source`` copied whole into a new database ``target`` (replacing one left there)."""
    if connection.vendor == "sqlite":
        Path(target).unlink(missing_ok=True)
        with closing(sqlite3.connect(source)) as read, closing(sqlite3.connect(target)) as write:
            read.backup(write)  # whole and consistent, write-ahead log included
        return
    quote = connection.ops.quote_name
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(target)}")
        cursor.execute(f"CREATE DATABASE {quote(target)} WITH TEMPLATE {quote(source)}")


def drop_database(connection, name: str) -> None:
    if connection.vendor == "sqlite":
        Path(name).unlink(missing_ok=True)
        return
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)}")


def use_database(connection, name: str) -> None:
    """What Django's ``create_test_db`` does once the database is there: the connection, and
    the settings other code reads (a server started by a test), point at it."""
    from django.conf import settings

    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = name
    connection.settings_dict["NAME"] = name
    connection.ensure_connection()


def setup_worker_database(
    connection, folder: Path, workers: int, migrate: Callable[[], Made]
) -> Made:
    """This worker's test database: migrated (``migrate``, Django's ``setup_databases``) and
    kept as the run's template by the first worker, copied from that template by the others."""
    old_name = connection.settings_dict["NAME"]
    with run_lock(connection, folder) as note:
        said = json.loads(note.read_text()) if note.exists() else None
        if said is None:
            made = migrate()
            own = connection.settings_dict["NAME"]
            template = template_name(connection, folder, old_name)
            connection.close()  # PostgreSQL copies a database nobody is connected to
            copy_database(connection, own, template)
            note.write_text(json.dumps({"template": template, "copies": 0}))
            connection.ensure_connection()
            return made
        if said["template"] is None:  # dropped already: the others have finished
            return migrate()
        own = connection.creation._get_test_db_name()
        copy_database(connection, said["template"], own)
        said["copies"] += 1
        if said["copies"] >= workers - 1:  # every other worker has its copy
            drop_database(connection, said["template"])
            said["template"] = None
        note.write_text(json.dumps(said))
    use_database(connection, own)
    return [(connection, old_name, True)]


def drop_template(connection, folder: Path) -> None:
    """At a worker's end: the template goes if it is still there (a worker that had no test
    needing the database never copied it)."""
    with run_lock(connection, folder) as note:
        said = json.loads(note.read_text()) if note.exists() else None
        if said is not None and said["template"] is not None:
            drop_database(connection, said["template"])
            note.write_text(json.dumps({**said, "template": None}))
