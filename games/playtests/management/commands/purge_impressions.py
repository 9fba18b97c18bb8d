"""``purge_impressions``: delete the impressions sent through the public playtest form once
they are older than ``PLAYTEST_IMPRESSION_DAYS`` (two years unless set). Run it daily (cron,
a systemd timer); the reports they came with stay, with their counts and durations.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.playtests.service import expired_public_impressions


class Command(BaseCommand):
    help = "Delete public-form playtest impressions older than PLAYTEST_IMPRESSION_DAYS."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            help="keep this many days instead of PLAYTEST_IMPRESSION_DAYS",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="only say how many would be deleted"
        )

    def handle(self, *args, **opts):
        days = opts["days"] if opts["days"] is not None else settings.PLAYTEST_IMPRESSION_DAYS
        if days < 0:
            raise CommandError("The number of days to keep cannot be negative.")
        expired = expired_public_impressions(days)
        if opts["dry_run"]:
            self.stdout.write(f"{expired.count()} impression(s) older than {days} days to delete.")
            return
        deleted, _by_model = expired.delete()
        self.stdout.write(f"{deleted} impression(s) older than {days} days deleted.")
