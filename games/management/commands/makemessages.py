"""Django's ``makemessages`` with ``--keyword``: more marker functions for xgettext.

The referee (``games/rules``) cannot import Django, so it marks its error templates with
its own no-op ``N_()``. ``N_`` is always extracted; ``--keyword=NAME`` (repeatable) adds
other markers, as xgettext's option of that name does::

    python manage.py makemessages -l pt_BR -l ja --keyword=N_

``--output-dir DIR`` writes the catalogues under ``DIR`` instead of ``locale/`` (the catalogue
test extracts a fresh copy there and compares it with the committed one). The catalogues of
the languages the site ships get their plural rule and language in the header
(``amnesia_site.catalogues.LOCALES``), which xgettext leaves as placeholders.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import polib
from django.core.management.commands import makemessages

from amnesia_site.catalogues import LOCALES

# The referee's marker (games/rules/errors.py), and the other names the code imports Django's
# gettext functions under (``gettext as _g`` beside a lazy ``_``, ``gettext_lazy as _lazy``):
# xgettext knows only ``_`` and the functions' own names. Extracted even without --keyword
# (tests/test_catalogues.py checks that every alias in the code is here).
DEFAULT_KEYWORDS = ("N_", "_g", "_lazy")
# Not the product: the tests' and benchmarks' own strings are never shown to a player.
DEFAULT_IGNORES = ("tests", "bench", "staticfiles", "media", "backups")


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
        parser.add_argument(
            "--output-dir",
            default=None,
            metavar="DIR",
            help="Write DIR/<locale>/LC_MESSAGES/django.po instead of the project's locale/.",
        )

    def handle(self, *args, **options):
        # The catalogues' committed form: each entry's files without line numbers, no wrapping,
        # so a run changes the entries whose strings changed and nothing else (with line
        # numbers and wrapping, every run moved thousands of lines).
        options["no_wrap"] = True
        options["add_location"] = options.get("add_location") or "file"
        options["ignore_patterns"] = [*options["ignore_patterns"], *DEFAULT_IGNORES]
        keywords = dict.fromkeys([*DEFAULT_KEYWORDS, *options["keyword"]])
        self.xgettext_options = self.xgettext_options[:] + [f"--keyword={k}" for k in keywords]
        self.output_dir = os.path.abspath(options["output_dir"]) if options["output_dir"] else None
        if self.output_dir:
            os.makedirs(self.output_dir, exist_ok=True)
        result = super().handle(*args, **options)
        for root in self.locale_paths:
            for locale, plural_forms in LOCALES.items():
                po_path = Path(root) / locale / "LC_MESSAGES" / f"{self.domain}.po"
                if po_path.is_file():
                    _set_header(po_path, locale, plural_forms)
                    _steady_date(po_path)
        return result

    def find_files(self, root):
        files = super().find_files(root)
        if self.output_dir:
            # Every file's strings go to the one output folder, never into locale/.
            self.locale_paths = [self.output_dir]
            self.default_locale_path = self.output_dir
            for found in files:
                found.locale_dir = self.output_dir
        return files


def _set_header(po_path: Path, locale: str, plural_forms: str) -> None:
    catalogue = polib.pofile(str(po_path), wrapwidth=0)  # no wrapping, as xgettext's --no-wrap
    changed = (
        catalogue.metadata.get("Plural-Forms") != plural_forms
        or catalogue.metadata.get("Language") != locale
        or catalogue.metadata_is_fuzzy
    )
    if changed:
        catalogue.metadata["Plural-Forms"] = plural_forms
        catalogue.metadata["Language"] = locale
        catalogue.metadata_is_fuzzy = False
        catalogue.save()


def _steady_date(po_path: Path) -> None:
    """The header's POT-Creation-Date (xgettext's clock at each run) set to the catalogue's
    PO-Revision-Date, so a run that changes no entry changes no line: two branches that each
    ran makemessages merged (``*.po merge=union``) with both dates in one header."""
    text = po_path.read_text(encoding="utf-8")
    revised = re.search(r'^"PO-Revision-Date: ([^"\\]*)\\n"$', text, re.M)
    if revised is None:
        return
    steady = re.sub(
        r'^"POT-Creation-Date: [^"\\]*\\n"\n(?:"POT-Creation-Date: [^"\\]*\\n"\n)*',
        f'"POT-Creation-Date: {revised.group(1)}\\\\n"\n',
        text,
        count=1,
        flags=re.M,
    )
    if steady != text:
        po_path.write_text(steady, encoding="utf-8")
