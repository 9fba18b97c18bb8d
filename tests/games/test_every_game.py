"""The generic parts every game relies on, over every game (the registry's and a test-only one
that no generic file names): a clean check means these work."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games import checks
from tests.games import every_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", every_game.slugs())
def test_a_clean_check_and_the_home_and_rules_pages(slug, every_kit):
    assert checks.check_kit(every_kit) == []
    home = Client().get("/").content.decode()
    assert str(every_kit.title) in home and f"/static/{every_kit.emblem}" in home
    assert finders.find(every_kit.emblem)
    rules = Client().get(reverse("games:rules", args=[slug]))
    assert rules.status_code == 200 and str(every_kit.title) in rules.content.decode()
