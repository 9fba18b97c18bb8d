"""The search bot in the lab (issue 49): offered in the run form's bot choices with a
sentence saying what it does, and played like any other bot by the lab's chunks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.playtests import lab_chunks
from games.playtests.models import SimulationRun
from tests.playtests.conftest import builtin

GAME = "amnesia_stories"


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0


def test_the_run_form_offers_the_search_bot_and_the_lab_plays_it(designer, client):
    client.force_login(designer)
    url = reverse("playtests:lab", args=[GAME])
    page = client.get(url).content.decode()
    assert "search" in page and "games tried a move" in page
    response = client.post(
        url,
        {
            "ruleset": builtin(GAME, "Amnesia Stories draft 4").pk,
            "players": 4,
            "games": 6,
            "bots": "search,sensible",
            "params": "budget=2",
            "seed": 3,
        },
    )
    assert response.status_code == 302
    run = SimulationRun.objects.get(parent__isnull=True)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 6
    assert run.params == {"budget": 2}
    assert run.figures["bot.search.win_edge"]["n"] >= 1
