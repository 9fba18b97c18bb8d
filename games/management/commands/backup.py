"""``backup OUT`` / ``backup --into DIR --keep N``: a consistent copy of the database, taken
while the site runs.

- SQLite: ``VACUUM INTO``, which copies the database as one read transaction sees it (WAL
  readers do not block writers, so the site goes on meanwhile); the copy is a database file
  to open as it is.
- PostgreSQL: ``pg_dump --format=custom``, one snapshot of the whole database; restore it with
  ``pg_restore``. It needs PostgreSQL's client tools (``pg_dump``) on the PATH, of the server's
  major version or newer.

``--into DIR`` names the copy after the time (``amnesia-20261130-235959.sqlite3`` or
``.pgdump``) and keeps the newest ``--keep`` copies there. The uploads in MEDIA_ROOT are files,
not in the database: docs/backups.md says how to keep them too, and how to restore.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections

PREFIX = "amnesia-"
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
# libpq settings a database URL may put in OPTIONS that pg_dump must use as well.
LIBPQ_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "options", "connect_timeout")


class Command(BaseCommand):
    help = "Write a consistent copy of the database (SQLite or PostgreSQL) while the site runs."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("out", nargs="?", help="the file to write (replaced if it exists)")
        parser.add_argument("--into", help="a folder: write a copy named after the time there")
        parser.add_argument(
            "--keep",
            type=int,
            default=0,
            help="with --into: keep only the newest N copies in the folder (0: keep them all)",
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias")

    def handle(self, *args, **opts):
        connection = connections[opts["database"]]
        vendor = connection.vendor
        if vendor not in SUFFIXES:
            raise CommandError(f"No backup for a {vendor} database: SQLite and PostgreSQL only.")
        if bool(opts["out"]) == bool(opts["into"]):
            raise CommandError("Give either a file to write or --into FOLDER.")
        if opts["keep"] < 0:
            raise CommandError("--keep cannot be negative.")
        if opts["into"]:
            folder = Path(opts["into"])
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            out = folder / f"{PREFIX}{stamp}{SUFFIXES[vendor]}"
        else:
            out = Path(opts["out"])
        out.parent.mkdir(parents=True, exist_ok=True)
        # Written beside, then renamed: a copy that is there is a whole copy.
        partial = out.with_name(f".{out.name}.partial-{os.getpid()}")
        partial.unlink(missing_ok=True)
        try:
            if vendor == "sqlite":
                with connection.cursor() as cursor:
                    cursor.execute("VACUUM INTO %s", [str(partial)])
            else:
                pg_dump(connection.settings_dict, partial)
            os.replace(partial, out)
        finally:
            partial.unlink(missing_ok=True)
        self.stdout.write(str(out))
        if opts["into"] and opts["keep"]:
            for old in prune(out.parent, opts["keep"]):
                self.stderr.write(f"removed {old}")


def pg_dump(db: dict, out: Path) -> None:
    """One ``pg_dump --format=custom`` of the database ``db`` (Django's settings) into ``out``."""
    program = shutil.which("pg_dump")
    if program is None:
        raise CommandError(
            "pg_dump was not found on the PATH. Install PostgreSQL's client tools, of the "
            "server's major version or newer (Debian: apt-get install postgresql-client), "
            "then run the backup again."
        )
    command = [program, "--format=custom", f"--file={out}", f"--dbname={db['NAME']}"]
    if db.get("HOST"):
        command.append(f"--host={db['HOST']}")
    if db.get("PORT"):
        command.append(f"--port={db['PORT']}")
    if db.get("USER"):
        command.append(f"--username={db['USER']}")
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])  # never on the command line, where ps shows it
    for key in LIBPQ_OPTIONS:
        if key in (db.get("OPTIONS") or {}):
            env[f"PG{key.upper()}"] = str(db["OPTIONS"][key])
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise CommandError(f"pg_dump failed: {done.stderr.strip() or done.returncode}")


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` copies this command wrote in ``folder`` (their names
    sort by time); other files are left alone. Returns what was removed."""
    copies = sorted(
        p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.suffix in SUFFIXES.values()
    )
    removed = copies[:-keep] if keep else []
    for path in removed:
        path.unlink()
    return removed
