"""Whose is what a bundle brings (issue #20): the importer's, never the accounts it names.

A bundle names people by username (the game master, seat users, authors of narration edits,
owners of contest characters and rulesets). Whatever it says, what it brings belongs to the
person who imports it (the uploader, the command's ``--owner``), its stories arrive private,
and the names stay names (no account is linked or made) unless the command is told
``--link-accounts``. The same table imported again is extended, refused, or left to whoever
has it; an export keeps a turn's secret answers out; a zip bomb is refused for its size.
"""

from __future__ import annotations

import contextlib
import io
import json
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command, execute_from_command_line
from django.db import connection
from django.urls import reverse
from django.utils import translation

from amnesia_site.accounts.models import Profile
from games.contest import characters
from games.contest.models import Character, SeatCharacter
from games.models import Move, Ruleset, Seat, Table
from games.playtests.models import DESIGNERS_GROUP
from games.services import new_tables, reading, writing
from stories import services as story_services
from stories.bundles.export import build_bundle, export_bundle
from stories.bundles.format import BundleError
from stories.bundles.importing import import_bundle
from stories.bundles.summary import summary_lines
from stories.models import NarrationEdit, Story, story_for

from .bundle_sites import importer, zip_of
from .conftest import make_story

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def contest_script() -> dict:
    return json.loads((SCRIPTS / "contest/last_card_and_winner.json").read_text())["script"]


def stories_script() -> dict:
    return json.loads((SCRIPTS / "amnesia_stories/01_judging_branches.json").read_text())["script"]


@pytest.fixture
def root(db, django_user_model):
    """The site's superuser, whom a hostile bundle names as everyone."""
    user = django_user_model.objects.create_superuser(username="root", password="x" * 12)
    Profile.objects.update_or_create(user=user, defaults={"display_name": "Rita Root"})
    return user


@pytest.fixture
def designer(other):
    other.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    return other


@pytest.fixture
def naming_root(root) -> bytes:
    """A bundle in which the superuser is everyone: game master of a public, published story
    they edited and sat at, owner of a finished contest's characters and of its ruleset.
    The site keeps the superuser's account, not those tables."""
    story = make_story(root, visibility=Story.Visibility.PUBLIC, published=True)
    seq = story.table.moves.filter(kind=Move.Kind.MOVE).exclude(text="").first().seq
    story_services.edit_narration(story, seq, "Rewritten by root.", root)
    Seat.objects.filter(table=story.table, position=0).update(user=root)
    contest = new_tables.import_script(contest_script(), root, "Root's contest")
    contest.ruleset = Ruleset.objects.create(
        game="contest", name="Root rules", version=1, options={}, owner=root, created_by=root
    )
    contest.save(update_fields=["ruleset"])
    for seat in contest.seats.all():
        character = Character.objects.create(owner=root, name=f"Hero of {seat.name}", brains=4)
        SeatCharacter.objects.create(seat=seat, character=character)
    assert characters.credit(contest) > 0  # the win, credited at home
    data = export_bundle(Table.objects.all())
    Table.objects.all().delete()
    Character.objects.all().delete()
    Ruleset.objects.filter(builtin=False).delete()
    return data


def assert_nothing_is_roots(root, owner) -> None:
    users = get_user_model().objects.count()
    assert Table.objects.count() == 2
    assert not Table.objects.filter(owner=root).exists()
    assert set(Table.objects.values_list("owner", flat=True)) == {owner.pk}
    assert not Story.objects.exclude(visibility=Story.Visibility.PRIVATE).exists()
    assert not Story.objects.filter(published_at__isnull=False).exists()
    assert not Seat.objects.filter(user__isnull=False).exists()
    assert not NarrationEdit.objects.filter(editor__isnull=False).exists()
    assert not Move.objects.filter(entered_by__isnull=False).exists()
    assert not Character.objects.filter(owner=root).exists()
    assert not Ruleset.objects.filter(owner=root).exists()
    assert not Ruleset.objects.filter(created_by=root).exists()
    assert get_user_model().objects.count() == users  # no account made
    # The names are kept: the game master the book prints, the author of the edit.
    story = Story.objects.get()
    assert story_services.make_book(story).game_master == "Rita Root"
    assert NarrationEdit.objects.get().editor_name == "Rita Root"
    history = [v.who for v in story_services.history(story, NarrationEdit.objects.get().move_seq)]
    assert history[0] == "Rita Root" and owner.username not in history
    # The characters are the importer's, with their points, the home win credited once.
    contest = Table.objects.get(game="contest")
    links = SeatCharacter.objects.filter(seat__table=contest).select_related("character")
    assert {link.character.owner_id for link in links} == {owner.pk}
    assert all(link.credited for link in links)
    earned = reading.state_of(contest)["earned_points"]
    assert any(earned.values())
    assert {link.character.name: link.character.unspent_points for link in links} == {
        f"Hero of {link.seat.name}": earned.get(link.seat.name, 0) for link in links
    }
    assert contest.ruleset.owner == owner and contest.ruleset.name == "Root rules"


