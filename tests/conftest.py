"""Fixtures every test may use: two players, a logged-in client for each, fast hashing, ids
that start after the rows there (`db`); and the split of the PostgreSQL run
(`pytest_collection_modifyitems` below)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

PASSWORD = "correct-horse-battery-staple"

# The split. `make test` runs the suite twice: on SQLite every test; on PostgreSQL only the
# tests that reach the database. A test reaches it when it asks for one of these fixtures
# (directly or through another fixture: `gm`, `gm_client`, `make_table`... ask for `db`) or
# carries the `django_db` mark. Any other test is database-free, and pytest-django blocks the
# database for it ("Database access not allowed"), so a database-free test that starts using
# the database fails on the SQLite run until it asks for `db` (tests/test_split.py keeps both
# halves of that rule). The browser tests run on SQLite only: a page is the same page on either
# engine, and what reaches the engine under it is tested through the views and forms.
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "django_db_setup",
        "live_server",
    }
)
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"

# Property tests (Hypothesis): a budget that fits the suite's minutes by default, a long search
# with HYPOTHESIS_PROFILE=thorough. A test states its own budget only when it must differ.
# No deadline: a busy machine's slow example is no failure.
for _name, _examples in (("suite", 50), ("thorough", 1000)):
    hypothesis_settings.register_profile(
        _name,
        max_examples=_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--every-test",
        action="store_true",
        help="on PostgreSQL too, run the database-free and browser tests (tests/conftest.py)",
    )


def needs_database(item: pytest.Item) -> bool:
    """Whether a test reaches the database: a database fixture or the `django_db` mark."""
    fixtures = getattr(item, "fixturenames", ())
    return bool(DATABASE_FIXTURES.intersection(fixtures)) or (
        item.get_closest_marker("django_db") is not None
    )


def in_browser_tests(path: Path) -> bool:
    return BROWSER_TESTS in path.parents


def on_postgresql() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, keep the tests that reach the database, browser tests left out; then
    the long tests first (``long_tests_first``)."""
    if on_postgresql() and not config.getoption("every_test"):
        kept, left = [], []
        for item in items:
            on_both = needs_database(item) and not in_browser_tests(item.path)
            on_both = on_both and item.get_closest_marker("sqlite_only") is None
            (kept if on_both else left).append(item)
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = kept
    long_tests_first(items)


