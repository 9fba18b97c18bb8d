"""What every game's seat page (a player's phone, ``games/seat_frame.html``) shows alike, the
games taken from the registry: no way into the rest of the site, and, once the game is over,
the way to the player's impressions."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.amnesia_stories import reveal
from games.models import Table
from games.services import new_tables
from games.snapshot import Snapshot

pytestmark = pytest.mark.django_db

SEATED = [kit.slug for kit in registry.kits() if kit.seat_page]


def demo_table(gm, slug: str, finished: bool) -> Table:
    """The game's first demo table that is over (or still going on: its first half)."""
    for _name, script in registry.kit(slug).demos(datetime(2026, 1, 2, tzinfo=UTC)):
        if not finished:
            script = {**script, "moves": script["moves"][: len(script["moves"]) // 2]}
        table = new_tables.import_script(script, gm)
        if (table.status == Table.Status.FINISHED) == finished:
            return table
    raise AssertionError(f"no demo of {slug} is {'over' if finished else 'going on'}")


def seat_page(table: Table, htmx: bool = False) -> str:
    seat = table.seats.order_by("position").first()
    url = reverse(registry.kit(table.game).seat_page, args=[seat.token])
    headers = {"HX-Request": "true"} if htmx else {}
    response = Client().get(url, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("finished", [False, True], ids=["going on", "over"])
@pytest.mark.parametrize("slug", SEATED)
def test_a_seat_page_has_no_site_navigation(slug, finished, gm) -> None:
    page = seat_page(demo_table(gm, slug, finished))
    assert 'class="brand"' in page  # the site's name stays
    assert "site-nav" not in page
    assert reverse("login") not in page and reverse("signup") not in page


@pytest.mark.parametrize("slug", SEATED)
def test_a_seat_page_leads_to_the_players_impressions_once_the_game_is_over(slug, gm) -> None:
    going_on = demo_table(gm, slug, finished=False)
    assert 'data-testid="seat-impressions"' not in seat_page(going_on)
    table = demo_table(gm, slug, finished=True)
    seat = table.seats.order_by("position").first()
    link = f'href="{reverse("playtests:seat_impression", args=[seat.token])}"'
    if slug == "amnesia_stories":
        # Amnesia Stories shows the room its end step by step (the last story's reveal): the
        # phones say the game is over, and lead on, only once its last step is open.
        judged = reveal.on_screen(Snapshot(table).view)
        assert judged is not None
        assert link not in seat_page(table)
        assert link not in seat_page(table, htmx=True)
        reveal.open_step(table, judged, reveal.step_count(judged) - 1)
        assert link not in seat_page(table, htmx=True)
        reveal.open_step(table, judged, reveal.step_count(judged))
    assert link in seat_page(table)
    # The phone that followed the last move gets the panel alone (its poll's refresh).
    assert link in seat_page(table, htmx=True)
