"""Bundles: export from one database, import into an empty one, and everything is there,
belonging to the importer (the people it names kept as names); a second import changes
nothing; a damaged or hostile bundle is refused whole."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from PIL import Image

from games import services as game_services
from games.models import Move, Ruleset, Seat, Table
from games.playtests.models import DESIGNERS_GROUP, Impression, PlaytestReport
from stories import services
from stories.bundles.export import export_bundle
from stories.bundles.format import BundleError
from stories.bundles.importing import import_bundle
from stories.models import NarrationEdit, Story, Tag

from .conftest import make_story

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 60), "navy").save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def laptop(gm, other):
    """What one game master's laptop holds: three games' tables, a story edited twice (and
    reverted), with a cover and tags, a seat's user, an alias, a ruleset, a report with
    impressions; and an undone move, so the log and the moves in force differ."""
    gm.first_name = "Marta"
    gm.save()
    story = make_story(gm, visibility=Story.Visibility.PUBLIC, published=True, blurb="Blurb.")
    story.tags.set(Tag.for_names(["noir", "hotel"]))
    story.cover.save("c.png", ContentFile(png()))
    seq = story.table.moves.filter(kind=Move.Kind.MOVE).exclude(text="").first().seq
    first = services.edit_narration(story, seq, "Edited once.", gm)
    services.edit_narration(story, seq, "Edited twice.", other)
    services.revert_narration(story, seq, first, gm)
    table = story.table
    Seat.objects.filter(table=table, position=1).update(user=other, alias="Player 2")
    contest_script = json.loads((SCRIPTS / "contest/last_card_and_winner.json").read_text())
    contest = game_services.import_script(contest_script["script"], gm)
    contest.ruleset = Ruleset.objects.create(
        game="contest", name="Laptop rules", version=2, options={}, owner=gm
    )
    contest.language = "ja"  # a table of its own language: it comes back in it
    contest.save(update_fields=["ruleset", "language"])
    report, _ = PlaytestReport.objects.get_or_create(table=contest, defaults={"place": "Club"})
    ratings = dict(fun=5, length=4, clarity=3, downtime=2, decisions=1, again=5)
    Impression.objects.create(report=report, player="Ana", best_moment="The pretzel.", **ratings)
    stories_script = json.loads((SCRIPTS / "amnesia_stories/01_judging_branches.json").read_text())[
        "script"
    ]
    journeys = game_services.import_script(stories_script, gm)
    game_services.undo(journeys, None, gm)
    return [table, contest, journeys]


def cover_seen(story) -> tuple | None:
    """What a reader sees of a cover: its size and its colour (an import re-encodes it)."""
    if not story.cover:
        return None
    with Image.open(story.cover.open("rb")) as image:
        r, g, b = image.convert("RGB").resize((1, 1)).getpixel((0, 0))
        return image.size, (r // 8, g // 8, b // 8)


def snapshot() -> dict:
    """Everything a bundle carries, by table UUID, in a form two databases can compare."""
    out = {}
    for table in Table.objects.all():
        story = Story.objects.filter(table=table).first()
        report = PlaytestReport.objects.filter(table=table).first()
        out[str(table.uuid)] = {
            "name": table.name,
            "game": table.game,
            "language": table.language,
            "owner": table.owner.username,
            "status": table.status,
            "started_at": table.started_at,
            "finished_at": table.finished_at,
            "state": game_services.rebuild_state(table),
            "script": game_services.script_of(table),
            "seats": [
                (s.position, s.name, s.alias, s.user and s.user.username) for s in table.seats.all()
            ],
            "ruleset": table.ruleset and (table.ruleset.name, table.ruleset.version),
            "story": story
            and {
                "title": story.title,
                "blurb": story.blurb,
                "language": story.language,
                "visibility": story.visibility,
                "published_at": story.published_at,
                "tags": sorted(story.tag_names()),
                "cover": cover_seen(story),
                "book": services.make_book(story).plain_text(),
                "game_master": services.make_book(story).game_master,
                # Who wrote each version, as the history shows it (an account or a name kept).
                "history": [
                    (e.text, e.kind, e.editor.username if e.editor else e.editor_name, e.created_at)
                    for e in NarrationEdit.objects.filter(story=story).order_by("pk")
                ],
            },
            "report": report
            and {
                "place": report.place,
                "impressions": [
                    (i.player, i.ratings(), i.best_moment) for i in report.impressions.all()
                ],
            },
        }
    return out


def importer():
    """Whoever brings a bundle in (made on first use)."""
    return get_user_model().objects.get_or_create(username="mover")[0]


def empty_the_site():
    """The other laptop: a database with no table, story or user in it but the importer's."""
    Table.objects.all().delete()
    Ruleset.objects.filter(builtin=False).delete()
    get_user_model().objects.all().delete()
    return importer()


