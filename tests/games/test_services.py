"""The one write path against the real database: append, stale moves, undo, import."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from games import services
from games.models import Move, Table
from games.rules import BadScript, IllegalMove
from games.rules.script import replay_script

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Bruno", "Caio"]


@pytest.fixture
def table(gm):
    return services.create_table(gm, "amnesia", PLAYERS, seed=7)


def test_play_appends_with_consecutive_seq_and_caches_state(table, gm):
    services.play(table, {"by": "Ana", "do": "continue", "text": " It begins. "}, 0, gm)
    services.play(table, {"by": "Ana", "do": "end_scene"}, 1, gm)
    rows = list(table.moves.all())
    assert [r.seq for r in rows] == [1, 2]
    assert rows[0].text == "It begins."
    assert rows[0].entered_by == gm
    table.refresh_from_db()
    assert table.last_seq == table.state_seq == 2
    assert table.state["turn"] == "Bruno"
    assert table.started_at is not None


def test_cached_state_equals_a_rebuild_from_the_log(table, gm):
    for i, move in enumerate(
        [
            {"by": "Ana", "do": "continue"},
            {"by": "Bruno", "do": "insist"},
            {"by": "Ana", "do": "refuse"},
            {"by": "Ana", "do": "open"},
            {"by": "Bruno", "do": "higher"},
        ]
    ):
        services.play(table, move, i, gm)
    table.refresh_from_db()
    cached = table.state
    Table.objects.filter(pk=table.pk).update(state=None)  # drop the cache
    table.refresh_from_db()
    assert services.state_of(table) == cached
    assert services.rebuild_state(table) == cached


def test_stale_expected_seq_is_refused_and_changes_nothing(table, gm):
    services.play(table, {"by": "Ana", "do": "continue"}, 0, gm)
    with pytest.raises(services.StaleMove) as exc:
        services.play(table, {"by": "Ana", "do": "end_scene"}, 0, gm)
    assert "move 0" in str(exc.value) and "move 1" in str(exc.value)
    table.refresh_from_db()
    assert table.last_seq == 1
    assert table.moves.count() == 1


def test_illegal_move_writes_nothing(table, gm):
    with pytest.raises(IllegalMove) as exc:
        services.play(table, {"by": "Bruno", "do": "continue"}, 0, gm)
    assert exc.value.code == "not_your_turn"
    assert table.moves.count() == 0
    table.refresh_from_db()
    assert table.last_seq == 0


def test_undo_is_logged_and_replays(table, gm):
    services.play(table, {"by": "Ana", "do": "continue"}, 0, gm)
    services.play(table, {"by": "Ana", "do": "end_scene"}, 1, gm)
    services.undo(table, 2, gm)
    table.refresh_from_db()
    assert table.last_seq == 3
    undo_row = table.moves.get(seq=3)
    assert undo_row.kind == Move.Kind.UNDO and undo_row.undoes == 2
    assert table.state["phase"] == "scene"
    assert [m.seq for m in services.live_moves(table)] == [1]
    # the undone move is gone from the script, the log keeps all three rows
    assert len(services.script_of(table)["moves"]) == 1
    services.undo(table, 3, gm)
    services_state = services.state_of(table)
    assert services_state["tokens"] == {"Ana": 10, "Bruno": 10, "Caio": 10}
    with pytest.raises(services.NothingToUndo):
        services.undo(table, 4, gm)


def test_finishing_marks_the_table_and_undo_reopens_it(gm):
    table = services.create_table(
        gm, "amnesia", ["Ana", "Bruno"], options={"finale_factor": 0}, seed=1
    )
    moves = [
        {"by": "Ana", "do": "continue"},
        {"by": "Ana", "do": "end_scene"},
        {"by": "Bruno", "do": "flashback"},
        {"by": "Bruno", "do": "end_scene"},
        {"by": "Ana", "do": "room_flashback"},
        {"by": "Ana", "do": "end_scene"},
        {"by": "Bruno", "do": "end_story", "agreed": ["Ana", "Bruno"]},
    ]
    for i, move in enumerate(moves):
        services.play(table, move, i, gm)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.finished_at is not None
    services.undo(table, table.last_seq, gm)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE and table.finished_at is None


def test_export_import_replay_round_trip(table, gm):
    moves = [
        {"by": "Ana", "do": "continue", "text": "Blood. A knock."},
        {"by": "Caio", "do": "suggest", "text": "A cat"},
        {"by": "Ana", "do": "end_scene", "text": "She runs."},
        {"by": "Bruno", "do": "flashback"},
    ]
    for i, move in enumerate(moves):
        services.play(table, move, i, gm)
    script = json.loads(json.dumps(services.script_of(table)))
    assert [m.get("text") for m in script["moves"]] == [
        "Blood. A knock.",
        "A cat",
        "She runs.",
        None,
    ]
    assert all("at" in m for m in script["moves"])
    copy = services.import_script(script, gm)
    assert copy.pk != table.pk
    assert services.state_of(copy) == services.state_of(table)
    assert [m.at for m in copy.moves.all()] == [m.at for m in table.moves.all()]
    assert services.script_of(copy)["moves"] == script["moves"]
    code, replayed = replay_script(script)
    assert code == 0 and replayed == services.state_of(table)


def test_import_of_an_illegal_script_creates_nothing(gm):
    script = {
        "game": "amnesia",
        "players": PLAYERS,
        "moves": [{"by": "Ana", "do": "continue"}, {"by": "Ana", "do": "pass", "take": 0}],
    }
    with pytest.raises(IllegalMove):
        services.import_script(script, gm)
    with pytest.raises(BadScript):
        services.import_script({"game": "chess", "players": PLAYERS}, gm)
    assert Table.objects.count() == 0
    assert Move.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_writers_at_once_never_share_a_seq(gm):
    """Two threads post the same expected_seq: one wins, the other gets a StaleMove."""
    table = services.create_table(gm, "amnesia", PLAYERS, seed=3)
    services.play(table, {"by": "Ana", "do": "continue"}, 0, gm)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def writer(name: str) -> None:
        try:
            barrier.wait()
            services.play(Table.objects.get(pk=table.pk), {"by": name, "do": "suggest"}, 1, gm)
            outcomes.append("ok")
        except services.StaleMove:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in ("Bruno", "Caio")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok", "stale"]
    assert list(Move.objects.filter(table=table).values_list("seq", flat=True)) == [1, 2]


def test_an_unknown_card_code_is_a_bad_field_not_a_crash(table, gm):
    """Replay calls it a malformed script; the write path calls it a bad argument."""
    with pytest.raises(IllegalMove) as exc:
        services.play(table, {"by": "Ana", "do": "continue", "card": "ZZ"}, 0, gm)
    assert exc.value.code == "bad_argument" and "ZZ" in exc.value.message
    contest = services.create_table(gm, "contest", ["Ana", "Bruno"], deck_mode="physical")
    with pytest.raises(IllegalMove) as exc:
        services.play(contest, {"by": "Ana", "do": "play", "card": "5S", "draws": ["QQ"]}, 0, gm)
    assert exc.value.code == "bad_argument"
    assert Move.objects.count() == 0


def test_the_cached_state_keeps_seat_order_on_every_database(gm):
    """PostgreSQL's jsonb sorts object keys (shortest first); the cache must not."""
    players = ["Bruno", "Al", "Caio"]
    table = services.create_table(gm, "amnesia", players, seed=2)
    services.play(table, {"by": "Bruno", "do": "continue"}, 0, gm)
    fresh = Table.objects.get(pk=table.pk)
    assert list(fresh.state["tokens"]) == players
    assert fresh.state == services.rebuild_state(fresh)
    assert list(fresh.state) == list(services.rebuild_state(fresh))


