"""Fixtures every test may use: two players, a logged-in client for each, fast hashing."""

from __future__ import annotations

import pytest
from django.test import Client

PASSWORD = "correct-horse-battery-staple"


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


@pytest.fixture(autouse=True)
def media_outside_the_work_tree(settings, test_media_dir, tmp_path_factory) -> None:
    """Uploads, generated art and cached PDFs go to temporary folders, never the checkout."""
    settings.MEDIA_ROOT = str(test_media_dir)
    settings.STORY_CACHE_DIR = str(tmp_path_factory.getbasetemp() / "story-cache")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    """The real hasher takes a good part of a second per password, by design; tests need none."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
    from games import services

    def make(game: str = "amnesia", players=("Ana", "Bruno", "Caio"), *, owner=None, **kwargs):
        kwargs.setdefault("seed", 7)
        return services.create_table(owner or gm, game, list(players), **kwargs)

    return make