def long_tests_first(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` (many seconds each: the migrations' round trip, the
    permission matrix...) move to the front, each group keeping its order. pytest-xdist hands
    the tests out in this order (after the ``xdist_group`` groups, the largest first), so a
    long test no longer comes last and leaves one worker running it while the other has
    finished: on PostgreSQL the migrations' round trip came last and the run ended 14 s after
    the other worker did."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Python's cycle collector, tuned for a test process: what is loaded by now (Django, the
    site, every test module) is kept out of every later collection (``gc.freeze``), and the
    youngest generation is collected after 50,000 new objects instead of 2,000 (a page, a
    book or a replay makes that many in a moment). Cycles are still collected; on tests/games
    and tests/playtests in one process this took about 5% less CPU time (177.6 s against
    186.6 s), on tests/stories about 1% (one run each, no interval: within this machine's
    drift)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


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


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """The .mo files from the .po ones (set-up writes them too; a test run must not read stale
    ones). Before any test activates a language, so the first read sees them."""
    # Imported here: this conftest loads before pytest-django has set Django up.
    from amnesia_site.catalogues import compile_all

    compile_all()


@pytest.fixture(scope="session")
def test_media_dir(tmp_path_factory):
    """One media folder per test run: generated card art is reused across tests."""
    return tmp_path_factory.mktemp("media")


@pytest.fixture(scope="session", autouse=True)
def test_settings(test_media_dir, tmp_path_factory) -> Iterator[None]:
    """For the whole run: uploads, generated art and cached PDFs go to temporary folders, never
    the checkout; and passwords are hashed fast (the real hasher takes a good part of a second
    per password, by design; tests need none). Set once a session, not once a test: three
    overrides a test, each sending ``setting_changed`` to every receiver on the way in and out,
    cost about 1.3 ms a test (3.5 s of a ``make test``). A test that sets one of these itself
    (the ``settings`` fixture) gets this value back after it."""
    from django.test import override_settings

    with override_settings(
        MEDIA_ROOT=str(test_media_dir),
        STORY_CACHE_DIR=str(tmp_path_factory.getbasetemp() / "story-cache"),
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts and ends in the site's language: a view that speaks a table's language
    (games.languages.use_table_language) leaves it active on the test's thread, and the next test
    on the same worker would read its sentences in Japanese."""
    # Imported here: this conftest loads before pytest-django has set Django up.
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """The throttles count in Django's cache (memory, one per process): each test starts at 0."""
    # Imported here: this conftest loads before pytest-django has set Django up.
    from django.core.cache import cache

    cache.clear()


_SEQUENCE_RESET: list[str] = []


def sequence_reset_sql(connection) -> list[str]:
    """Statements that set each model's next id just after the rows that are there."""
    from django.apps import apps
    from django.core.management.color import no_style

    # Tables of their own only: a proxy shares its model's, an unmanaged model has none here.
    models = [m for m in apps.get_models() if m._meta.managed and not m._meta.proxy]
    if connection.vendor != "sqlite":
        return connection.ops.sequence_reset_sql(no_style(), models)
    # SQLite's ids (AUTOINCREMENT) go on from sqlite_sequence, which a rollback takes back but
    # a transactional test's flush (the browser tests, the served ones) does not.
    quote = connection.ops.quote_name
    return [
        f"UPDATE sqlite_sequence SET seq = (SELECT coalesce(max({quote(meta.pk.column)}), 0)"
        f" FROM {quote(meta.db_table)}) WHERE name = '{meta.db_table}'"
        for meta in (model._meta for model in models)
        if meta.pk.get_internal_type() in {"AutoField", "BigAutoField", "SmallAutoField"}
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


@pytest.fixture(scope="session", autouse=True)
def post_migrate_rows_kept():
    """The flush command's ``post_migrate`` is ``POST_MIGRATE_ROWS`` for the whole run."""
    from django.core.management.commands import flush

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush, "emit_post_migrate_signal", POST_MIGRATE_ROWS)
        yield POST_MIGRATE_ROWS


@pytest.fixture
def db(db):
    """pytest-django's ``db``, each test's ids starting just after the rows that are there
    (usually at 1) on both engines. Otherwise a test's story was story 1 or story 412
    depending on what ran before it on its worker (on PostgreSQL, whose sequences are outside
    transactions, always; on SQLite, after a transactional test): what a test draws from its
    ids (a book's cover is seeded by its story's id) differed from run to run, and the tests
    that print the same book twice (tests/stories/conftest.py's ``weasyprint_once``) printed
    it again."""
    set_ids_back()
    return db


@pytest.fixture
def game_for_tests(settings):
    """Registers a game for this test only: ``game_for_tests(KIT)`` (tests/kits.py); the
    registry forgets it after the test, and the settings are put back."""
    from games import registry
    from tests.kits import register_for_tests

    registered = []

    def register(kit):
        registered.append(kit.slug)
        return register_for_tests(settings, kit)

    yield register
    for slug in registered:
        registry.unregister(slug)


@pytest.fixture
def gm(db, django_user_model):
    """The player who runs the table."""
    return django_user_model.objects.create_user(username="gm", password=PASSWORD)


@pytest.fixture
def other(db, django_user_model):
    """A second player, for what one user may not see or do to another's table."""
    return django_user_model.objects.create_user(username="other", password=PASSWORD)


@pytest.fixture
def gm_client(gm) -> Client:
    client = Client()
    client.force_login(gm)
    return client


@pytest.fixture
def other_client(other) -> Client:
    client = Client()
    client.force_login(other)
    return client


@pytest.fixture
def make_table(gm):
    """A new table through the write path, dealt from a fixed seed unless a test asks
    otherwise (so what a test sees never depends on a lucky shuffle)."""
    # Imported here: this conftest loads before pytest-django has set Django up.
    from games import services

    def make(game: str = "amnesia", players=("Ana", "Bruno", "Caio"), *, owner=None, **kwargs):
        kwargs.setdefault("seed", 7)
        return services.create_table(owner or gm, game, list(players), **kwargs)

    return make


@pytest.fixture
def long_table(gm):
    """A table in play with a long log (tests/games/long_games.py: the same game for the same
    length every time), the game master's."""
    from games import services
    from tests.games.long_games import long_game

    def make(game: str, moves: int, *, owner=None):
        return services.import_script(long_game(game, moves), owner or gm)

    return make


@pytest.fixture(scope="session", autouse=True)
def pictures_made_once_per_run():
    """Pictures that are the same bytes for the same input every time, made once a run
    (tests/memo.py: once per ``make test`` across its workers and both engines' runs, once
    per process for a plain ``pytest``) and written again where each test asks:

    - the 48 area cards' art, for the pages and the book (the same for the same card every
      time: tests/games/amnesia_stories/test_areas.py draws it twice to prove it); pages and
      books draw it on first use into each test's own media and cache folders, a tenth of a
      second a picture, hundreds of times a run;
    - a deck's uploaded picture cleaned (``decks.clean_image``: decoded, fitted and re-encoded
      at two sizes, about 40 ms a picture, twelve a deck, and most deck tests upload the same
      twelve). A refused picture is refused for real every time;
    - a generated cover's PNG (``covers.drawn_png``), by ``covers._cover_key``, the name the
      site's own cache keeps it under (the same key, the same cover: what the drawers read is
      in it, the story's id and times included); a cover not kept yet is drawn for real, and
      its PNG (``covers._png``) is kept by its pixels, since the same picture comes of other
      keys (times differ between runs, the Amnesia cover does not show them): a tenth to a
      fifth of a second a cover, and the PostgreSQL run prints the same books;
    - the cover as a book embeds it (``pdf.print_cover``: the PNG decoded and written as a
      JPEG, about 40 ms a book), by the PNG's bytes.
    """
    import tempfile

    from games import images
    from games.amnesia_stories import area_store, carry, decks
    from stories import covers
    from stories import pdf as story_pdf
    from tests.memo import remember

    real_draw, real_print, real_clean = area_store.draw, area_store.print_picture, decks.clean_image
    real_png, real_drawn_png = covers._png, covers.drawn_png
    real_print_cover = story_pdf.print_cover

    def drawn(card_id: str) -> dict[str, bytes]:
        def make() -> tuple[bytes, ...]:
            with tempfile.TemporaryDirectory() as scratch:
                paths = area_store.card_paths(card_id, Path(scratch))
                real_draw(card_id, paths)
                return tuple(paths[kind].read_bytes() for kind in area_store.KINDS)

        fmt = images.web_format()[0]
        return dict(zip(area_store.KINDS, remember("area", f"{fmt}:{card_id}", make), strict=True))

    def draw(card_id: str, paths: dict[str, Path]) -> None:
        pictures = drawn(card_id)
        for kind, path in paths.items():
            images.write_atomically(path, pictures[kind])

    def print_picture(card_id: str, folder: Path) -> bytes:
        def make() -> tuple[bytes, ...]:
            with tempfile.TemporaryDirectory() as scratch:
                return (real_print(card_id, Path(scratch)),)

        (data,) = remember("area-print", card_id, make)
        if not (folder / f"{card_id}.jpg").is_file():
            images.write_atomically(folder / f"{card_id}.jpg", data)
        return data

    def clean_image(data: bytes, name: str) -> tuple[bytes, bytes]:
        fmt = images.web_format()[0]
        large, thumb = remember(
            "deck-picture", fmt.encode() + b"\0" + data, lambda: real_clean(data, name)
        )
        return large, thumb

    def png(image) -> bytes:
        # Everything the PNG writer reads: the pixels, their shape, a palette, the info (a
        # transparency or an ICC profile there is written into the file).
        head = repr((image.mode, image.size, image.getpalette(), sorted(image.info.items())))
        pixels = head.encode() + b"\0" + image.tobytes()
        (data,) = remember("cover-png", pixels, lambda: (real_png(image),))
        return data

    def drawn_png(book) -> bytes:
        (data,) = remember("cover", covers._cover_key(book), lambda: (real_drawn_png(book),))
        return data

    def print_cover(data: bytes, mime: str) -> tuple[bytes, str]:
        def make() -> tuple[bytes, bytes]:
            printed, printed_mime = real_print_cover(data, mime)
            return printed, printed_mime.encode()

        printed, printed_mime = remember("print-cover", mime.encode() + b"\0" + data, make)
        return printed, printed_mime.decode()

    # The real functions, for tests/test_memo.py's proof that they make the same bytes twice.
    draw.real, print_picture.real, clean_image.real = real_draw, real_print, real_clean
    png.real, drawn_png.real, print_cover.real = real_png, real_drawn_png, real_print_cover
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(area_store, "draw", draw)
        patch.setattr(area_store, "print_picture", print_picture)
        patch.setattr(decks, "clean_image", clean_image)
        patch.setattr(carry, "clean_image", clean_image)
        patch.setattr(covers, "_png", png)
        patch.setattr(covers, "drawn_png", drawn_png)
        patch.setattr(story_pdf, "print_cover", print_cover)
        yield
