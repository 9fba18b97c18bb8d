"""``compile_catalogues``: the translation catalogues' .mo files, without system gettext.

Django's ``compilemessages`` runs GNU ``msgfmt``; this writes the same files with ``polib``,
so set-up (``scripts/setup.sh``) works where gettext cannot be installed.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from amnesia_site.catalogues import compile_all


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (with polib, no gettext needed)."

    def handle(self, *args, **options) -> None:
        for path in compile_all():
            self.stdout.write(f"{path}")
