"""The marker game (tests/simulate/marker.py) and the game of pure chance
(tests/simulate/chance.py), registered for the tests that ask for them."""

from __future__ import annotations

import dataclasses

import pytest

from games import registry


def _registered(module, slug: str, title: str):
    """A kit for ``module``'s game (the toy kit's pages, its referee and bots), registered
    while the test runs."""
    from tests.games.toy.kit import KIT as TOY

    kit = dataclasses.replace(
        TOY,
        slug=slug,
        title=title,
        referee=module.GAME,
        rulesets=(),
        bots=module.BOTS,
        bot_figures=module.figures,
    )
    registry.register(kit)
    return kit


@pytest.fixture
def marker_game():
    """The marker game (tests/simulate/marker.py)."""
    from tests.simulate import marker

    kit = _registered(marker, "marker", "Marker")
    yield kit
    registry.unregister(kit.slug)


@pytest.fixture
def chance_game():
    """The game of pure chance (tests/simulate/chance.py)."""
    from tests.simulate import chance

    kit = _registered(chance, "chance", "Chance")
    yield kit
    registry.unregister(kit.slug)
