"""games 0008: stored moves lose the keys their verb never read, safely, and the state caches
are dropped (a replay rebuilds them, the contest's ``control_turn`` included)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from games.models import Move, Table
from games.services import reading, writing

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("games.migrations.0008_moves_hold_only_declared_fields")


def stored(table: Table, *payloads: dict) -> None:
    """Rows written as the old write path wrote them: whatever the client sent."""
    for seq, payload in enumerate(payloads, start=table.last_seq + 1):
        Move.objects.create(table=table, seq=seq, payload=payload, at=timezone.now())
    Table.objects.filter(pk=table.pk).update(last_seq=table.last_seq + len(payloads))
    table.refresh_from_db()


def payloads(table: Table) -> list[dict]:
    return [m.payload for m in table.moves.order_by("seq")]


def test_only_undeclared_keys_go_and_only_where_the_state_stays_the_same(make_table):
    amnesia = make_table("amnesia")
    stored(
        amnesia,
        {"by": "Ana", "do": "continue", "junk": "x" * 1000, "card": "7H"},
        {"by": "Ana", "do": "end_scene", "nested": {"a": [1]}},
        {"by": "Bruno", "do": "flashback", "abilities": ["surgery"], "colour": "red"},
    )
    before = reading.rebuild_state(amnesia)
    contest = make_table("contest", ["Ana", "Bruno"], deck_mode="physical")
    character = {"name": "Zed", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
    stored(contest, {"by": "Ana", "do": "character", **character, "extra_points": 0, "x": 1})
    # a log that does not replay is left exactly as it is: nothing proves the keys harmless
    broken = make_table("amnesia")
    stored(broken, {"by": "Ana", "do": "continue", "junk": 1}, {"by": "Bruno", "do": "continue"})

    MIGRATION.forwards(apps, None)

    assert payloads(amnesia) == [
        {"by": "Ana", "do": "continue"},
        {"by": "Ana", "do": "end_scene"},
        {"by": "Bruno", "do": "flashback", "abilities": ["surgery"]},
    ]
    assert reading.rebuild_state(amnesia) == before
    assert payloads(contest) == [{"by": "Ana", "do": "character", **character, "extra_points": 0}]
    assert payloads(broken)[0] == {"by": "Ana", "do": "continue", "junk": 1}


def test_the_state_caches_are_dropped_and_rebuild_with_the_narrators_turns(make_table, gm):
    contest = make_table("contest", ["Ana", "Bruno"])
    for by, name in (("Ana", "Zed"), ("Bruno", "Yum")):
        move = {"by": by, "do": "character", "name": name, "brains": 3, "muscle": 3}
        writing.play_many(contest, [{**move, "moves": 3, "coolness": 3}], None, gm)
    old_cache = dict(reading.state_of(contest))
    old_cache.pop("control_turn")  # as a cache made before this change holds it
    Table.objects.filter(pk=contest.pk).update(state=old_cache)

    MIGRATION.forwards(apps, None)

    contest.refresh_from_db()
    assert contest.state is None and contest.state_seq == 0
    state = reading.state_of(contest)
    assert state["control_turn"] == 1 and state["controller"] == "Ana"