def test_a_bundle_naming_the_superuser_on_the_page_leaves_nothing_to_them(
    client, naming_root, root, designer
):
    client.force_login(designer)
    url = reverse("stories:bundle_import")
    response = client.post(url, {"bundle": ContentFile(naming_root, name="b.zip")})
    page = response.content.decode()
    assert response.status_code == 200 and "2 tables came in." in page
    assert_nothing_is_roots(root, designer)
    assert "Rita Root (root)" in page  # named in the summary as a name


def test_a_bundle_naming_the_superuser_on_the_command_line_leaves_nothing_to_them(
    naming_root, root, tmp_path
):
    mover = importer()
    path = tmp_path / "b.zip"
    path.write_bytes(naming_root)
    out = io.StringIO()
    call_command("bundle", "import", str(path), "--owner", "mover", stdout=out)
    assert "2 tables came in." in out.getvalue()
    assert_nothing_is_roots(root, mover)
    assert "kept as names, linked to no account here: Rita Root (root)." in out.getvalue()


def test_the_command_needs_an_owner_it_knows(naming_root, tmp_path, django_db_blocker):
    path = tmp_path / "b.zip"
    path.write_bytes(naming_root)
    for args in ([], ["--owner", "nobody"]):
        with pytest.raises(CommandError, match="--owner") as caught:
            call_command("bundle", "import", str(path), *args)
        assert caught.value.returncode == 2
    assert Table.objects.count() == 0
    # From the shell as well, as manage.py runs it (execute_from_command_line, in this process:
    # a new one was two seconds of CPU starting Django): exit status 2 and a sentence, before
    # a table is read (any use of the database fails here). The system checks it runs first
    # ask the engine once whether it stores JSON (a connection, no table); that answer is the
    # connection's for the process, asked here before the block as any earlier test may have.
    assert connection.features.supports_json_field
    said = io.StringIO()
    with (
        django_db_blocker.block(),
        contextlib.redirect_stderr(said),
        pytest.raises(SystemExit) as exited,
    ):
        execute_from_command_line(["manage.py", "bundle", "import", str(path)])
    assert exited.value.code == 2, said.getvalue()
    assert "bundle import needs --owner NAME" in said.getvalue()


def test_link_accounts_links_only_accounts_that_exist(gm, other, tmp_path):
    """Moving one's own site: names that are usernames here are those accounts; a name with
    no account here stays a name, and none is made."""
    ghost = get_user_model().objects.create_user(username="ghost")
    story = make_story(gm)
    seq = story.table.moves.filter(kind=Move.Kind.MOVE).exclude(text="").first().seq
    story_services.edit_narration(story, seq, "By the ghost.", ghost)
    Seat.objects.filter(table=story.table, position=1).update(user=other)
    path = tmp_path / "b.zip"
    path.write_bytes(export_bundle(Table.objects.all()))
    Table.objects.all().delete()
    ghost.delete()
    mover = importer()
    out = io.StringIO()
    call_command("bundle", "import", str(path), "--owner", "mover", "--link-accounts", stdout=out)
    assert "Linked to the accounts of the same username on this site: gm, other." in out.getvalue()
    assert "linked to no account here: ghost." in out.getvalue()
    table = Table.objects.get()
    assert table.owner == gm and table.seats.get(position=1).user == other
    edit = NarrationEdit.objects.get()
    assert edit.editor is None and edit.editor_name == "ghost"
    assert not get_user_model().objects.filter(username="ghost").exists()
    assert Story.objects.get().visibility == Story.Visibility.PRIVATE
    assert not Table.objects.filter(owner=mover).exists()


