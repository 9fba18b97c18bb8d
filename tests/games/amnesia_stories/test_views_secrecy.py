"""Amnesia Stories' secrets in the pages: no view ever shows a pick before its turn is judged,
the projector shows only the slots, another user sees none of a table's pages."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.urls import reverse

from games.models import Move
from tests.games.amnesia_stories.pages import (
    all_views,
    answer_by_laptop,
    media,  # noqa: F401 - autouse: each test's own media folder
    new_table,
    normalise,
    open_reveal,
    seen,
    tell,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_view_shows_a_pick_before_the_turn_is_judged(gm_client, seed):
    """Two tables, identical but for the pending picks: every view renders the same HTML.

    Whatever a view shows during the answer phase cannot depend on the picks, so it cannot
    reveal them. The answering order and the picks are random (seeded)."""
    rng = random.Random(seed)
    players = ["Ana", "Bruno", "Caio", "Duda"]
    tables = [new_table(gm_client, players=players, name="Twin") for _ in range(2)]
    for table in tables:
        table.seed = 1234
        table.save(update_fields=["seed"])
        table.state = None  # the cache was built with the old seed: replay
        table.save(update_fields=["state"])
    # a first, judged turn with the same picks on both tables, so there is history to show
    first = {p: rng.sample(range(1, 6), 3) for p in players}
    for table in tables:
        tell(gm_client, table, text="Same tale.")
        for p in players:
            answer_by_laptop(gm_client, table, p, first[p])
        open_reveal(gm_client, table)
    order = rng.sample(players, len(players))
    for table in tables:
        tell(gm_client, table, text="Second tale.")
    for name in order[:-1]:
        picks = rng.sample(range(1, 6), 3)
        other = [p for p in range(1, 6) if p not in picks][:2] + [picks[0]]
        for table, p in zip(tables, (picks, other), strict=True):
            assert answer_by_laptop(gm_client, table, name, p).status_code == 302
        views = [all_views(gm_client, t) for t in tables]
        for key in views[0]:
            a, b = (normalise(v[key], t) for v, t in zip(views, tables, strict=True))
            assert a == b, f"{key} differs with different pending picks"
            assert "data-pick" not in a, key
            assert not re.search(r'name="pick-\d+"[^>]*checked', a), key
            assert not re.search(r"<option[^>]*selected[^>]*>\d</option>", a), key
        answered = seen(tables[0])["answered"]
        assert name in answered
        answer_page = views[0][f"answer-{name}"]
        assert answer_page.startswith("/tables/")  # an answered player's screen is gone
    # the last answer judges the turn: now, and only now, the picks appear
    last = order[-1]
    for table in tables:
        answer_by_laptop(gm_client, table, last, [1, 2, 3])
    page = gm_client.get(tables[0].get_absolute_url()).content.decode()
    assert "data-pick" not in page  # judged, but not one step is open yet
    open_reveal(gm_client, tables[0], step=1)
    page = gm_client.get(tables[0].get_absolute_url()).content.decode()
    assert "data-pick" in page


def test_projector_shows_only_the_slots_and_polls_cheaply(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table, text="A secret journey text should not be here.")
    url = reverse("amnesia_stories:projector", args=[table.pk])
    page = gm_client.get(url).content.decode()
    state = seen(table)
    assert page.count('class="slot"') == 5
    assert 'hx-trigger="table-changed"' in page and 'http-equiv="refresh"' in page
    assert f'data-poll="{reverse("games:poll", args=[table.pk])}?key=' in page
    assert "A secret journey text" not in page and "Tell the story" not in page
    for card in state["journey"]:
        assert f"/areas/{card}/" not in page or card in state["selection"].values()
    # the live poll follows the table: a restarted answer timer is something every screen shows
    poll = html.unescape(re.search(r'data-poll="([^"]+)"', page).group(1))
    version = int(re.search(r'data-version="(\d+)"', page).group(1))
    assert gm_client.get(f"{poll}&since={version}").status_code == 204
    restarted = gm_client.post(
        reverse("amnesia_stories:timer", args=[table.pk]), {"seconds": 60, "action": "restart"}
    )
    assert restarted.status_code == 302
    assert gm_client.get(f"{poll}&since={version}").status_code == 200
    again = gm_client.get(url, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and again.content.decode().lstrip().startswith(
        '<div id="screen"'
    )


def test_another_user_sees_none_of_the_stories_pages(gm_client, other_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    for url in (
        reverse("amnesia_stories:projector", args=[table.pk]),
        reverse("amnesia_stories:handoff", args=[table.pk, 0]),
        reverse("amnesia_stories:answer", args=[table.pk, 0]),
    ):
        assert other_client.get(url).status_code == 404
    response = other_client.post(
        reverse("amnesia_stories:answer", args=[table.pk, 0]),
        {"pick-1": 1, "pick-2": 2, "pick-3": 3},
    )
    assert response.status_code == 404
    assert (
        other_client.post(reverse("amnesia_stories:revealed", args=[table.pk])).status_code == 404
    )
    assert Move.objects.filter(table=table).count() == 1
