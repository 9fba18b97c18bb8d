"""Every game, for the generic tests: the registered ones (from the registry, never by name)
and a game for the tests only that no generic file names (Three Cards, a deck and hidden
hands: tests/games/three_cards/), installed for the test that asks for it."""

from __future__ import annotations

from games import registry

# The test-only games: their kits, imported only when a test installs them.
TEST_ONLY = ("tests.games.three_cards.kit",)


def slugs() -> list[str]:
    """The parameters of a generic test: each registered game, then each test-only one."""
    return [*(k.slug for k in registry.kits()), *(m.rsplit(".", 2)[-2] for m in TEST_ONLY)]


def installed(slug: str, game_for_tests):
    """The kit of ``slug``: a registered game's, or a test-only one installed for the test."""
    if registry.is_game(slug):
        return registry.kit(slug)
    from importlib import import_module

    module = next(m for m in TEST_ONLY if m.rsplit(".", 2)[-2] == slug)
    return game_for_tests(import_module(module).KIT)
