"""Bundles: export from one database, import into an empty one, and everything is there,
belonging to the importer (the people it names kept as names); a second import changes
nothing (a damaged or hostile bundle is refused whole: test_bundles_refused.py)."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.urls import reverse
from PIL import Image

from games.models import Move, Table
from games.playtests.models import DESIGNERS_GROUP, Impression
from games.services import new_tables
from stories.bundles.export import export_bundle
from stories.bundles.importing import import_bundle
from stories.models import NarrationEdit, Story
from tests.stories.bundle_sites import SCRIPTS, as_imported, empty_the_site, snapshot

pytestmark = pytest.mark.django_db


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
    new_tables.import_script(
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
