"""``playtest stats TABLE_ID``: a finished table's playtest report as JSON.

The output has at least ``participants``, ``duration_seconds`` (pauses over 15 minutes left
out) and ``figures`` (the game's own figures), plus the ruleset, place and impressions.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.models import Table
from games.playtests import service as playtest_service


class Command(BaseCommand):
    help = "Playtest reports: print a finished table's report as JSON."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        stats = sub.add_parser("stats", help="Print a finished table's report as JSON.")
        stats.add_argument("table_id", type=int)

    def handle(self, *args, **opts):
        table_id = opts["table_id"]
        try:
            table = Table.objects.select_related("ruleset").get(pk=table_id)
        except Table.DoesNotExist:
            raise CommandError(f"There is no table {table_id}.") from None
        if table.status != Table.Status.FINISHED:
            raise CommandError(f"Table {table_id} is not finished: it has no report yet.")
        report = playtest_service.ensure_report(table)
        entry = playtest_service.table_entry(table)
        figures = report.figures
        out = {
            "table": table.pk,
            "game": table.game,
            "ruleset": entry["ruleset"] or None,
            "date": entry["date"],
            "place": report.place,
            "players": figures["players"],
            "participants": figures["participants"],
            "seat_order": figures["seat_order"],
            "started_at": figures["started_at"],
            "ended_at": figures["ended_at"],
            "duration_seconds": figures["duration_seconds"],
            "pauses": figures["pauses"],
            "moves": figures["moves"],
            "winners": figures["winners"],
            "scores": figures["scores"],
            "margin": figures["margin"],
            "figures": figures["figures"],
            "impressions": entry["impressions"],
        }
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=2))