def test_a_ruleset_is_matched_only_to_one_the_importer_owns(gm, other, designer):
    """Another designer's ruleset of the same game, name and version is never the one the
    bundle's table is attached to (it would feed their reports); a second import finds the
    importer's own."""
    rival = get_user_model().objects.create_user(username="rival")
    table = new_tables.import_script(contest_script(), gm, "Rules table")
    table.ruleset = Ruleset.objects.create(game="contest", name="House", version=3, owner=gm)
    table.save(update_fields=["ruleset"])
    data = export_bundle(Table.objects.all())
    Table.objects.all().delete()
    Ruleset.objects.filter(name="House").update(owner=rival, created_by=rival)
    theirs = Ruleset.objects.get(name="House")
    import_bundle(data, designer)
    arrived = Table.objects.get().ruleset
    assert arrived != theirs and arrived.owner == designer
    assert (arrived.game, arrived.version) == ("contest", 3) and "House" in arrived.name
    assert not Table.objects.filter(ruleset=theirs).exists()
    # The same ruleset again: the importer's is found, not made twice.
    Table.objects.all().delete()
    import_bundle(data, designer)
    assert Table.objects.get().ruleset == arrived
    assert Ruleset.objects.filter(game="contest", version=3).count() == 2


# -- the same table again -----------------------------------------------------------------
def answering(owner, moves: int) -> Table:
    """An Amnesia Stories table of the first ``moves`` moves of a script."""
    script = stories_script()
    return new_tables.import_script({**script, "moves": script["moves"][:moves]}, owner)


def play_on(table: Table, moves: list[dict]) -> None:
    for move in moves:
        writing.play_many(table, [move], table.last_seq)


def test_a_later_bundle_extends_the_table_with_the_moves_and_the_secrets_it_adds(gm, other):
    """At home a turn is being answered (one answer given): the first bundle leaves that
    answer out; the second, made once the turn was judged, brings it and what followed."""
    table = answering(gm, 6)
    story = story_for(table)
    story_services.edit_narration(story, 1, "Edited before the first bundle.", gm)
    early = build_bundle(Table.objects.filter(pk=table.pk), with_deck=True)
    assert early.left_out == 1
    play_on(table, stories_script()["moves"][6:9])
    # After the first bundle: an edit of an old move and one of a move it did not have.
    story_services.edit_narration(story, 1, "Edited again, later.", other)
    story_services.edit_narration(story, 9, "The third bard, edited.", gm)
    later = export_bundle(Table.objects.filter(pk=table.pk), with_pending=True, with_deck=True)
    home = (reading.script_of(table)["moves"], reading.rebuild_state(table))
    history = [(e.move_seq, e.text) for e in NarrationEdit.objects.order_by("pk")]
    Table.objects.all().delete()

    mover = importer()
    first = import_bundle(early.data, mover)
    assert first.tables and first.left_out == 1
    here = Table.objects.get()
    assert here.last_seq == 5 and NarrationEdit.objects.count() == 1
    summary = import_bundle(later, mover)
    assert summary.tables == [] and summary.extended == [here.name] and summary.edits == 2
    assert any("now given the moves the bundle adds" in line for line in summary_lines(summary))
    here = Table.objects.get()
    moves = reading.script_of(here)["moves"]
    assert [Move.objects.get(table=here, seq=i + 1).payload for i in range(9)] == [
        {k: v for k, v in m.items() if k not in ("at", "text")} for m in home[0]
    ]
    assert [m["at"] for m in moves] == [m["at"] for m in home[0]]  # the bundle's times
    assert reading.state_of(here) == home[1] == reading.rebuild_state(here)
    # The story took the edits it did not have, each once, by the names that wrote them.
    edits = NarrationEdit.objects.order_by("move_seq", "created_at")
    assert sorted((e.move_seq, e.text) for e in edits) == sorted(history)
    assert [e.editor_name for e in edits] == ["gm", "other", "gm"]
    assert not Move.objects.filter(entered_by__isnull=False).exists()
    # Again: nothing more to add, and the earlier bundle has nothing to add either.
    counts = Move.objects.count()
    assert import_bundle(later, mover).already_there == [here.name]
    assert import_bundle(early.data, mover).already_there == [here.name]
    assert Move.objects.count() == counts


