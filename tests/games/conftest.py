"""The toy game (tests/games/toy), registered for the tests that ask for it and only then."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import registry

TOY_TEMPLATES = Path(__file__).resolve().parent / "toy" / "templates"


@pytest.fixture
def toy_game(settings):
    """The toy kit in the registry, its templates findable; both gone after the test."""
    from tests.games.toy.kit import KIT

    engine = dict(settings.TEMPLATES[0])
    engine["DIRS"] = [*engine["DIRS"], TOY_TEMPLATES]
    settings.TEMPLATES = [engine, *settings.TEMPLATES[1:]]
    registry.register(KIT)
    yield KIT
    registry.unregister(KIT.slug)
