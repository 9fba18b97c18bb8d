"""The engine's seat page (``games.seats``): every game's seat page, its moves and its guarded
link are the engine's, checked by the contract; the games come from the registry."""

from __future__ import annotations

import dataclasses

import pytest
from django.test import Client
from django.urls import reverse

from games import checks, registry
from games.checks.demos import DEMO_NOW
from games.models import Seat
from games.services import new_tables
from tests.games import every_game
from tests.games.three_cards.kit import KIT

pytestmark = pytest.mark.django_db

SEATED = [k.slug for k in registry.kits() if k.seat_page]


def test_a_seat_page_of_the_games_own_is_refused_by_the_check(game_for_tests):
    own = game_for_tests(dataclasses.replace(KIT, urls="tests.games.three_cards.own_seat_urls"))
    messages = [m for m in checks.check_kit(own) if m.id == "games.E015"]
    assert messages and "'three_cards:seat'" in messages[0].msg
    assert "games.seats.seat_urls" in messages[0].hint


def test_a_seat_page_without_its_template_or_context_is_refused(game_for_tests):
    bare = game_for_tests(dataclasses.replace(KIT, seat_template="", seat_context=None))
    parts = {m.msg.split("part ")[1].split(":")[0] for m in checks.check_kit(bare)}
    assert parts == {"'seat_template'", "'seat_context'"}


@pytest.mark.parametrize("slug", every_game.slugs())
def test_every_seat_page_throttles_guessed_links(slug, every_kit, gm, settings):
    """A game gives no throttle of its own: the engine's seat views count each wrong token."""
    kit = every_kit
    if not kit.seat_page:
        pytest.skip("no seat page")
    [(_name, script)] = kit.demos(DEMO_NOW)[:1]
    table = new_tables.import_script(dict(script), gm)
    seat = Seat.objects.filter(table=table).first()
    settings.SECRET_LINK_FAILURES = 3
    guesser = Client(REMOTE_ADDR="198.51.100.77")
    page = reverse(kit.seat_page, args=[seat.token])
    assert guesser.get(page).status_code == 200
    for n in range(3):
        assert guesser.get(reverse(kit.seat_page, args=[f"wrong-{n}"])).status_code == 404
    assert guesser.get(page).status_code == 429
    move = reverse(f"{slug}:seat_move", args=[seat.token])
    assert guesser.post(move, {}).status_code == 429


def test_a_seat_opens_only_under_its_own_games_address(gm):
    tokens = {}
    for slug in SEATED:
        [(_name, script)] = registry.kit(slug).demos(DEMO_NOW)[:1]
        table = new_tables.import_script(dict(script), gm)
        tokens[slug] = Seat.objects.filter(table=table).values_list("token", flat=True)[0]
    phone = Client()
    for slug, token in tokens.items():
        for other in SEATED:
            page = reverse(registry.kit(other).seat_page, args=[token])
            assert phone.get(page).status_code == (200 if other == slug else 404), (slug, other)
