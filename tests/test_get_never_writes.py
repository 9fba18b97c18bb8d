"""A GET never writes: every URL pattern of the site (as the permission matrix enumerates them,
with its world and its five actors) is asked for with a GET, and no row of any table (nor an
uploaded file) changes. What is stale is computed and shown, not stored."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection

from games import registry, services
from games.models import Table
from games.snapshot import Snapshot
from tests.test_permission_matrix import (  # noqa: F401 - the matrix's fixtures
    ACTORS,
    ROWS,
    changes,
    clients,
    designer,
    digest,
    url_patterns,
    world,
)

pytestmark = pytest.mark.django_db


def test_no_get_writes_a_row(world, clients, changes, settings):  # noqa: F811
    settings.SECRET_LINK_FAILURES = 10_000
    assert {row.key for row in ROWS} == {key for key, _route in url_patterns()}
    writers: list[str] = []
    asked = 0
    for row in ROWS:
        for actor in ACTORS:
            before = changes.digest()
            clients[actor].get(row.url(world, actor), row.query(world) if row.query else None)
            asked += 1
            if changes.digest() != before:
                variant = f" [{row.variant}]" if row.variant else ""
                writers.append(f"GET {row.key}{variant} as {actor}")
    assert asked == len(ROWS) * len(ACTORS)
    # The rows were read again after each GET that ran a statement other than a read (logins
    # touch the session, which is not watched): at least once, at most once a GET.
    assert 1 <= changes.rereads <= asked + 1
    assert writers == [], "\n".join(["GETs that wrote:", *writers])


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_a_story_not_current_is_told_and_shown_not_stored(slug, gm, gm_client):
    """A table whose kept story was dropped (or kept before that cache): its page tells the
    story from the log in memory, the same as kept, and stores nothing (the write path keeps
    it again at the next move)."""
    script = registry.kit(slug).demos(datetime(2026, 1, 2, tzinfo=UTC))[0][1]
    table = services.import_script(script, gm)
    kept = Snapshot(Table.objects.get(pk=table.pk))
    tail, facts, undo = kept.story_tail, kept.story_facts, kept.can_undo
    earlier = kept.story_before(tail.start)
    Table.objects.filter(pk=table.pk).update(story_cursor=None, story_seq=0)
    before = digest()
    snap = Snapshot(Table.objects.get(pk=table.pk))
    assert (snap.story_tail, snap.story_facts, snap.can_undo) == (tail, facts, undo)
    assert snap.story_before(tail.start) == earlier
    assert gm_client.get(table.get_absolute_url()).status_code == 200
    assert digest() == before
    assert Table.objects.get(pk=table.pk).story_cursor is None


def test_the_digest_of_the_matrix_sees_every_write(gm, make_table, changes):  # noqa: F811
    """The matrix reads every row again only after a statement that may write: a write through
    the ORM, a bulk update and raw SQL each change the next digest; reads do not."""
    table = make_table()
    before = changes.digest()
    assert Table.objects.get(pk=table.pk).name == table.name
    assert changes.digest() == before and changes.rereads == 1
    Table.objects.filter(pk=table.pk).update(name="Renamed")
    renamed = changes.digest()
    assert renamed != before and changes.rereads == 2
    table.refresh_from_db()
    table.name = "Saved"
    table.save(update_fields=["name"])
    saved = changes.digest()
    assert saved not in (before, renamed)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_table SET name = %s WHERE id = %s", ["Raw", table.pk])
    assert changes.digest() not in (before, renamed, saved)
    assert changes.digest() == digest()
