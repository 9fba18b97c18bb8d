"""Every registered game brings every part the generic code asks for, and each part works:
a game that forgets one fails here, not on the first page that needs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games import checks, registry

ROOT = Path(__file__).resolve().parents[2]
SLUGS = [kit.slug for kit in registry.kits()]


def test_every_installed_game_is_registered():
    """Each game app (a package of games/ with a kit) registers its kit under its label."""
    from django.apps import apps

    games = {
        config.label
        for config in apps.get_app_configs()
        if config.name.startswith("games.") and Path(config.path, "kit.py").exists()
    }
    assert games and games == set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_part_is_present_and_usable(slug):
    """The game contract's check (games/checks/, tested in test_checks.py) finds nothing."""
    kit = registry.kit(slug)
    assert registry.kit(kit.slug) is kit
    assert checks.check_kit(kit) == []


def test_the_checks_pass_for_a_game_registered_by_a_test(toy_game):
    assert toy_game.slug in [k.slug for k in registry.kits()]
    assert checks.check_kit(toy_game) == []
    assert (toy_game.cover, toy_game.pictures, toy_game.printed_texts) == (None, None, None)


def test_unregister_forgets_the_game_and_its_referee(toy_game):
    from games.rules import available_games

    registry.unregister(toy_game.slug)
    assert not registry.is_game("toy")
    assert "toy" not in available_games()
    with pytest.raises(registry.UnknownGame):
        registry.kit("toy")
    registry.register(toy_game)  # the fixture's teardown unregisters it again


def _imports_without_django(module: str) -> subprocess.CompletedProcess:
    code = f"import sys\nsys.modules['django'] = None\nimport {module}\n"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


REFEREE_MODULES = sorted({type(kit.referee).__module__ for kit in registry.kits()})


@pytest.mark.parametrize("module", [*REFEREE_MODULES, "games.rules.script"])
def test_referees_import_without_django(module):
    result = _imports_without_django(module)
    assert result.returncode == 0, result.stderr


def test_the_toy_referee_imports_without_django(toy_game):
    result = _imports_without_django(type(toy_game.referee).__module__)
    assert result.returncode == 0, result.stderr


def test_the_guard_catches_a_module_that_imports_django():
    result = _imports_without_django("games.models")
    assert result.returncode != 0
    assert "django" in result.stderr
