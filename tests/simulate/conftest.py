"""The marker game (tests/simulate/marker.py) and the game of pure chance
(tests/simulate/chance.py), registered for the tests that ask for them."""

from __future__ import annotations

import dataclasses

import pytest

from games import registry


@pytest.fixture
def marker_game():
    """A kit for the marker game (the toy kit's pages, the marker's referee and bots)."""
    from tests.games.toy.kit import KIT as TOY
    from tests.simulate import marker

    kit = dataclasses.replace(
        TOY,
        slug="marker",
        title="Marker",
        referee=marker.GAME,
        rulesets=(),
        bots=marker.BOTS,
        bot_figures=marker.figures,
    )
    registry.register(kit)
    yield kit
    registry.unregister(kit.slug)


@pytest.fixture
def chance_game():
    """A kit for the game of pure chance (the toy kit's pages, its referee and bots)."""
    from tests.games.toy.kit import KIT as TOY
    from tests.simulate import chance

    kit = dataclasses.replace(
        TOY,
        slug="chance",
        title="Chance",
        referee=chance.GAME,
        rulesets=(),
        bots=chance.BOTS,
        bot_figures=chance.figures,
    )
    registry.register(kit)
    yield kit
    registry.unregister(kit.slug)
