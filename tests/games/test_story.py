"""The story so far kept as the moves come (games.story) against the full replay, which stays
the truth: for every golden script, after an undo and the move played again, rendered in each
language; and the table page's earlier scenes, page by page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import registry
from games import story as kept_story
from games.models import StoryEntry, Table
from games.rules import BadScript
from games.rules.script import parse_script, replay
from games.services import new_tables, writing
from games.snapshot import Snapshot

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
FILES = sorted(SCRIPTS.glob("*/*.json"))
LANGUAGES = ("en", "pt-br", "ja")


def legal_prefix(path: Path) -> dict | None:
    """The golden script's moves up to its first illegal one (None: no set-up to play)."""
    script = json.loads(path.read_text(encoding="utf-8"))["script"]
    try:
        setup, moves = parse_script(script)
    except BadScript:
        return None
    result = replay(setup, moves)
    end = len(moves) if result.error is None else result.error_index
    return {**script, "moves": moves[:end]}


def full_replay(table: Table) -> list[dict]:
    return Snapshot(Table.objects.get(pk=table.pk)).narrative()


def rendered(table: Table, entries: list[dict], language: str) -> str:
    kit = registry.kit(table.game)
    snap = Snapshot(table)
    with translation.override(language):
        return render_to_string(kit.story_template, kit.story_part(snap, entries))


def assert_kept_is_replay(table: Table) -> None:
    table = Table.objects.get(pk=table.pk)
    truth = full_replay(table)
    assert kept_story.kept(table) == truth
    tail = Snapshot(table).story_tail
    assert tail.entries == truth[tail.start :]
    assert tail.start == max(0, len(truth) - kept_story.PAGE)
    for language in LANGUAGES:
        assert rendered(table, tail.entries, language) == rendered(
            table, truth[-kept_story.PAGE :] if truth else [], language
        )


@pytest.fixture
def small_pages(monkeypatch):
    """Two entries a page: every few moves, entries go out of the table's row to rows."""
    monkeypatch.setattr(kept_story, "PAGE", 2)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_the_kept_story_is_the_full_replay(path, gm, small_pages):
    script = legal_prefix(path)
    if script is None:
        pytest.skip("a malformed script: no table to play it on")
    table = new_tables.import_script(script, gm)
    assert_kept_is_replay(table)
    if not script["moves"]:
        return
    undone = table.moves.order_by("-seq").first()
    writing.undo(table, table.last_seq, gm)
    assert_kept_is_replay(table)
    # told on from the cursor the undo left (not from a retelling)
    table.refresh_from_db()
    move = undone.as_script_move()
    move.pop("at")
    writing.play_many(table, [move], table.last_seq, gm)
    assert_kept_is_replay(table)


@pytest.mark.parametrize("game", [kit.slug for kit in registry.kits()])
def test_a_long_kept_story_is_the_full_replay_and_mostly_in_rows_and_an_undo_mends_it(
    long_table, game
):
    """One 400-move table a game, read and then undone (each built its own when these were
    two tests): the kept story is the full replay, mostly in rows; then an undo keeps the
    rows that stay and mends one that does not."""
    table = long_table(game, 400)
    assert_kept_is_replay(table)
    table.refresh_from_db()
    waiting = len(table.story_cursor["entries"])
    # only the last page and the open entries wait in the table's row
    assert waiting <= 2 * kept_story.PAGE + 8
    assert StoryEntry.objects.filter(table=table).count() + waiting == len(full_replay(table))
    # An undo tells the story again; the rows it would write the same are kept (not deleted
    # and written again), and a row that differs from the retelling is replaced.
    table.refresh_from_db()
    rows = dict(StoryEntry.objects.filter(table=table).values_list("position", "pk"))
    if not rows:
        pytest.skip("this game keeps no rows at this length")
    writing.undo(table, table.last_seq)
    assert_kept_is_replay(table)
    after = dict(StoryEntry.objects.filter(table=table).values_list("position", "pk"))
    kept = [p for p, pk in rows.items() if after.get(p) == pk]
    assert len(kept) >= len(rows) - kept_story.PAGE, "the undo wrote the old rows again"
    # A row that no longer says what the log tells is told again at the next retelling.
    first = min(after)
    StoryEntry.objects.filter(table=table, position=first).update(data={"kind": "not told"})
    table.refresh_from_db()
    writing.undo(table, table.last_seq)
    assert_kept_is_replay(table)
