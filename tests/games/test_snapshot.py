"""The per-request snapshot: lazy, each part read once, and the same as the full replay."""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse

from games import registry
from games.models import Table
from games.services import reading, writing
from games.snapshot import Snapshot

pytestmark = pytest.mark.django_db


def play_some(table, gm) -> None:
    writing.play_many(table, [{"by": "Ana", "do": "continue", "text": "A door."}], None, gm)
    writing.play_many(table, [{"by": "Bruno", "do": "suggest", "text": "A key."}], None, gm)
    writing.play_many(table, [{"by": "Ana", "do": "end_scene"}], None, gm)


def test_nothing_is_read_until_asked_and_each_part_once(make_table, gm, django_assert_num_queries):
    table = make_table()
    play_some(table, gm)
    table = Table.objects.get(pk=table.pk)
    with django_assert_num_queries(0):
        snap = Snapshot(table)
        assert snap.kit.slug == "amnesia"
        state = snap.state  # the cache is current: no query, no replay
    with django_assert_num_queries(1):  # the live moves
        moves = snap.moves
        assert snap.moves is moves
        assert [m.seq for m in moves] == [1, 2, 3]
    with django_assert_num_queries(1):  # the seats, for the set-up the story replays from
        snap.narrative()
    with django_assert_num_queries(0):
        snap.narrative()
        assert snap.setup is snap.setup
        assert snap.legal["Bruno"] and snap.view["seats"] == state["seats"]


def test_a_dropped_cache_replays_from_the_moves_already_read(make_table, gm):
    table = make_table()
    play_some(table, gm)
    Table.objects.filter(pk=table.pk).update(state=None)
    table = Table.objects.get(pk=table.pk)
    snap = Snapshot(table)
    with mock.patch.object(reading, "live_moves", wraps=reading.live_moves) as reads:
        assert snap.state == reading.rebuild_state(table)
        assert snap.state is snap.state
    # One read for the snapshot (state and moves share it), one for the rebuild it is checked against.
    assert reads.call_count == 2


def test_the_narrative_copies_cannot_spoil_each_other(make_table, gm):
    table = make_table()
    play_some(table, gm)
    snap = Snapshot(table)
    first = snap.narrative()
    first[0]["text"] = "changed by one caller"
    assert snap.narrative()[0].get("text") != "changed by one caller"


@pytest.mark.parametrize("game", [kit.slug for kit in registry.kits()])
def test_a_table_page_never_reads_the_whole_log(make_table, gm, gm_client, game):
    # The story so far and the undo button come from what the write path keeps (games.story).
    table = make_table(game, ["Ana", "Bruno", "Caio"])
    with mock.patch.object(reading, "live_moves", wraps=reading.live_moves) as reads:
        response = gm_client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 200
    assert reads.call_count == 0


def test_the_recent_rows_are_the_logs_last_read_by_a_range_of_seq(
    long_table, make_table, gm, django_assert_num_queries
):
    """The page's move log: the last rows of the log, undo rows too, newest first, read as a
    range of ``seq`` (the ``(table, seq)`` index) whatever the log's length; a row written
    since the table was loaded comes first all the same."""
    from games.models import Move
    from games.snapshot import RECENT
    from tests.games.long_games import next_move

    table = long_table(next(k.slug for k in registry.kits() if k.bots), 20)  # any game
    writing.undo(table, None, gm)
    loaded = Table.objects.get(pk=table.pk)
    writing.play_many(table, [next_move(table)], None, gm)
    every = list(Move.objects.filter(table_id=table.pk).order_by("-seq"))
    assert len(every) > RECENT and every[1].kind == Move.Kind.UNDO
    with django_assert_num_queries(1) as done:
        rows = Snapshot(loaded).recent_rows
    assert [m.seq for m in rows] == [m.seq for m in every[:RECENT]]
    assert '"seq" >' in done.captured_queries[0]["sql"]
    # The first rows of a young log: all of them.
    young = make_table()
    play_some(young, gm)
    assert [m.seq for m in Snapshot(young).recent_rows] == [3, 2, 1]
    # A log with a gap (the write path leaves none) is read the long way, never shown short.
    Move.objects.filter(table_id=table.pk, seq=every[3].seq).delete()
    rows = Snapshot(Table.objects.get(pk=table.pk)).recent_rows
    assert [m.seq for m in rows] == [m.seq for m in every[:3] + every[4 : RECENT + 1]]
