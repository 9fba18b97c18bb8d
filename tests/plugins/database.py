"""The test databases (a plugin of tests/conftest.py): made once a run, the other xdist
workers copying the first's (``django_db_setup``); each test's ids starting just after the
rows there (``db``); and the rows ``post_migrate`` writes after a transactional test's flush,
written back from a copy (``PostMigrateRows``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    django_test_environment: None,
    django_db_blocker,
    django_db_use_migrations: bool,
    django_db_keepdb: bool,
    django_db_createdb: bool,
    django_db_modify_db_settings: None,
) -> Iterator[None]:
    """pytest-django's (its options, the databases and the serialized contents its tests
    ask for, read by its own helpers), except that under pytest-xdist only the first worker
    migrates its database and the others copy it (tests/databases.py)."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    from tests import databases

    if not django_db_use_migrations:
        _disable_migrations()
    keepdb = django_db_keepdb and not django_db_createdb
    verbosity = request.config.option.verbose
    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)

    def migrate() -> databases.Made:
        return setup_databases(
            verbosity=verbosity,
            interactive=False,
            keepdb=keepdb,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
        )

    workers = getattr(request.config, "workerinput", {}).get("workercount", 1)
    # The workers' temporary folders are in the run's: the lock and the template go there.
    folder = tmp_path_factory.getbasetemp().parent
    shared = workers > 1 and not keepdb and aliases == {connection.alias}
    with django_db_blocker.unblock():
        if shared:
            made = databases.setup_worker_database(connection, folder, workers, migrate)
            # setup_databases serialized the database it made, if asked; a copy is done here.
            serialized = hasattr(connection, "_test_serialized_contents")
            if connection.alias in serialized_aliases and not serialized:
                connection._test_serialized_contents = connection.creation.serialize_db_to_string()
        else:
            made = migrate()
    yield
    with django_db_blocker.unblock():
        if not keepdb:
            teardown_databases(made, verbosity=verbosity)
        if shared:
            databases.drop_template(connection, folder)


_SEQUENCE_RESET: list[str] = []


def id_tables() -> list[tuple[str, str]]:
    """The tables whose ids a sequence gives (an AutoField), with their id's column."""
    from django.apps import apps

    # Tables of their own only: a proxy shares its model's, an unmanaged model has none here.
    return [
        (meta.db_table, meta.pk.column)
        for meta in (m._meta for m in apps.get_models() if m._meta.managed and not m._meta.proxy)
        if meta.pk.get_internal_type() in {"AutoField", "BigAutoField", "SmallAutoField"}
    ]


def sequence_reset_sql(connection) -> list[str]:
    """Statements that set each model's next id just after the rows that are there."""
    from django.apps import apps
    from django.core.management.color import no_style

    if connection.vendor != "sqlite":
        models = [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]
        return connection.ops.sequence_reset_sql(no_style(), models)
    # SQLite's ids (AUTOINCREMENT) go on from sqlite_sequence, which a rollback takes back but
    # a transactional test's flush (the browser tests, the served ones) does not.
    quote = connection.ops.quote_name
    return [
        f"UPDATE sqlite_sequence SET seq = (SELECT coalesce(max({quote(column)}), 0)"
        f" FROM {quote(table)}) WHERE name = '{table}'"
        for table, column in id_tables()
    ]


def set_ids_back() -> None:
    """Each model's next id just after the rows that are there (``sequence_reset_sql``)."""
    from django.db import connection

    if not _SEQUENCE_RESET:
        _SEQUENCE_RESET.extend(sequence_reset_sql(connection))
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":  # one statement at a time
            for statement in _SEQUENCE_RESET:
                cursor.execute(statement)
        else:
            cursor.execute("\n".join(_SEQUENCE_RESET))


def ids_as_they_are(connection) -> str:
    """One statement that puts every id sequence back where it is now (its value, not the
    rows': no table read)."""
    tables = id_tables()
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            names = ", ".join(f"'{table}'" for table, _ in tables)
            cursor.execute(f"SELECT name, seq FROM sqlite_sequence WHERE name IN ({names})")
            found = cursor.fetchall()
            if not found:
                return ""
            cases = " ".join(f"WHEN '{name}' THEN {int(seq)}" for name, seq in found)
            listed = ", ".join(f"'{name}'" for name, _ in found)
            return (
                f"UPDATE sqlite_sequence SET seq = CASE name {cases} END WHERE name IN ({listed})"
            )
        pairs = ", ".join(["(%s, %s)"] * len(tables))
        cursor.execute(
            "SELECT s, pg_sequence_last_value(s::regclass) FROM (SELECT"
            f" pg_get_serial_sequence(t, c) AS s FROM (VALUES {pairs}) AS v(t, c)) AS q",
            [value for table, column in tables for value in (quote(table), column)],
        )
        found = cursor.fetchall()
    calls = [
        f"setval('{name}', {int(last)}, true)"
        if last is not None
        else f"setval('{name}', 1, false)"
        for name, last in found
    ]
    return "SELECT " + ", ".join(calls)


