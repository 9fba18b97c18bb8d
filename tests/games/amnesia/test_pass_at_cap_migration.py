"""Tables stored before ``pass_at_cap`` existed keep replaying: the migration writes the option
out, "allow" where the log passes at the cap and "refuse" elsewhere, and drops the stale cache."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Table
from games.services import reading

BEFORE = [("amnesia", None)]


def migrate(targets) -> MigrationExecutor:
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection)


def stored_table(apps, owner_id: int, name: str, moves: list[dict]) -> int:
    """A table as the first version stored it: options without pass_at_cap, a cached state."""
    Table = apps.get_model("games", "Table")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    options = {"start_tokens": 10, "token_cap": 10, "finale_factor": 2, "tie_loses": True}
    table = Table.objects.create(
        name=name,
        game="amnesia",
        owner_id=owner_id,
        options=options,
        deck_mode="virtual",
        seed=5,
        extra={},
        start_player="Ana",
        last_seq=len(moves),
        state={"stale": True, "options": options},
        state_seq=len(moves),
    )
    for position, player in enumerate(["Ana", "Bruno"]):
        Seat.objects.create(table=table, position=position, name=player, token=f"{name}-{player}")
    for seq, payload in enumerate(moves, start=1):
        Move.objects.create(table=table, seq=seq, payload=payload, at=timezone.now())
    return table.pk


@pytest.mark.django_db(transaction=True)
def test_a_stored_table_that_passed_at_the_cap_still_replays(django_user_model):
    owner = django_user_model.objects.create_user(username="early")
    opening = [{"by": "Ana", "do": "continue"}, {"by": "Ana", "do": "end_scene"}]
    try:
        executor = migrate(BEFORE)
        loader = executor.loader
        apps = loader.project_state(
            [k for k in loader.applied_migrations if k in loader.graph.nodes]
        ).apps
        old = stored_table(
            apps, owner.pk, "old", [*opening, {"by": "Bruno", "do": "pass", "take": 0}]
        )
        plain = stored_table(apps, owner.pk, "plain", [*opening, {"by": "Bruno", "do": "continue"}])
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    old_table, plain_table = Table.objects.get(pk=old), Table.objects.get(pk=plain)
    assert old_table.options["pass_at_cap"] == "allow"
    assert plain_table.options["pass_at_cap"] == "refuse"
    for table in (old_table, plain_table):
        assert table.state is None  # the stale cache went; the state is the log's replay
        state = reading.state_of(table)
        assert "stale" not in state and state == reading.rebuild_state(table)
    assert reading.state_of(old_table)["turn"] == "Ana"  # Bruno's pass went through
    assert reading.state_of(plain_table)["phase"] == "scene"
