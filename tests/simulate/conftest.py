"""The marker game (tests/simulate/marker.py), registered for the tests that ask for it."""

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
