"""A bundle that extends a table up to its end brings the playtest report made at home: the
move that ends the game keeps a report (its figures) here too, and the bundle's place and
impressions still come in (nobody wrote any here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.models import Table
from games.playtests.models import Impression
from games.playtests.service import ensure_report
from games.services import new_tables, writing
from stories.bundles.export import export_bundle
from stories.bundles.importing import import_bundle

from .bundle_sites import importer

pytestmark = pytest.mark.django_db
SCRIPT = Path(__file__).resolve().parents[1] / "scripts/amnesia_stories/01_judging_branches.json"


def test_an_extension_that_ends_the_game_brings_the_report(gm):
    script = json.loads(SCRIPT.read_text())["script"]
    table = new_tables.import_script({**script, "moves": script["moves"][:6]}, gm)
    early = export_bundle(Table.objects.filter(pk=table.pk), with_pending=True, with_deck=True)
    for move in script["moves"][6:]:
        writing.play_many(table, [move], table.last_seq)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    report = ensure_report(table)
    report.place = "Café Lisboa"
    report.save(update_fields=["place"])
    seat = table.seats.get(position=0)
    ratings = {"fun": 5, "length": 4, "clarity": 3, "downtime": 4, "decisions": 5, "again": 4}
    Impression.objects.create(report=report, seat=seat, player=seat.name, **ratings)
    later = export_bundle(Table.objects.filter(pk=table.pk), with_pending=True, with_deck=True)
    Table.objects.all().delete()

    mover = importer()
    assert import_bundle(early, mover).tables
    summary = import_bundle(later, mover)
    here = Table.objects.get()
    assert summary.extended == [here.name] and here.status == Table.Status.FINISHED
    assert here.playtest_report.place == "Café Lisboa"
    assert summary.impressions == 1
    [impression] = here.playtest_report.impressions.all()
    assert (impression.player, impression.fun, impression.again) == (seat.name, 5, 4)
    assert here.playtest_report.computed_seq == here.last_seq
