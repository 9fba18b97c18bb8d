"""The toy game (tests/games/toy), registered for the tests that ask for it and only then."""

from __future__ import annotations

import pytest


@pytest.fixture
def toy_game(game_for_tests):
    """The toy kit in the registry, its templates findable; both gone after the test."""
    from tests.games.toy.kit import KIT

    return game_for_tests(KIT)
