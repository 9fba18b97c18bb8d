"""The toy game (tests/games/toy), registered for the tests that ask for it and only then."""

from __future__ import annotations

import pytest


@pytest.fixture
def toy_game(game_for_tests):
    """The toy kit in the registry, its templates findable; both gone after the test."""
    from tests.games.toy.kit import KIT

    return game_for_tests(KIT)


@pytest.fixture
def every_kit(request, game_for_tests):
    """The kit of the game a generic test is parametrized with (``slug``, from
    ``tests.games.every_game.slugs()``), installed if it is a test-only one."""
    from tests.games.every_game import installed

    return installed(request.node.callspec.params["slug"], game_for_tests)


@pytest.fixture(scope="session")
def components_pdf(tmp_path_factory):
    """The components command's PDF for its arguments (the game, then its options), written
    once a run (tests/memo.py: once per ``make test`` across its test workers, once per
    process for a plain ``pytest``) and read by every test that asks for the same: the 48-card
    deck alone is seconds of WeasyPrint. Only for arguments that read nothing from the database
    (no ``--table``, no ``--deck``: a test's rows are gone after it). WeasyPrint prints
    through ``print_once`` (tests/stories/conftest.py), so a sheet the site's view prints alike
    (the crawl's, tests/test_crawl.py; the view's test) is printed once between them."""
    import io

    from django.core.management import call_command
    from django.test import override_settings

    from tests.memo import remember
    from tests.stories.conftest import print_once

    def pdf(game: str, *options: str) -> bytes:
        assert not {"--table", "--deck"} & set(options), "those read the test's own rows"

        def write() -> tuple[bytes]:
            out = tmp_path_factory.mktemp("components") / "out.pdf"
            cache = tmp_path_factory.mktemp("cache")
            with override_settings(STORY_CACHE_DIR=str(cache)), pytest.MonkeyPatch.context() as mp:
                print_once(mp)
                call_command("components", game, str(out), *options, stdout=io.StringIO())
            return (out.read_bytes(),)

        (data,) = remember("components", repr((game, *options)), write)
        return data

    return pdf
