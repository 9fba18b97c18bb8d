"""What is kept from the log (``games.services.kept``): the state, the story so far, the table's
version and a finished table's playtest figures are advanced by the write path only, and after
moves and undos (every game) each is current and equal to what rebuilding it from the log gives.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import registry
from games.models import Move, Table
from games.playtests.service import FIGURES
from games.rules.script import parse_script, replay, rules_part
from games.services import kept, new_tables, reading, table_writes, writing
from tests.games.long_games import next_move

pytestmark = pytest.mark.django_db

GAMES = [kit.slug for kit in registry.kits()]  # every registered game, never by name
ON_THE_ROW = ("state", "story", "version")


def by_name(name: str) -> kept.Kept:
    return next(k for k in kept.KEPT if k.name == name)


def assert_kept_is_rebuilt(derived: kept.Kept, table: Table) -> None:
    fresh = Table.objects.get(pk=table.pk)
    assert derived.current(fresh), f"{derived.name} is not current at move {fresh.last_seq}"
    assert derived.kept(fresh) == derived.rebuild(fresh)


def test_every_kept_thing_is_advanced_by_the_write_path():
    assert [k.name for k in kept.KEPT] == ["state", "story", "version", "report"]
    assert FIGURES in kept.KEPT
    assert set(kept.fields()) == {"state", "state_seq", "story_cursor", "story_seq", "version"}


@pytest.mark.parametrize("name", ON_THE_ROW)
@pytest.mark.parametrize("game", GAMES)
def test_rebuilding_from_the_log_equals_what_the_write_path_kept(long_table, gm, game, name):
    derived = by_name(name)
    table = long_table(game, 80)
    assert_kept_is_rebuilt(derived, table)
    for _ in range(3):
        writing.play_many(table, [next_move(table)], table.last_seq, gm)
    assert_kept_is_rebuilt(derived, table)
    writing.undo(table, table.last_seq, gm)
    writing.undo(table, table.last_seq, gm)
    assert_kept_is_rebuilt(derived, table)
    writing.play_many(table, [next_move(table)], table.last_seq, gm)
    table_writes.reissue_seat_link(table, 0)  # a change outside the log: the version counts it
    assert_kept_is_rebuilt(derived, table)


@pytest.mark.parametrize("game", GAMES)
def test_what_is_dropped_or_behind_is_not_current(long_table, game):
    table = long_table(game, 30)
    Table.objects.filter(pk=table.pk).update(state=None, story_cursor=None, version=0)
    table = Table.objects.get(pk=table.pk)
    assert not any(by_name(name).current(table) for name in ON_THE_ROW)
    # what a reader shows instead, computed and stored nowhere
    assert by_name("state").rebuild(table) == reading.state_of(table)
    assert by_name("version").rebuild(table) == table.last_seq + table.bumps


def finished_demo(game: str) -> dict:
    for _name, script in registry.kit(game).demos(datetime(2026, 1, 2, tzinfo=UTC)):
        if replay(*_parsed(script)).state.get("finished"):
            return script
    raise AssertionError(f"{game} has no finished demo")


def _parsed(script: dict):
    setup, moves = parse_script(script)
    return setup, [rules_part(m) for m in moves]


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_tables_figures_are_kept_by_the_write_path(gm, game):
    table = new_tables.import_script(finished_demo(game), gm)
    assert table.status == Table.Status.FINISHED
    assert_kept_is_rebuilt(FIGURES, table)  # kept by the move that ended the game
    last = reading.live_moves(table)[-1]
    writing.undo(table, table.last_seq, gm)  # its end taken back: the figures follow
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE
    assert_kept_is_rebuilt(FIGURES, table)
    writing.play_many(table, [{**last.payload, "text": last.text}], table.last_seq, gm)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    assert_kept_is_rebuilt(FIGURES, table)
    assert Move.objects.filter(table=table).count() == table.last_seq
