"""The two sites a bundle travels between, for the bundle tests (test_bundles*.py,
test_bundle_carry.py): what one holds, compared across databases (``snapshot``, and
``as_imported`` once another brought it in), the other emptied for its importer
(``empty_the_site``), a zip of entries, and a refusal that must change nothing (``refused``)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from PIL import Image

from games.models import Ruleset, Table
from games.playtests.models import PlaytestReport
from games.services import reading
from stories import services
from stories.bundles.format import BundleError
from stories.bundles.importing import import_bundle
from stories.models import NarrationEdit, Story, Tag

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 60), "navy").save(out, "PNG")
    return out.getvalue()


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
            "state": reading.rebuild_state(table),
            "script": reading.script_of(table),
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