def as_imported(seen: dict, owner: str) -> dict:
    """A snapshot as it reads once imported by ``owner``: their tables, the stories private,
    no seat linked to an account (the names the bundle gave are kept, see the history)."""
    out = {}
    for key, table in seen.items():
        table = {**table, "owner": owner, "seats": [(*s[:3], None) for s in table["seats"]]}
        if table["story"]:
            table["story"] = {**table["story"], "visibility": "private", "published_at": None}
        out[key] = table
    return out


def test_a_round_trip_brings_everything_and_a_second_import_changes_nothing(laptop):
    before = snapshot()
    # The whole log (the answers of the turn being answered included: see the secrets below).
    data = export_bundle(Table.objects.all(), with_pending=True, with_deck=True)
    mover = empty_the_site()
    assert Table.objects.count() == 0
    summary = import_bundle(data, mover)
    assert sorted(summary.tables) == sorted(v["name"] for v in before.values())
    assert summary.stories == 1 and summary.edits == 3 and summary.impressions == 1
    assert summary.names == ["gm", "other"] and summary.linked == []
    after = snapshot()
    # Every table replays to the same state; stories, reports too; the game master and the
    # authors of the edits are the same names, now kept as names.
    assert after == as_imported(before, "mover")
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["mover"]
    # A second import changes nothing.
    counts = [m.objects.count() for m in (Table, Move, Story, NarrationEdit, Impression)]
    again = import_bundle(data, mover)
    assert again.tables == [] and len(again.already_there) == 3 and again.names == []
    assert [m.objects.count() for m in (Table, Move, Story, NarrationEdit, Impression)] == counts
    assert snapshot() == after


def test_export_by_user_and_game(laptop, other, tmp_path):
    game_services.import_script(
        json.loads((SCRIPTS / "contest/last_card_and_winner.json").read_text())["script"], other
    )
    out = tmp_path / "b.zip"
    call_command("bundle", "export", str(out), "--user", "gm", "--game", "contest")
    manifest = json.loads(zipfile.ZipFile(out).read("bundle.json"))
    assert [t["uuid"] for t in manifest["tables"]] == [str(laptop[1].uuid)]
    empty_the_site()
    stdout = io.StringIO()
    call_command("bundle", "import", str(out), "--owner", "mover", stdout=stdout)
    assert "1 table came in." in stdout.getvalue()
    assert Table.objects.get().uuid == laptop[1].uuid


