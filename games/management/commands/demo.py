"""Load demo tables so a newcomer sees the app at work (idempotent)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from games.demo import amnesia
from games.services import import_script

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-table"


class Command(BaseCommand):
    help = "Create the demo user and its demo tables (skipped when they exist)."

    def handle(self, *args, **opts):
        users = get_user_model().objects
        user, created = users.get_or_create(username=DEMO_USER)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        if user.tables.exists():
            self.stdout.write("Demo tables already present.")
        else:
            now = timezone.now()
            import_script(amnesia.finished(now - timedelta(days=2)), user, "The night of room 714")
            import_script(
                amnesia.in_progress(now - timedelta(hours=1)), user, "The stranger's ring"
            )
            self.stdout.write("Demo tables created.")
        self.stdout.write(f"Log in as {DEMO_USER} / {DEMO_PASSWORD}.")
