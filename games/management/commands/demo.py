"""Load demo tables so a newcomer sees the app at work (idempotent).

Each registered game's kit offers ``demos(now) -> [(table name, script)]``, in the language
active when it is called: the command makes the tables in the language it runs in, or the one
``--language`` names, so a Brazilian or Japanese game master sees a demo in their language.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone, translation

from games import languages, registry
from games.models import Table
from games.playtests.models import DESIGNERS_GROUP
from games.services.new_tables import import_script
from games.services.reading import LANGUAGE_KEY

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-table"


class Command(BaseCommand):
    help = "Create the demo user and its demo tables (skipped when they exist)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--designer",
            action="store_true",
            help="also put the demo user in the designers group (its dashboard then shows the "
            "demo games; the home page's demo button is hidden, since anyone pressing it would "
            "see every designer's reports)",
        )
        parser.add_argument(
            "--language",
            help="the language of the demo tables' names and narration (en, pt-br, ja); "
            "by default the language the command runs in",
        )
        parser.add_argument(
            "--retire",
            action="store_true",
            help="switch the demo account off (no password, cannot log in; its tables stay)",
        )

    def handle(self, *args, **opts):
        users = get_user_model().objects
        if opts["retire"]:
            # Kept, not deleted: this command would make it again, with the published password.
            retired = users.filter(username=DEMO_USER).first() or users.create(username=DEMO_USER)
            retired.set_unusable_password()
            retired.is_active = False
            retired.save()
            self.stdout.write(f"The {DEMO_USER} account is switched off.")
            return
        user, created = users.get_or_create(username=DEMO_USER)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        # The home page logs any visitor in as the demo user with one click, so by default it
        # sees nothing but its own tables: a designer sees other people's playtest reports.
        if opts.get("designer"):
            user.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
        existing = set(user.tables.values_list("name", flat=True))
        asked = opts.get("language")
        language = languages.normalise(asked or translation.get_language() or "")
        if language is None:
            if asked:
                known = ", ".join(languages.codes())
                raise CommandError(f"No language {asked!r} (languages: {known}).")
            language = settings.LANGUAGE_CODE
        now = timezone.now()
        names = []
        with translation.override(language):
            demos = [(name, script) for kit in registry.kits() for name, script in kit.demos(now)]
        for name, script in demos:
            names.append(name)
            if name in existing:
                continue
            # The table is in the language it was told in (its book, its pages' words).
            import_script({**script, LANGUAGE_KEY: language}, user, name)
            self.stdout.write(f"Demo table created: {name}")
        # The demo shows the designer's side too, so its tables (made-up players) share their
        # reports, by name; only the demo's own tables, not what visitors play on the account.
        user.tables.filter(name__in=names).update(report_sharing=Table.ReportSharing.NAMES)
        if user.is_active and user.check_password(DEMO_PASSWORD):
            self.stdout.write(f"Log in as {DEMO_USER} / {DEMO_PASSWORD} to see the demo tables.")