# -- refused bundles ----------------------------------------------------------------------
def zip_of(entries: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


def refused(data: bytes, settings=None) -> str:
    mover = importer()
    before = snapshot()
    counts = [m.objects.count() for m in (get_user_model(), Table, Story, Tag, Ruleset)]
    with pytest.raises(BundleError) as caught:
        import_bundle(data, mover)
    assert snapshot() == before
    assert [m.objects.count() for m in (get_user_model(), Table, Story, Tag, Ruleset)] == counts
    return str(caught.value)


@pytest.fixture
def bundle(laptop) -> bytes:
    data = export_bundle(Table.objects.all(), with_deck=True)
    Table.objects.all().delete()  # the same site, without the tables: a good import would add them
    return data


def test_a_truncated_bundle_is_refused(bundle):
    for cut in (len(bundle) // 2, len(bundle) - 30, 10):
        assert "not a whole zip" in refused(bundle[:cut]) or "damaged" in refused(bundle[:cut])


def test_an_oversized_bundle_is_refused(bundle, settings):
    settings.BUNDLE_MAX_BYTES = len(bundle) - 1
    assert "larger than" in refused(bundle)


def test_a_zip_bomb_is_refused(bundle):
    manifest = zipfile.ZipFile(io.BytesIO(bundle)).read("bundle.json")
    # A few kilobytes that expand to 40 megabytes of spaces after the JSON.
    bomb = zip_of({"bundle.json": manifest + b" " * (40 * 1024 * 1024)})
    assert len(bomb) < 200_000
    assert "too large once unpacked" in refused(bomb)


@pytest.mark.parametrize(
    "name",
    [
        "../evil.json",
        "/etc/evil",
        "files/../../evil.jpg",
        "files\\..\\evil.jpg",
        "C:/evil.jpg",
        "files/extra.sh",
    ],
)
def test_a_bundle_naming_files_outside_its_folders_is_refused(bundle, name):
    entries = {
        n: zipfile.ZipFile(io.BytesIO(bundle)).read(n)
        for n in zipfile.ZipFile(io.BytesIO(bundle)).namelist()
    }
    entries[name] = b"x"
    assert "outside its own folders" in refused(zip_of(entries))


def test_a_symbolic_link_is_refused(bundle):
    out = io.BytesIO(bundle)
    with zipfile.ZipFile(out, "a") as archive:
        info = zipfile.ZipInfo("files/" + "a" * 32 + ".jpg")
        info.external_attr = 0o120777 << 16
        archive.writestr(info, "/etc/passwd")
    assert "outside its own folders" in refused(out.getvalue())


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda m: b"{not json", "not valid JSON"),
        (lambda m: b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
        (
            lambda m: json.dumps(
                {**m, "tables": [{**m["tables"][0], "script": {"moves": 3}}]}
            ).encode(),
            "does not replay",
        ),
        (lambda m: json.dumps({**m, "version": 99}).encode(), "format or version"),
        (lambda m: json.dumps({**m, "tables": "x"}).encode(), "not as expected"),
        # One table good, the last one broken: nothing of the good one is kept either.
        (
            lambda m: json.dumps(
                {
                    **m,
                    "tables": m["tables"][:-1]
                    + [
                        {
                            **m["tables"][-1],
                            "script": {
                                **m["tables"][-1]["script"],
                                "moves": m["tables"][-1]["script"]["moves"]
                                + [{"by": "Nobody", "do": "fly"}],
                            },
                        }
                    ],
                }
            ).encode(),
            "does not replay",
        ),
        (
            lambda m: json.dumps(
                {
                    **m,
                    "tables": [
                        {
                            **m["tables"][0],
                            "report": {
                                "place": "",
                                "impressions": [
                                    {
                                        "player": "A",
                                        "seat": None,
                                        "fun": 9,
                                        "length": 1,
                                        "clarity": 1,
                                        "downtime": 1,
                                        "decisions": 1,
                                        "again": 1,
                                        "best_moment": "",
                                        "confusing_rule": "",
                                        "change": "",
                                    }
                                ],
                            },
                        }
                    ],
                }
            ).encode(),
            "not as expected",
        ),
        (
            lambda m: json.dumps(
                {**m, "people": [{**m["people"][0], "username": "bad name/"}] + m["people"][1:]}
            ).encode(),
            "not as expected",
        ),
    ],
)
def test_bad_json_is_refused_whole(bundle, change, words):
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    entries["bundle.json"] = change(json.loads(entries["bundle.json"]))
    assert words in refused(zip_of(entries))


@pytest.mark.parametrize("version", [0, -1, 2**40])
def test_a_ruleset_version_the_database_cannot_store_is_refused(bundle, version):
    """Not an error of the database (a 500 on the page) but a sentence, on both engines."""
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    (table,) = [t for t in manifest["tables"] if t["ruleset"]]
    table["ruleset"]["version"] = version
    entries["bundle.json"] = json.dumps(manifest).encode()
    assert "ruleset.version" in refused(zip_of(entries))


