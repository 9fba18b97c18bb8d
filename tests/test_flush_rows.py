"""A transactional test's flush writes back the rows ``post_migrate`` wrote after an earlier
flush instead of sending the signal again (tests/plugins/database.py, ``PostMigrateRows``): the rows
written back must be the ones the signal itself writes, table by table."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command, sql
from django.db import connection
from django.db.models.signals import post_migrate

from games.models import Ruleset
from tests.plugins.database import POST_MIGRATE_ROWS, written_rows

pytestmark = pytest.mark.django_db(transaction=True)


def without_ids(rows: dict[str, tuple[list[str], list[tuple]]]) -> dict[str, list[tuple]]:
    """Each table's rows, sorted, without what differs each time the signal runs: the columns
    that hold ids (new ones each time) and the times (a built-in ruleset's creation)."""
    kept = {}
    for table, (columns, found) in rows.items():
        keep = [i for i, c in enumerate(columns) if c != "id" and not c.endswith("_id")]
        kept[table] = sorted(
            repr(tuple("a time" if isinstance(row[i], datetime) else row[i] for i in keep))
            for row in found
        )
    return kept


def linked() -> dict[str, set]:
    """What the ids link: each permission's model, each ruleset's owner."""
    return {
        "permissions": set(
            Permission.objects.values_list(
                "content_type__app_label", "content_type__model", "codename"
            )
        ),
        "rulesets": set(Ruleset.objects.values_list("name", "game", "owner__username")),
    }


def test_a_flush_writes_back_what_post_migrate_writes():
    call_command("flush", verbosity=0, interactive=False)  # the first of a run sends the signal
    sent = []
    post_migrate.connect(lambda **kw: sent.append(kw), weak=False, dispatch_uid="flush-test")
    try:
        call_command("flush", verbosity=0, interactive=False)  # this one writes back its rows
    finally:
        post_migrate.disconnect(dispatch_uid="flush-test")
    assert sent == [], "the second flush wrote the kept rows back, without the signal"
    assert POST_MIGRATE_ROWS.kept, "the first flush kept the rows the signal wrote"
    written_back, written_back_links = written_rows(connection), linked()
    assert written_back in POST_MIGRATE_ROWS.kept.values()
    assert {"django_content_type", "auth_permission", "games_ruleset"} <= set(written_back)
    # New rows after the written-back ones take ids past them (no id taken twice).
    made = ContentType.objects.create(app_label="flush_test", model="kept")
    assert made.pk > max(row[0] for row in written_back["django_content_type"][1])
    assert Permission.objects.create(codename="kept", name="Kept", content_type=made).pk > max(
        row[0] for row in written_back["auth_permission"][1]
    )

    call_command("flush", verbosity=0, interactive=False, inhibit_post_migrate=True)
    assert written_rows(connection) == {}, "the flush empties every table"
    sql.emit_post_migrate_signal(0, False, connection.alias)  # the signal itself
    ContentType.objects.clear_cache()
    signalled = written_rows(connection)

    assert without_ids(written_back) == without_ids(signalled)
    assert written_back_links == linked()
