"""Django's ``makemessages`` with ``--keyword``: more marker functions for xgettext.

The referee (``games/rules``) cannot import Django, so it marks its error templates with
its own no-op ``N_()``. ``N_`` is always extracted; ``--keyword=NAME`` (repeatable) adds
other markers, as xgettext's option of that name does::

    python manage.py makemessages -l pt_BR -l ja --keyword=N_
"""

from __future__ import annotations

from django.core.management.commands import makemessages

# The referee's marker (games/rules/base.py): extracted even without --keyword.
DEFAULT_KEYWORDS = ("N_",)


class Command(makemessages.Command):
    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--keyword",
            action="append",
            default=[],
            metavar="NAME",
            help="Also extract the strings passed to NAME() (xgettext --keyword). N_ always is.",
        )

    def handle(self, *args, **options):
        keywords = dict.fromkeys([*DEFAULT_KEYWORDS, *options["keyword"]])
        self.xgettext_options = self.xgettext_options[:] + [f"--keyword={k}" for k in keywords]
        return super().handle(*args, **options)
