"""Play records: each finished table's play (game, date, duration, players, winners, scores,
ruleset version, story) as JSON under our own versioned JSON Schema
(``stories/schemas/play-records-1.schema.json``) and as a CSV with named columns.

The figures are the playtest report's (``games.playtests.service.compute_figures``), so a
player who asked to be left out is their label here too. No play-logging app's import format
is claimed (see docs/stories.md, "Play records"): the columns are named plainly, for a person or a spreadsheet.

The CSV has one row per play; the list cells (players, winners) and the scores are JSON, so
:func:`read_csv` gives back exactly the records :func:`to_csv` was given. A cell a spreadsheet
would run as a formula gets a leading ``'``, which :func:`read_csv` takes off again.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from games import registry
from games.aliases import aliases_of
from games.models import Table
from games.playtests.service import compute_figures

SCHEMA_VERSION = 1
SCHEMA_PATH = Path(settings.BASE_DIR) / "stories" / "schemas" / "play-records-1.schema.json"
SCHEMA_ID = "urn:amnesia-table:schema:play-records:1"
FORMAT = "amnesia-table-plays"

COLUMNS = [
    "uuid",
    "game",
    "game_title",
    "name",
    "date",
    "started_at",
    "finished_at",
    "duration_seconds",
    "players",
    "winners",
    "scores",
    "ruleset_name",
    "ruleset_version",
    "story_url",
]
JSON_COLUMNS = {"players", "winners", "scores"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def tables_of(user) -> QuerySet[Table]:
    """Every finished table a user played: as its game master or in a seat."""
    ids = Table.objects.filter(Q(owner=user) | Q(seats__user=user)).values("pk")
    return (
        Table.objects.finished()
        .filter(pk__in=ids)
        .select_related("ruleset", "story")
        .prefetch_related("seats")
        .order_by("finished_at", "pk")
    )


def _moment(value) -> str | None:
    return value.isoformat() if value is not None else None


def record(table: Table, base_url: str = "") -> dict[str, Any]:
    """One table's play (see the schema)."""
    figures = compute_figures(table)
    names = list(figures.get("participants") or [])
    winners = list(figures.get("winners") or [])
    scores = figures.get("scores")
    date = table.finished_at or table.started_at or table.created_at
    try:
        story = table.story
    except Table.story.RelatedObjectDoesNotExist:
        story = None
    return {
        "uuid": str(table.uuid),
        "game": table.game,
        "game_title": str(registry.title(table.game)),
        "name": aliases_of(table).text(table.name),
        "date": timezone.localdate(date).isoformat(),
        "started_at": _moment(table.started_at),
        "finished_at": _moment(table.finished_at),
        "duration_seconds": figures.get("duration_seconds"),
        "players": [
            {
                "name": name,
                "seat": i,
                "winner": name in winners,
                "score": scores.get(name) if scores else None,
            }
            for i, name in enumerate(names, 1)
        ],
        "winners": winners,
        "scores": dict(scores) if scores else None,
        "ruleset": (
            {"name": table.ruleset.name, "version": table.ruleset.version}
            if table.ruleset_id
            else None
        ),
        "story_url": (
            base_url.rstrip("/") + reverse("stories:detail", args=[story.pk]) if story else None
        ),
    }


def document(tables, base_url: str = "") -> dict[str, Any]:
    """The JSON export of some plays (all of a user's: :func:`tables_of`)."""
    return {
        "$schema": SCHEMA_ID,
        "format": FORMAT,
        "version": SCHEMA_VERSION,
        "exported_at": timezone.now().isoformat(),
        "plays": [record(t, base_url) for t in tables],
    }


def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


def _cell(value: Any, column: str) -> str:
    if column in JSON_COLUMNS:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    elif value is None:
        return ""
    else:
        text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv(records: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for rec in records:
        flat = dict(rec)
        ruleset = flat.pop("ruleset")
        flat["ruleset_name"] = ruleset["name"] if ruleset else None
        flat["ruleset_version"] = ruleset["version"] if ruleset else None
        writer.writerow([_cell(flat[c], c) for c in COLUMNS])
    return out.getvalue()


def read_csv(text: str) -> list[dict[str, Any]]:
    """The records of a CSV written by :func:`to_csv`."""
    rows = list(csv.DictReader(io.StringIO(text)))
    records = []
    for row in rows:
        values = {k: (v[1:] if v.startswith("'") else v) for k, v in row.items()}
        rec: dict[str, Any] = {}
        for column in COLUMNS:
            raw = values[column]
            if column in JSON_COLUMNS:
                rec[column] = json.loads(raw)
            elif column == "duration_seconds":
                rec[column] = int(raw) if raw else None
            elif column in ("started_at", "finished_at", "story_url"):
                rec[column] = raw or None
            else:
                rec[column] = raw
        name, version = rec.pop("ruleset_name"), rec.pop("ruleset_version")
        rec["ruleset"] = {"name": name, "version": int(version)} if version else None
        records.append(rec)
    return records
