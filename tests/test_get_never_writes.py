"""A GET never writes: every URL pattern of the site (as the permission matrix enumerates them,
with its world and its five actors) is asked for with a GET, and no row of any table (nor an
uploaded file) changes. What is stale is computed and shown, not stored."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import registry, services
from games.models import Table
from games.snapshot import Snapshot
from tests.test_permission_matrix import (  # noqa: F401 - the matrix's fixtures
    ACTORS,
    ROWS,
    clients,
    designer,
    digest,
    url_patterns,
    world,
)

pytestmark = pytest.mark.django_db


def test_no_get_writes_a_row(world, clients, settings):  # noqa: F811
    settings.SECRET_LINK_FAILURES = 10_000
    assert {row.key for row in ROWS} == {key for key, _route in url_patterns()}
    writers: list[str] = []
    asked = 0
    for row in ROWS:
        for actor in ACTORS:
            before = digest()
            clients[actor].get(row.url(world, actor), row.query(world) if row.query else None)
            asked += 1
            if digest() != before:
                variant = f" [{row.variant}]" if row.variant else ""
                writers.append(f"GET {row.key}{variant} as {actor}")
    assert asked == len(ROWS) * len(ACTORS)
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
