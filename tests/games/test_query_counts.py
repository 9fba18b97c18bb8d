"""A move's answer and a table page cost a few queries at any length of the log: at most 10
each, at 10 and at 1,000 moves, for every game (the answer is the page's htmx panel)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import registry
from tests.games.long_games import next_move

pytestmark = pytest.mark.django_db

MAX_QUERIES = 10


@pytest.mark.parametrize("moves", [10, 1000])
@pytest.mark.parametrize("game", [kit.slug for kit in registry.kits()])
def test_a_page_and_a_moves_answer_take_few_queries(
    game, moves, long_table, gm_client, django_assert_max_num_queries
):
    table = long_table(game, moves)
    assert table.last_seq == moves
    url = reverse("games:table", args=[table.pk])
    with django_assert_max_num_queries(MAX_QUERIES):
        page = gm_client.get(url)
    assert page.status_code == 200
    move = next_move(table)
    with django_assert_max_num_queries(MAX_QUERIES):
        answer = gm_client.post(
            reverse("games:move", args=[table.pk]),
            {"move": json.dumps(move), "expected_seq": table.last_seq},
            HTTP_HX_REQUEST="true",
        )
    assert answer.status_code == 200, answer.content[:500]
    assert b"<html" not in answer.content  # the panel, drawn from the state just written
    table.refresh_from_db()
    assert table.last_seq == moves + 1
    with django_assert_max_num_queries(MAX_QUERIES):
        assert gm_client.get(url, HTTP_HX_REQUEST="true").status_code == 200


@pytest.mark.parametrize("game", [kit.slug for kit in registry.kits()])
def test_a_moves_answer_reads_the_table_once(game, long_table, gm_client):
    """The write path's locking read is the only read of the table's row a move makes: the
    view reads the move once that row says which game it is (writing.play_sent), and the
    answer is drawn from the row as written."""
    table = long_table(game, 10)
    with CaptureQueriesContext(connection) as done:
        answer = gm_client.post(
            reverse("games:move", args=[table.pk]),
            {"move": json.dumps(next_move(table)), "expected_seq": table.last_seq},
            HTTP_HX_REQUEST="true",
        )
    assert answer.status_code == 200, answer.content[:500]
    reads = [q["sql"] for q in done.captured_queries if 'FROM "games_table"' in q["sql"]]
    assert len(reads) == 1, reads
    assert "FOR UPDATE" in reads[0] or connection.vendor == "sqlite"