def refused_after(kept: bytes, later: bytes, says: str) -> None:
    """On a site holding only ``kept`` (imported by a new person), ``later`` is refused with a
    sentence matching ``says``, and the table, its version and the log stay as they were."""
    Table.objects.all().delete()
    mover = importer()
    import_bundle(kept, mover)
    here = Table.objects.get()
    before = (reading.script_of(here), here.version, Move.objects.count())
    with pytest.raises(BundleError, match=says):
        import_bundle(later, mover)
    here.refresh_from_db()
    assert (reading.script_of(here), here.version, Move.objects.count()) == before


def test_a_bundle_whose_log_disagrees_is_refused_and_nothing_is_written(gm):
    table = answering(gm, 4)
    kept = export_bundle(Table.objects.filter(pk=table.pk), with_deck=True)
    # At home the judged turn's last answer was taken back and given otherwise.
    writing.undo(table, table.last_seq)
    play_on(table, [{"by": "Caio", "do": "answer", "picks": [5, 4, 3]}])
    play_on(table, stories_script()["moves"][4:6])
    other_log = export_bundle(Table.objects.filter(pk=table.pk), with_pending=True, with_deck=True)
    refused_after(kept, other_log, "moves that differ from the bundle's")


def test_a_later_bundle_with_a_move_at_no_such_time_is_refused_and_nothing_is_written(gm):
    table = answering(gm, 4)
    kept = export_bundle(Table.objects.filter(pk=table.pk), with_deck=True)
    play_on(table, stories_script()["moves"][4:6])
    archive = zipfile.ZipFile(
        io.BytesIO(export_bundle(Table.objects.filter(pk=table.pk), with_deck=True))
    )
    entries = {name: archive.read(name) for name in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    manifest["tables"][0]["script"]["moves"][-1]["at"] = "2026-13-45T00:00:00"  # a 13th month
    entries["bundle.json"] = json.dumps(manifest).encode()
    later = zip_of(entries)
    refused_after(kept, later, "not an ISO 8601 time")


def test_a_table_someone_else_has_is_left_alone_and_named(gm, other):
    table = answering(gm, 4)
    data = export_bundle(Table.objects.filter(pk=table.pk), with_deck=True)
    play_on(table, stories_script()["moves"][4:6])
    longer = export_bundle(Table.objects.filter(pk=table.pk), with_pending=True, with_deck=True)
    Table.objects.all().delete()
    import_bundle(data, gm)  # gm brought it in first
    before = reading.script_of(Table.objects.get())
    summary = import_bundle(longer, other)
    assert summary.others == [table.name] and not summary.changed
    lines = summary_lines(summary)
    assert f"Left alone, because someone else has them on this site: {table.name}." in lines
    here = Table.objects.get()
    assert here.owner == gm and reading.script_of(here) == before


# -- secrets in an export (the referee contract's "Secrets") --------------------------------
def test_the_export_leaves_a_turns_secret_answers_out_unless_asked(gm, tmp_path):
    table = answering(gm, 7)  # two of three answers given: secret until the turn is judged
    out = tmp_path / "b.zip"
    said = io.StringIO()
    call_command("bundle", "export", str(out), stdout=said)
    manifest = json.loads(zipfile.ZipFile(out).read("bundle.json"))
    script = manifest["tables"][0]["script"]
    assert script["pending_left_out"] == 2 and next(iter(script)) == "pending_left_out"
    assert [m["do"] for m in script["moves"]] == ["tell", "answer", "answer", "answer", "tell"]
    assert "Left out 2 secret answer(s)" in said.getvalue()
    call_command("bundle", "export", str(out), "--with-pending", stdout=io.StringIO())
    script = json.loads(zipfile.ZipFile(out).read("bundle.json"))["tables"][0]["script"]
    assert "pending_left_out" not in script and len(script["moves"]) == 7
    # Once the turn is judged, the export is whole again.
    play_on(table, stories_script()["moves"][7:8])
    call_command("bundle", "export", str(out), stdout=io.StringIO())
    script = json.loads(zipfile.ZipFile(out).read("bundle.json"))["tables"][0]["script"]
    assert "pending_left_out" not in script and len(script["moves"]) == 8


def test_a_table_in_play_leaves_its_deck_out_and_no_site_takes_that_bundle(
    gm, designer, client, tmp_path
):
    """A virtual deck in play: its seed and stacked deck would deal the copy the same hands,
    shown to anyone. The bundle leaves them out, and is refused on the page and by the
    command; the operator's ``--with-secrets`` carries the whole table."""
    script = contest_script()
    table = new_tables.import_script({**script, "moves": script["moves"][:2]}, gm)
    assert table.status == Table.Status.ACTIVE
    home = reading.state_of(table)
    partial, whole = tmp_path / "partial.zip", tmp_path / "whole.zip"
    said = io.StringIO()
    call_command("bundle", "export", str(partial), stdout=said)
    call_command("bundle", "export", str(whole), "--with-secrets", stdout=io.StringIO())
    carried = json.loads(zipfile.ZipFile(partial).read("bundle.json"))["tables"][0]["script"]
    assert next(iter(carried)) == "deck_left_out" and carried["deck_left_out"] is True
    assert "seed" not in carried and "deck" not in carried
    assert "Left out the deck of 1 table(s) in play" in said.getvalue()
    Table.objects.all().delete()  # the other site

    client.force_login(designer)
    upload = ContentFile(partial.read_bytes(), name="partial.zip")
    response = client.post(reverse("stories:bundle_import"), {"bundle": upload})
    page = response.content.decode()
    assert response.status_code == 400
    assert "is in play and its deck was left out" in page and "--with-secrets" in page
    with pytest.raises(CommandError, match="its deck was left out"):
        call_command("bundle", "import", str(partial), "--owner", designer.username)
    assert not Table.objects.exists()

    call_command("bundle", "import", str(whole), "--owner", designer.username, stdout=io.StringIO())
    assert reading.state_of(Table.objects.get()) == home


# -- a zip bomb -------------------------------------------------------------------------------
def zip_bomb(before: dict[str, bytes], name: str, size: int = 200 * 1024 * 1024) -> bytes:
    """``size`` bytes of zeros in a zip of a fraction of a megabyte (after the small entries
    ``before``), written a megabyte at a time in memory, never on disk."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for entry, data in before.items():
            archive.writestr(entry, data)
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        chunk = bytes(1024 * 1024)
        with archive.open(info, "w", force_zip64=True) as member:
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return out.getvalue()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """200 MB unpacked, named as no bundle names a file, after another such file: refused
    for its size all the same (main said "names a file outside its own folders"). Deflating
    200 MB is over a second of CPU: kept for the run (tests/memo.py), so make test's
    PostgreSQL run reads the SQLite run's bomb."""
    from tests.memo import remember

    (data,) = remember(
        "zip-bomb",
        "../evil.txt x zeros.bin",
        lambda: (zip_bomb({"../evil.txt": b"x"}, "zeros.bin"),),
    )
    return data


SAID = {
    "en": "too large once unpacked",
    "pt-br": "grande demais depois de descompactado",
    "ja": "展開すると大きすぎます",
}


@pytest.mark.parametrize("language", SAID)
def test_a_zip_bomb_is_refused_for_its_size_in_every_language(bomb, language):
    assert len(bomb) < 1024 * 1024
    with translation.override(language), pytest.raises(BundleError) as caught:
        import_bundle(bomb, importer())
    assert SAID[language] in str(caught.value)
    assert "outside its own folders" not in str(caught.value)


def test_a_zip_bomb_is_refused_for_its_size_on_the_page(client, designer, bomb):
    client.force_login(designer)
    url = reverse("stories:bundle_import")
    response = client.post(url, {"bundle": ContentFile(bomb, name="bomb.zip")})
    assert response.status_code == 400 and SAID["en"] in response.content.decode()
    assert Table.objects.count() == 0