class IdsBetweenTests:
    """``set_ids_back`` for the start of each test (``db``), made cheap: the rows at a test's
    start are the ones the previous test started with (its writes were rolled back) until a
    flush (a transactional test's end) changes them, so the ids each model goes on from are
    the same too. The first test after a flush (or of the run) sets them back from the rows
    and keeps where each sequence then stands (``ids_as_they_are``); each later one puts the
    sequences back there in one statement, reading no table. On PostgreSQL the rows' ``max``
    over thirty tables was about 5 ms of the server's a test (sequences are outside
    transactions: a test's inserts move them on for the next); on SQLite a rollback takes
    sqlite_sequence back, but a test's own setting-back is rolled back with it. A fixture
    whose rows outlive a test calls ``forget`` when it writes them and when it takes them back
    (tests/stories/conftest.py's ``bundle_once``). tests/test_ids.py checks that what was put
    back is what the rows give, after a rollback and after a flush; test_bundles_refused.py,
    under a module's rows."""

    def __init__(self) -> None:
        self.kept: str | None = None

    def forget(self) -> None:
        self.kept = None

    def __call__(self) -> None:
        from django.db import connection

        if self.kept is None:
            set_ids_back()
            self.kept = ids_as_they_are(connection)
        elif self.kept:
            with connection.cursor() as cursor:
                cursor.execute(self.kept)


IDS_BETWEEN_TESTS = IdsBetweenTests()


class PostMigrateRows:
    """What ``post_migrate`` writes after a transactional test's flush (the content types,
    the permissions, the built-in rulesets), written back from a copy instead of made again.

    The flush after each transactional test (the browser tests, the served ones) empties
    every table, then its ``post_migrate`` makes those rows anew, query by query: about 25 ms
    a test on SQLite and 40 ms on PostgreSQL, against a few ms for the same rows inserted
    whole. The first flush of a run sends the signal for real and keeps what it wrote (the
    flush left every table empty, so every row there is the signal's); each later flush
    inserts those rows back, the same ids, and moves the ids on past them. The built-in
    rulesets come from the registered games, so the copy is kept per set of games (a test
    may register one of its own). tests/test_flush_rows.py checks that the rows are the
    signal's own."""

    def __init__(self) -> None:
        self.kept: dict[str, dict[str, tuple[list[str], list[tuple]]]] = {}

    def __call__(self, verbosity, interactive, database, **kwargs) -> None:
        from django.contrib.contenttypes.models import ContentType
        from django.core.management import sql
        from django.db import connections, transaction

        from games import registry

        connection = connections[database]
        games = repr([(kit.slug, kit.rulesets) for kit in registry.kits()])
        rows = self.kept.get(games)
        if rows is None or kwargs:
            sql.emit_post_migrate_signal(verbosity, interactive, database, **kwargs)
            if not kwargs:
                self.kept[games] = written_rows(connection)
            return
        quote = connection.ops.quote_name
        with transaction.atomic(using=database), connection.cursor() as cursor:
            for table, (columns, found) in rows.items():
                names = ", ".join(quote(c) for c in columns)
                marks = ", ".join(["%s"] * len(columns))
                cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", found)
        set_ids_back()
        ContentType.objects.clear_cache()


def written_rows(connection) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every row of the models' tables that hold any, with their columns' names."""
    rows = {}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.django_table_names(only_existing=True)):
            cursor.execute(f"SELECT * FROM {quote(table)}")
            found = cursor.fetchall()
            if found:
                rows[table] = ([column[0] for column in cursor.description], found)
    return rows


POST_MIGRATE_ROWS = PostMigrateRows()


def flush_sql_deleting(real_sql_flush):
    """PostgreSQL's ``sql_flush`` for a transactional test's flush: DELETE FROM each table
    instead of one TRUNCATE of them all. TRUNCATE gives each table (and its indexes) new files
    and drops the old ones at commit: about 260 ms of the server's CPU and a second of wall
    time a flush on this machine's PostgreSQL, against some 1 ms and 2.5 ms for the DELETEs
    of the few rows a test leaves. The same rows go, in one transaction (Django's
    ``execute_sql_flush``), the foreign keys checked at its end (Django makes them deferrable,
    initially deferred); the ids go on as after TRUNCATE without RESTART IDENTITY, which is
    what a test's flush asks for. Any other flush (sequences reset, CASCADE) is Django's."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return real_sql_flush(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [f"DELETE FROM {self.quote_name(table)}" for table in tables]
        return ["; ".join(["SET CONSTRAINTS ALL DEFERRED", *deletes])]

    return sql_flush


@pytest.fixture(scope="session", autouse=True)
def post_migrate_rows_kept():
    """The flush command's ``post_migrate`` is ``POST_MIGRATE_ROWS`` for the whole run, and
    on PostgreSQL its tables are emptied by DELETE (``flush_sql_deleting``)."""
    from django.core.management.commands import flush
    from django.db import connection

    real_handle = flush.Command.handle

    def handle(self, *args, **options):
        # A flush changes the rows each test starts with (IdsBetweenTests).
        IDS_BETWEEN_TESTS.forget()
        try:
            return real_handle(self, *args, **options)
        finally:
            IDS_BETWEEN_TESTS.forget()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush, "emit_post_migrate_signal", POST_MIGRATE_ROWS)
        patch.setattr(flush.Command, "handle", handle)
        if connection.vendor == "postgresql":
            operations = type(connection.ops)
            patch.setattr(operations, "sql_flush", flush_sql_deleting(operations.sql_flush))
        yield POST_MIGRATE_ROWS


@pytest.fixture
def db(db):
    """pytest-django's ``db``, each test's ids starting just after the rows that are there
    (usually at 1) on both engines. Otherwise a test's story was story 1 or story 412
    depending on what ran before it on its worker (on PostgreSQL, whose sequences are outside
    transactions, always; on SQLite, after a transactional test): what a test draws from its
    ids (a book's cover is seeded by its story's id) differed from run to run, and the tests
    that print the same book twice (tests/stories/conftest.py's ``weasyprint_once``) printed
    it again. Cheap: set back from the rows only after a flush (``IdsBetweenTests``)."""
    IDS_BETWEEN_TESTS()
    return db
