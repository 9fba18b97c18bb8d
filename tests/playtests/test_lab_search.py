"""The search bot in the lab (issue 49): offered in the run form's bot choices with a
sentence saying what it does, and played like any other bot by the lab's chunks."""

from __future__ import annotations

import re

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


def test_the_run_form_names_the_bots_in_the_readers_words_and_takes_them(designer, client):
    """In Portuguese the run form listed the bots by their code names ("random, sensible,
    search. search experimenta … (budget: …)"); it names them in words, and the bots typed
    in words (or by code name, as scripts do) start the run with those bots."""
    client.force_login(designer)
    url = reverse("playtests:lab", args=[GAME])
    client.cookies["django_language"] = "pt-br"
    page = client.get(url).content.decode()
    field = page.split('name="bots"', 1)[1]
    hint = field.split('class="helptext">', 1)[1].split("</p>", 1)[0]
    assert "aleatório, sensato, busca." in hint and "Orçamento da busca:" in hint, hint
    assert not re.search(r"\b(random|sensible|search|budget)\b", hint), hint
    assert 'value="sensato"' in page
    ruleset = builtin(GAME, "Amnesia Stories draft 4").pk
    form = {"ruleset": ruleset, "players": 3, "games": 3, "seed": 1}
    response = client.post(url, {**form, "bots": "Sensato, aleatório"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert SimulationRun.objects.get(parent__isnull=True).bots == ["sensible", "random"]
