"""games 0009: sharing a report becomes a choice, and nobody made it for the tables before.

Built as ``tests/test_migrations.py`` builds its database: tables written at the old schema
(games 0008, through the historical models), then the migration forward, then read back
through the current model. Every table made before is not shared; the six tables the demo
command made for the demo account are shared by name; anything else on that account is not.
"""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Table

BEFORE = [("games", "0008_moves_hold_only_declared_fields")]
AFTER = [("games", "0009_report_sharing_is_opt_in")]


def migrate(targets) -> MigrationExecutor:
    MigrationExecutor(connection).migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)


def historical_apps(executor: MigrationExecutor):
    loader = executor.loader
    applied = [key for key in loader.applied_migrations if key in loader.graph.nodes]
    return loader.project_state(applied).apps


@pytest.mark.django_db(transaction=True)
def test_existing_tables_are_not_shared_and_the_demos_are():
    try:
        old = historical_apps(migrate(BEFORE))
        OldTable = old.get_model("games", "Table")
        assert "report_sharing" not in {f.name for f in OldTable._meta.get_fields()}
        User = old.get_model("auth", "User")
        Ruleset = old.get_model("games", "Ruleset")
        designer = User.objects.create(username="designer-before", password="!")
        gm = User.objects.create(username="gm-before", password="!")
        demo = User.objects.create(username="demo", password="!")
        draft = Ruleset.objects.create(game="contest", name="Old draft", owner=designer)

        def table(owner, name, **fields):
            return OldTable.objects.create(
                name=name, game="contest", owner=owner, start_player="Ada", **fields
            ).pk

        on_a_ruleset = table(gm, "Played on a designer's draft", ruleset=draft, status="finished")
        own_options = table(gm, "Own options", status="finished")
        demo_tables = [table(demo, "The stranger's ring"), table(demo, "Escape from station Nine")]
        visitor = table(demo, "A visitor's game on the demo account")
        someone_elses = table(gm, "The hero who forgot")  # a demo's name, not the demo's table

        migrate(AFTER)

        sharing = dict(Table.objects.values_list("pk", "report_sharing"))
        not_shared = [on_a_ruleset, own_options, visitor, someone_elses]
        assert {sharing[pk] for pk in not_shared} == {Table.ReportSharing.PRIVATE}
        assert {sharing[pk] for pk in demo_tables} == {Table.ReportSharing.NAMES}
        # and back: the column goes, the tables stay
        old = historical_apps(migrate(BEFORE))
        assert old.get_model("games", "Table").objects.count() == 6
    finally:
        executor = migrate(executor_leaves())
    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())


def executor_leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