def test_the_command_refuses_with_a_message(bundle, tmp_path):
    path = tmp_path / "cut.zip"
    path.write_bytes(bundle[: len(bundle) // 3])
    importer()
    with pytest.raises(CommandError, match="refused, nothing was imported"):
        call_command("bundle", "import", str(path), "--owner", "mover")
    assert Table.objects.count() == 0


# -- the upload page ----------------------------------------------------------------------
def test_designers_upload_a_bundle_and_read_what_came_in(client, laptop, gm, other):
    from django.contrib.auth.models import Group

    data = export_bundle(Table.objects.all(), with_deck=True)
    Table.objects.all().delete()
    url = reverse("stories:bundle_import")
    client.force_login(other)
    assert client.get(url).status_code == 403  # not a designer
    other.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    page = client.get(url)
    assert page.status_code == 200 and b'enctype="multipart/form-data"' in page.content
    upload = ContentFile(data, name="bundle.zip")
    response = client.post(url, {"bundle": upload}, follow=True)
    assert "3 tables came in." in response.content.decode()
    assert Table.objects.count() == 3
    assert set(Table.objects.values_list("owner", flat=True)) == {other.pk}  # the uploader's
    bad = client.post(url, {"bundle": ContentFile(data[:100], name="b.zip")})
    assert bad.status_code == 400 and "nothing was imported" in bad.content.decode()
    assert Table.objects.count() == 3


# -- from this database to another backend --------------------------------------------------
def _postgres_server() -> str | None:
    url = os.environ.get("PG_TEST_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    try:
        import psycopg  # only to see whether a server answers

        psycopg.connect(url, dbname="postgres", connect_timeout=3).close()
    except Exception:  # no server (or no driver): the cross-backend test has nothing to use
        return None
    return url


def _other_url(server: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


@pytest.mark.long
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite to PostgreSQL only")
def test_a_bundle_from_sqlite_comes_into_postgresql(laptop, tmp_path):
    """A fresh PostgreSQL database, migrated and filled by the ``bundle`` command in another
    process, holds the same tables, states, stories and reports."""
    from tests.stories.bundle_digest import digest

    server = _postgres_server()
    if server is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("PostgreSQL does not answer: CI needs it for this test.")
        pytest.skip("PostgreSQL does not answer")
    import psycopg

    name = f"test_bundles_{os.getpid()}"
    admin = psycopg.connect(server, dbname="postgres", autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    path = tmp_path / "laptop.zip"
    path.write_bytes(export_bundle(Table.objects.all(), with_pending=True, with_deck=True))
    env = {
        **os.environ,
        "DATABASE_URL": _other_url(server, name),
        "MEDIA_ROOT": str(tmp_path / "media"),
    }
    root = Path(__file__).resolve().parents[2]

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    # Three processes, each a Django of its own on the new database (each start is seconds of
    # CPU): the migrations and the importer's account; the command as a person types it; the
    # digest there, the same bundle imported again (the command's own code, called in that
    # process) and the digest once more.
    try:
        make = (
            "from django.core.management import call_command; call_command('migrate', verbosity=0)"
            "; from django.contrib.auth.models import User; User.objects.create(username='mover')"
        )
        manage("shell", "-c", make)
        assert "3 tables came in." in manage("bundle", "import", str(path), "--owner", "mover")
        again = (
            "import io; from django.core.management import call_command"
            "; from tests.stories.bundle_digest import digest; print('DIGEST ' + digest())"
            "; out = io.StringIO()"
            f"; call_command('bundle', 'import', {str(path)!r}, '--owner', 'mover', stdout=out)"
            "; print('AGAIN ' + out.getvalue().replace(chr(10), ' '))"
            "; print('DIGEST ' + digest())"
        )
        lines = manage("shell", "-c", again).splitlines()
        there, after = (line[7:] for line in lines if line.startswith("DIGEST "))
        assert json.loads(there) == json.loads(digest())
        assert "0 tables came in." in next(line for line in lines if line.startswith("AGAIN "))
        assert after == there
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_a_refused_bundle_leaves_no_cover_behind(bundle, settings):
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    # The table with the story and its cover first, a table that does not replay last.
    manifest["tables"].sort(key=lambda t: t["story"] is None)
    assert manifest["tables"][0]["story"]["cover"]
    manifest["tables"][-1]["script"]["moves"].append({"by": "Nobody", "do": "fly"})
    entries["bundle.json"] = json.dumps(manifest).encode()
    covers = Path(settings.MEDIA_ROOT) / "stories" / "covers"
    before = sorted(covers.iterdir()) if covers.exists() else []
    assert "does not replay" in refused(zip_of(entries))
    assert (sorted(covers.iterdir()) if covers.exists() else []) == before


def test_a_cover_arrives_as_its_pixels_alone(laptop, settings):
    """A bundle is an upload: a cover carrying EXIF (a GPS position) and bytes after the
    picture comes in as a fresh JPEG of its pixels, like a cover uploaded on the page."""
    exif = Image.Exif()
    exif[0x010F] = "Phone maker"  # Make
    gps = exif.get_ifd(0x8825)  # GPSInfo
    gps[1], gps[2] = "N", (38.0, 42.0, 0.0)  # a latitude
    out = io.BytesIO()
    Image.new("RGB", (300, 400), "darkred").save(out, "JPEG", exif=exif.tobytes())
    marked = out.getvalue() + b"<script>after the picture</script>"
    story = Story.objects.get(table__in=laptop)
    story.cover.save("c.jpg", ContentFile(marked))
    data = export_bundle(Table.objects.all(), with_deck=True)
    archive = zipfile.ZipFile(io.BytesIO(data))
    tables = json.loads(archive.read("bundle.json"))["tables"]
    (name,) = [t["story"]["cover"] for t in tables if t["story"]]
    assert archive.read(name) == marked  # the bundle carries the file as it was kept
    import_bundle(data, empty_the_site())
    arrived = Story.objects.get().cover.read()
    assert b"after the picture" not in arrived and b"Phone maker" not in arrived
    with Image.open(io.BytesIO(arrived)) as image:
        assert image.format == "JPEG" and image.size == (300, 400)
        assert not image.getexif() and "exif" not in image.info


def test_a_nul_character_anywhere_is_refused_on_both_databases(bundle):
    """PostgreSQL cannot store a NUL in a text (SQLite could): refused before any write."""
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    manifest["tables"][0]["seats"][0]["alias"] = "Ana\x00"
    entries["bundle.json"] = json.dumps(manifest).encode()
    assert "NUL character" in refused(zip_of(entries))
