"""What a bundle must carry, as one JSON text two databases (two processes) can compare."""

from __future__ import annotations

import json

from games.models import Table
from games.playtests.models import PlaytestReport
from games.services import reading
from stories import services
from stories.models import NarrationEdit, Story


def digest() -> str:
    out = {}
    for table in Table.objects.order_by("uuid"):
        story = Story.objects.filter(table=table).first()
        report = PlaytestReport.objects.filter(table=table).first()
        out[str(table.uuid)] = {
            "name": table.name,
            "status": table.status,
            "finished_at": table.finished_at,
            "state": reading.rebuild_state(table),
            "moves": reading.script_of(table)["moves"],
            "seats": [(s.position, s.name, s.alias) for s in table.seats.all()],
            "story": story
            and {
                "title": story.title,
                "tags": sorted(story.tag_names()),
                "book": services.make_book(story).plain_text(),
                "history": [
                    (e.text, e.kind, e.created_at)
                    for e in NarrationEdit.objects.filter(story=story).order_by("pk")
                ],
            },
            "report": report
            and {
                "place": report.place,
                "impressions": [(i.player, i.ratings()) for i in report.impressions.all()],
            },
        }
    return json.dumps(out, sort_keys=True, default=str)
