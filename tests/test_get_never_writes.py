"""A GET never writes. Every URL pattern of the site, asked for with a GET by each of the
permission matrix's five actors, changes no row of any table (nor an uploaded file): the
matrix's own sweep checks it (tests/test_permission_matrix.py,
``test_who_may_reach_every_url_and_no_get_writes``), with the digest tested here. What is stale
is computed and shown, not stored: the tests below."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.urls import reverse

from games import registry
from games.models import Table
from games.services import new_tables
from games.snapshot import Snapshot
from stories.models import Story
from tests.permission_digest import digest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_a_story_not_current_is_told_and_shown_not_stored(slug, gm, gm_client):
    """A table whose kept story was dropped (or kept before that cache): its page tells the
    story from the log in memory, the same as kept, and stores nothing (the write path keeps
    it again at the next move)."""
    script = registry.kit(slug).demos(datetime(2026, 1, 2, tzinfo=UTC))[0][1]
    table = new_tables.import_script(script, gm)
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


def test_the_digest_of_the_matrix_sees_every_write(gm, make_table, changes):
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


def test_the_story_of_a_table_is_made_by_a_post_never_by_a_get(gm, make_table, gm_client):
    """The owner's GET of a table's story, before its draft is made, shows the button that
    makes it and writes nothing (it made the draft); the button's POST makes it, and once
    made, the GET leads to it, writing nothing either."""
    table = make_table("amnesia", ("Ana", "Bruno"))
    url = reverse("stories:for_table", args=[table.pk])
    before = digest()
    response = gm_client.get(url)
    assert digest() == before
    assert not Story.objects.filter(table=table).exists()
    assert response.status_code == 200
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', response.text, re.S)
    assert form and form[1] == url and "Make the book" in form[2]
    made = gm_client.post(url)
    story = Story.objects.get(table=table)
    assert made.status_code == 302 and made["Location"] == story.get_absolute_url()
    before = digest()
    assert gm_client.get(url)["Location"] == story.get_absolute_url()
    assert gm_client.get(story.get_absolute_url()).status_code == 200
    assert digest() == before
