"""Games registered for the tests only (docs/adding-a-game.md, "A game for the tests only").

A test game is a package under ``tests/games/<slug>/`` like a real one (its ``kit.py``, its
referee, its ``templates/<slug>/``, its ``urls.py`` if it has pages of its own) but no app in
``INSTALLED_APPS``: the ``game_for_tests`` fixture (``tests/conftest.py``) registers it for
one test and forgets it after, with :func:`register_for_tests`.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from pathlib import Path

from django.urls import include, path

from games import registry
from games.registry import GameKit


def register_for_tests(settings, kit: GameKit) -> GameKit:
    """Make ``kit`` known to the site for this test: in the registry, its package's
    ``templates/`` findable, its ``urls`` (if any) mounted under the site's URLconf. ``settings``
    is pytest-django's fixture, which puts the settings back after the test."""
    folder = Path(sys.modules[type(kit.referee).__module__].__file__).resolve().parent
    while not (folder / "kit.py").exists() and folder.parent != folder:
        folder = folder.parent  # a referee in a rules/ package
    engine = dict(settings.TEMPLATES[0])
    engine["DIRS"] = [*engine["DIRS"], folder / "templates"]
    settings.TEMPLATES = [engine, *settings.TEMPLATES[1:]]
    # The site's URLconf mounts the kits registered when it is first imported
    # (amnesia_site/urls.py): imported before this kit is, or a test's kit stays mounted in it
    # for every later test of the process (a seat page of a game's own answered them all).
    site = import_module(settings.ROOT_URLCONF)
    registry.register(kit)
    if kit.urls:
        urlconf = types.ModuleType(f"tests.kits.urls_{kit.slug}")
        urlconf.urlpatterns = [*site.urlpatterns, path("", include(kit.urls))]
        sys.modules[urlconf.__name__] = urlconf
        settings.ROOT_URLCONF = urlconf.__name__  # clears the URL caches (setting_changed)
    return kit