def _told(gm):
    """An Amnesia Stories table whose first story is told: everyone is to answer."""
    table = services.create_table(gm, "amnesia_stories", PLAYERS, seed=5)
    story = table.state["journey"][:3]
    services.play(table, {"by": "Ana", "do": "tell", "story": story}, 0, gm)
    return table


def test_play_many_stores_every_move_in_order_under_one_seq_check(gm):
    table = _told(gm)
    moves = [{"by": n, "do": "answer", "picks": [1, 2, 3], "text": n} for n in PLAYERS]
    played = services.play_many(table, moves, 1, gm)
    assert [p.move.seq for p in played] == [2, 3, 4]
    assert [m.text for m in table.moves.order_by("seq")][1:] == PLAYERS
    assert played[-1].state["turn_number"] == 2  # the last answer judged the turn
    fresh = Table.objects.get(pk=table.pk)
    assert fresh.last_seq == fresh.state_seq == table.last_seq == 4
    assert fresh.state == services.rebuild_state(fresh) == played[-1].state


def test_play_many_with_an_illegal_move_in_the_middle_stores_none(gm):
    table = _told(gm)
    before = Table.objects.get(pk=table.pk)
    moves = [
        {"by": "Ana", "do": "answer", "picks": [1, 2, 3]},
        {"by": "Bruno", "do": "answer", "picks": [1, 1, 3]},  # the same number twice
        {"by": "Caio", "do": "answer", "picks": [1, 2, 3]},
    ]
    with pytest.raises(IllegalMove) as exc:
        services.play_many(table, moves, 1, gm)
    assert exc.value.code == "rule_violation" and exc.value.index == 1
    assert list(table.moves.values_list("seq", flat=True)) == [1]
    after = Table.objects.get(pk=table.pk)
    assert (after.last_seq, after.state_seq, after.state) == (1, 1, before.state)
    assert after.state["answered"] == []
    assert table.last_seq == 1  # the caller's copy did not move on either


def test_play_many_checks_the_seq_once_before_the_first_move(gm):
    table = _told(gm)
    moves = [{"by": "Ana", "do": "answer", "picks": [1, 2, 3]}]
    with pytest.raises(services.StaleMove):
        services.play_many(table, moves, 0, gm)
    assert services.play_many(table, [], 1, gm) == []
    assert table.moves.count() == 1
