"""Amnesia's long story so far (the generic tests of the kept story are in
tests/games/test_story.py): a dropped story told again, a move that tells only its own
entries, and the table page's earlier scenes, page by page, on the long game of
``stories.samples`` (many scenes in few moves)."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from django.urls import reverse

from games import story as kept_story
from games.models import StoryEntry, Table
from games.services import new_tables, reading, writing
from games.snapshot import Snapshot
from stories.samples import long_script
from tests.games.test_story import assert_kept_is_replay, full_replay

pytestmark = pytest.mark.django_db


@cache
def _long_script(moves: int) -> dict:
    script = long_script(max(10, min(420, moves * 2 // 5 + 10)))
    script["moves"] = script["moves"][:moves]
    return script


def long_script_of(moves: int) -> dict:
    """Amnesia's long sample game cut at ``moves`` moves (still in play), a copy."""
    return copy.deepcopy(_long_script(moves))


@pytest.fixture
def small_pages(monkeypatch):
    """Two entries a page: every few moves, entries go out of the table's row to rows."""
    monkeypatch.setattr(kept_story, "PAGE", 2)


def long_amnesia(owner, moves: int) -> Table:
    return new_tables.import_script(long_script_of(moves), owner)


def test_a_dropped_story_is_told_again_from_the_log(gm):
    table = long_amnesia(gm, 120)
    before = kept_story.kept(Table.objects.get(pk=table.pk))
    Table.objects.filter(pk=table.pk).update(story_cursor=None)
    StoryEntry.objects.filter(table=table).delete()
    table = Table.objects.get(pk=table.pk)
    # A page tells it in memory (a GET never writes); the write path keeps it again.
    assert Snapshot(table).story_tail.entries == before[-kept_story.PAGE :]
    assert Table.objects.get(pk=table.pk).story_cursor is None
    writing.current_story(table)
    assert kept_story.kept(Table.objects.get(pk=table.pk)) == before == full_replay(table)


def test_each_move_tells_only_its_own_entries(gm, django_assert_max_num_queries):
    """A move reads no entry: the open ones wait in the table's row it locks anyway."""
    table = long_amnesia(gm, 300)
    state = reading.state_of(table)
    by = next(n for n in state["seats"] if n != state["narrator"])
    with django_assert_max_num_queries(6):  # savepoint, lock, insert, update, release (+1)
        writing.play_many(
            table, [{"by": by, "do": "suggest", "text": "A key?"}], table.last_seq, gm
        )
    assert_kept_is_replay(table)


def test_earlier_scenes_page_back_to_the_first(gm, gm_client, small_pages):
    table = long_amnesia(gm, 40)
    truth = full_replay(table)
    url = reverse("games:table", args=[table.pk])
    page = gm_client.get(url).content.decode()
    assert "Show earlier scenes" in page
    snap = Snapshot(Table.objects.get(pk=table.pk))
    part = snap.story_tail
    pages = [part.entries]
    while part.has_earlier:
        link = reverse("games:story", args=[table.pk]) + f"?before={part.start}"
        plain = gm_client.get(link)
        assert plain.status_code == 200
        assert b"<html" in plain.content  # a page of its own without JavaScript
        htmx = gm_client.get(link, HTTP_HX_REQUEST="true")
        assert htmx.status_code == 200
        assert b"<html" not in htmx.content
        part = snap.story_before(part.start)
        pages.insert(0, part.entries)
    assert [e for p in pages for e in p] == truth


def test_earlier_scenes_are_the_owners_only(gm, other_client):
    table = long_amnesia(gm, 40)
    link = reverse("games:story", args=[table.pk]) + "?before=5"
    assert other_client.get(link).status_code == 404
