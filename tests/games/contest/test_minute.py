"""The narrator's minute kept strictly (issue 26, item 2): a setting of the table outside the
referee's script, enforced by the write path from the moves' stored times, off by default,
and written into exports only as an informational key."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import exports
from games.contest import minute
from games.models import Table
from games.rules import IllegalMove
from games.services import new_tables, reading, writing
from tests.games.long_games import long_game
from tests.games.test_start_player import CONTEST, create

DECK = ["4H", "5H", "2C", "9C", "7D", "3D", "AS", "KS", "8D", "6C", "10D", "JH"]
TAKE = {"by": "Bo", "do": "take_control", "with": "face_card", "card": "KS"}


def table_at(owner, seconds_ago: int, extra=None) -> Table:
    table = new_tables.create_table(
        owner, "contest", ["Ana", "Bo"], options={"hand_size": 4}, deck=DECK, extra=extra
    )
    began = timezone.now() - timedelta(seconds=seconds_ago)
    for by, name in (("Ana", "Zed"), ("Bo", "Yum")):
        move = {"by": by, "do": "character", "name": name}
        move |= {"brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
        writing.play_many(table, [move], None, at=began)
    return table


def test_off_by_default_an_early_take_is_the_tables_judgement(gm) -> None:
    table = table_at(gm, 5)
    writing.play_many(table, [TAKE], table.last_seq)
    assert reading.state_of(table)["controller"] == "Bo"
    assert minute.KEY not in exports.export_script(table)


def test_a_strict_table_refuses_an_early_take_whoever_sends_it(gm) -> None:
    table = table_at(gm, 15, extra={minute.KEY: minute.STRICT})
    with pytest.raises(IllegalMove) as refused:
        writing.play_many(table, [TAKE], table.last_seq)
    assert refused.value.code == "rule_violation"
    assert "(0:45 left)" in refused.value.message or "(0:44 left)" in refused.value.message
    assert table.moves.count() == 2 and reading.state_of(table)["controller"] == "Ana"
    # A batch that holds a take is refused whole as well.
    with pytest.raises(IllegalMove):
        writing.play_many(table, [TAKE], table.last_seq)
    # Once the minute is up (by the stored times), the same take goes through.
    late = table_at(gm, 61, extra={minute.KEY: minute.STRICT})
    writing.play_many(late, [TAKE], late.last_seq)
    assert reading.state_of(late)["controller"] == "Bo"


def test_the_setting_is_an_informational_key_of_the_export_and_comes_back(gm) -> None:
    table = table_at(gm, 5, extra={minute.KEY: minute.STRICT})
    script = exports.export_script(table, with_deck=True)  # in play: its deck too
    assert script[minute.KEY] == minute.STRICT
    assert minute.KEY not in script["options"]  # the referee's options are closed
    again = new_tables.import_script(script, gm, name="Again")
    assert minute.is_strict(again)
    with pytest.raises(IllegalMove):
        writing.play_many(again, [TAKE], again.last_seq)


def test_the_new_table_form_sets_it_only_when_ticked(gm_client) -> None:
    page = gm_client.get(reverse("games:table_new") + "?game=contest").content.decode()
    assert 'name="strict_minute"' in page
    assert not minute.is_strict(create(gm_client, CONTEST))
    assert minute.is_strict(create(gm_client, CONTEST, strict_minute="on"))


def _writes_of_the_log(queries) -> int:
    """How many times the write path stored the table's place in the log (``store``)."""
    return sum(q["sql"].startswith('UPDATE "games_table" SET "last_seq"') for q in queries)


def test_an_import_is_one_batch_unless_the_minute_is_strict(gm) -> None:
    """The guard can refuse nothing at a table that does not keep the minute strictly, so its
    import is written in one step, as the other games' are; a strict table's is judged move
    by move, each at its own place in the log (the guard reads the times stored before it).
    Both ways give the same log and state."""
    script = long_game("contest", 40)
    for i, move in enumerate(script["moves"]):
        move["at"] = f"2026-11-30T20:{i // 60:02d}:{i % 60:02d}Z"  # a move a second
    with CaptureQueriesContext(connection) as free:
        batch = new_tables.import_script(script, gm)
    with CaptureQueriesContext(connection) as strict:
        judged = new_tables.import_script(script | {minute.KEY: minute.STRICT}, gm)
    assert minute.is_strict(judged) and not minute.is_strict(batch)
    assert _writes_of_the_log(free.captured_queries) == 1
    assert _writes_of_the_log(strict.captured_queries) == len(script["moves"]) == 40

    def log(table):
        return list(table.moves.order_by("seq").values_list("seq", "payload", "text", "at"))

    assert log(batch) == log(judged)
    assert reading.state_of(batch) == reading.state_of(judged)
    assert (batch.status, batch.last_seq) == (judged.status, judged.last_seq)
