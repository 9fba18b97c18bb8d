"""Fixtures every test may use: two players, a logged-in client for each, fast hashing, ids
that start after the rows there (`db`); and the split of the PostgreSQL run
(`pytest_collection_modifyitems` below). The test databases and the pictures made once a
run are plugins of their own (tests/plugins/, ``pytest_plugins`` below)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Fixtures and hooks of the whole run that have a module of their own (tests/plugins/).
pytest_plugins = [
    "tests.plugins.database",
    "tests.plugins.pictures",
    "tests.plugins.served",
    "tests.permission_digest",
]


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


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """The .mo files from the .po ones (set-up writes them too; a test run must not read stale
    ones). Before any test activates a language, so the first read sees them. Once a ``make
    test`` (tests/memo.py, by each .po's path and bytes): the other worker and the PostgreSQL
    run read the .mo the first compiled (0.15 s of CPU a process) and write it only if the
    file there differs."""
    # Imported here: this conftest loads before pytest-django has set Django up.
    from amnesia_site.catalogues import compile_catalogue, locale_dir
    from games.images import write_atomically
    from tests.memo import remember

    for po in sorted(locale_dir().glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        (data,) = remember(
            "catalogue",
            str(po).encode() + b"\0" + po.read_bytes(),
            lambda po=po: (compile_catalogue(po).read_bytes(),),
        )
        if not mo.is_file() or mo.read_bytes() != data:
            write_atomically(mo, data)


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
    from games.services import new_tables

    def make(game: str = "amnesia", players=("Ana", "Bruno", "Caio"), *, owner=None, **kwargs):
        kwargs.setdefault("seed", 7)
        return new_tables.create_table(owner or gm, game, list(players), **kwargs)

    return make


@pytest.fixture
def long_table(gm):
    """A table in play with a long log (tests/games/long_games.py: the same game for the same
    length every time), the game master's."""
    from games.services import new_tables
    from tests.games.long_games import long_game

    def make(game: str, moves: int, *, owner=None):
        return new_tables.import_script(long_game(game, moves), owner or gm)

    return make
