"""Every registered game brings every part the generic code asks for, and each part works:
a game that forgets one fails here, not on the first page that needs it."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.urls import resolve, reverse

from games import registry
from games.registry import GameKit
from games.rules.base import BadScript
from games.rules.script import replay_script

ROOT = Path(__file__).resolve().parents[2]
SLUGS = [kit.slug for kit in registry.kits()]
NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)


def test_the_three_games_are_registered():
    assert {"amnesia", "amnesia_stories", "contest"} <= set(SLUGS)


def check_complete(kit: GameKit) -> None:
    for part in registry.REQUIRED_PARTS:
        assert getattr(kit, part, None), f"{kit.slug}: no {part}"
    assert kit.referee.name == kit.slug
    assert registry.kit(kit.slug) is kit
    get_template(kit.table_template)
    get_template(kit.rules_template)
    for part in ("page_context", "book", "demos"):
        assert callable(getattr(kit, part)), f"{kit.slug}: {part} is not callable"
    for name in ("figures", "balance", "figure_rows", "charts"):
        assert callable(getattr(kit.playtest, name)), f"{kit.slug}: playtest.{name}"
    if kit.carry is not None:  # its bundle part (stories.bundles)
        assert isinstance(kit.carry, registry.Carry), f"{kit.slug}: carry is not a Carry"
        for name in ("export", "check", "bring"):
            assert callable(getattr(kit.carry, name)), f"{kit.slug}: carry.{name}"


def check_book_parts(kit: GameKit) -> None:
    """The optional parts of the story book: each one, when the game has it, is usable."""
    if kit.cover is not None:
        assert callable(kit.cover), f"{kit.slug}: cover is not callable"
    if kit.pictures is not None:
        ids = kit.pictures.ids
        assert ids and all(isinstance(i, str) and i for i in ids), f"{kit.slug}: pictures.ids"
        assert callable(kit.pictures.picture), f"{kit.slug}: pictures.picture"
        assert kit.pictures.picture(min(ids))[:3] == b"\xff\xd8\xff", f"{kit.slug}: not a JPEG"
    if kit.printed_texts is not None:
        assert callable(kit.printed_texts), f"{kit.slug}: printed_texts is not callable"
        texts = list(kit.printed_texts())
        assert all(isinstance(t, str) for t in texts), f"{kit.slug}: printed_texts"


def check_demos(kit: GameKit) -> None:
    demos = kit.demos(NOW)
    assert demos, f"{kit.slug} has no demo"
    for name, script in demos:
        assert script["game"] == kit.slug, name
        code, out = replay_script(script)
        assert code == 0, f"{kit.slug} demo {name!r}: {out.get('error')}"


def check_options(kit: GameKit) -> None:
    options = kit.referee.options
    assert set(kit.option_labels) <= set(options), f"{kit.slug}: labels for unknown options"
    named = [(f"preset {k}", p["options"]) for k, p in kit.presets.items()]
    named += [(f"ruleset {r['name']}", r["options"]) for r in kit.rulesets]
    for where, values in named:
        for key, value in values.items():
            assert key in options, f"{kit.slug} {where}: unknown option {key!r}"
            try:
                options[key].check(key, value)
            except BadScript as exc:
                pytest.fail(f"{kit.slug} {where}: {exc.message}")
    for key in kit.presets.values():
        assert key["label"], f"{kit.slug}: a preset without a label"
    for spec in kit.rulesets:
        assert spec["name"] and "changelog" in spec, f"{kit.slug}: ruleset {spec}"


def check_urls(kit: GameKit) -> None:
    """Each named pattern of the game's URLconf reverses under its slug and resolves back
    into that namespace (mounted by the site's URLconf, which asks the registry)."""
    if not kit.urls:
        return
    urlconf = import_module(kit.urls)
    assert getattr(urlconf, "app_name", None) == kit.slug
    named = [p for p in urlconf.urlpatterns if getattr(p, "name", None)]
    assert named, f"{kit.slug}: urls with no named pattern"
    for pattern in named:
        kwargs = {
            arg: 1 if converter.regex == "[0-9]+" else "x"
            for arg, converter in pattern.pattern.converters.items()
        }
        url = reverse(f"{kit.slug}:{pattern.name}", kwargs=kwargs)
        assert resolve(url).namespace == kit.slug, url


@pytest.mark.parametrize("slug", SLUGS)
def test_every_part_is_present_and_usable(slug):
    kit = registry.kit(slug)
    check_complete(kit)
    check_book_parts(kit)
    check_demos(kit)
    check_options(kit)
    check_urls(kit)


def test_the_checks_pass_for_a_game_registered_by_a_test(toy_game):
    assert toy_game.slug in [k.slug for k in registry.kits()]
    check_complete(toy_game)
    check_book_parts(toy_game)
    assert (toy_game.cover, toy_game.pictures, toy_game.printed_texts) == (None, None, None)
    check_demos(toy_game)
    check_options(toy_game)


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
