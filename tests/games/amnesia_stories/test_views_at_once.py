"""Amnesia Stories' answers sent at once, late or twice: three players answering one story at
once are all stored, an answer to a turn that is over is a 409, revealed cards sent twice are
stored once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Move
from tests.games.amnesia_stories.pages import (
    PLAYERS,
    answer_by_laptop,
    form_fields,
    media,  # noqa: F401 - autouse: each test's own media folder
    new_table,
    open_reveal,
    position,
    revealed_form,
    seen,
    tell,
)

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
def test_three_players_answering_one_story_at_once_are_all_stored(gm):
    """Three phones open their answer screens, then all post at the same moment, each
    request on its own database connection: every answer counts, none is a 409."""
    clients = []
    for _ in PLAYERS:
        client = Client()
        client.force_login(gm)
        clients.append(client)
    table = new_table(clients[0])
    tell(clients[0], table)
    posts = []
    for client, name in zip(clients, PLAYERS, strict=True):
        url = reverse("amnesia_stories:answer", args=[table.pk, position(table, name)])
        hidden = form_fields(client.get(url).content.decode())
        assert hidden["expected_turn"].startswith("answer/1/") and hidden["client_id"]
        posts.append((client, url, {**hidden, "pick-1": 1, "pick-2": 2, "pick-3": 3}))
    statuses: list[int] = []
    barrier = threading.Barrier(len(posts))

    def send(client, url, data) -> None:
        try:
            barrier.wait()
            statuses.append(client.post(url, data).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=p) for p in posts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [302, 302, 302]
    assert Move.objects.filter(table=table).count() == 4
    table.refresh_from_db()
    assert seen(table)["turn_number"] == 2 and seen(table)["last_turn"]["picks"] == {
        name: [1, 2, 3] for name in PLAYERS
    }


def test_an_answer_to_a_turn_that_is_over_is_a_409(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    url = reverse("amnesia_stories:answer", args=[table.pk, position(table, "Caio")])
    stale = form_fields(gm_client.get(url).content.decode())
    for name in PLAYERS:
        assert answer_by_laptop(gm_client, table, name, [1, 2, 3]).status_code == 302
    open_reveal(gm_client, table)
    tell(gm_client, table)  # the next turn: Caio's old screen is for the turn before
    response = gm_client.post(url, {**stale, "pick-1": 3, "pick-2": 2, "pick-3": 1})
    assert response.status_code == 409 and "That turn is over" in response.content.decode()
    assert "Caio" not in seen(table)["answered"]


def test_the_revealed_cards_sent_twice_are_stored_once(gm_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    hidden = form_fields(page, "revealed")
    data = {**hidden, **revealed_form(table, {n: [1, 2, 3] for n in PLAYERS})}
    url = reverse("amnesia_stories:revealed", args=[table.pk])
    first = gm_client.post(url, data)
    again = gm_client.post(url, data)  # the answer to the first was lost: the same post again
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert table.moves.count() == 4 and seen(table)["turn_number"] == 2
