"""The translation catalogues: compiled without gettext, and checked before they ship.

``locale/<lang>/LC_MESSAGES/django.po`` holds each language's strings. Django reads the
compiled ``.mo`` beside it; those are not committed but written at set-up by
:func:`compile_all` (``manage.py compile_catalogues``) with ``polib``, so a person who cannot
install system packages can still run the site. Only ``makemessages`` (re-extracting the
strings from the code) needs GNU gettext's ``xgettext``.

:func:`problems` is the gate the tests (``tests/test_catalogues.py``) and CI apply: a catalogue
ships with no untranslated entry, no fuzzy one, and the same placeholders as the English.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import polib
from django.conf import settings

# The catalogues the site ships, by gettext locale name, with each language's plural rule.
LOCALES = {
    "pt_BR": "nplurals=2; plural=(n > 1);",
    "ja": "nplurals=1; plural=0;",
}

# %(name)s / %(count)d (Python's % formatting), a bare %s / %d, and {name} (str.format and
# the referee's templates). %% is a literal percent sign, not a placeholder.
_PERCENT = re.compile(r"%(?:\((?P<name>[^)]+)\))?[-#0 +]*\d*(?:\.\d+)?(?P<kind>[sdifrxXeEgGc])")
_BRACES = re.compile(r"(?<!\{)\{(?P<name>[A-Za-z_][A-Za-z0-9_.]*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")


def locale_dir() -> Path:
    return Path(settings.LOCALE_PATHS[0])


def catalogue_path(locale: str, root: Path | None = None) -> Path:
    return (root or locale_dir()) / locale / "LC_MESSAGES" / "django.po"


def placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted: ``%(name)s``, ``%s`` and ``{name}`` forms."""
    found = []
    for match in _PERCENT.finditer(text.replace("%%", "")):
        name = match.group("name")
        found.append(f"%({name}){match.group('kind')}" if name else f"%{match.group('kind')}")
    found.extend("{" + m.group("name") + "}" for m in _BRACES.finditer(text))
    return sorted(found)


def _named(items: list[str]) -> set[str]:
    return set(items)


@dataclass(frozen=True)
class Problem:
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.what}: {self.msgid!r}"


def _placeholders_match(
    english: str, translated: str, plural: bool, count: frozenset[str] = frozenset()
) -> bool:
    want, got = placeholders(english), placeholders(translated)
    if want == got:
        return True
    # A plural form may leave the count out ("one card" has no %(count)d in most languages:
    # the count is whatever the English plural names and its singular does not, or a name
    # with "count" in it), and a one-form language (ja) writes the plural English's
    # placeholders: compare names.
    if plural:
        needed = {p for p in want if "count" not in p and p not in count}
        return _named(got) <= _named(want) and needed <= set(got)
    return False


def problems(catalogue: polib.POFile) -> list[Problem]:
    """Everything that stops a catalogue from shipping (nothing: it may ship)."""
    found: list[Problem] = []
    for entry in catalogue:
        if entry.obsolete or not entry.msgid:
            continue
        if "fuzzy" in entry.flags:
            found.append(Problem(entry.msgid, "fuzzy"))
            continue
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
            if not forms or not all(forms):
                found.append(Problem(entry.msgid, "untranslated"))
                continue
            english = entry.msgid + " " + entry.msgid_plural
            count = frozenset(placeholders(entry.msgid_plural)) - set(placeholders(entry.msgid))
            for form in forms:
                if not _placeholders_match(english, form, plural=True, count=count):
                    found.append(Problem(entry.msgid, "placeholders differ"))
                    break
            continue
        if not entry.msgstr:
            found.append(Problem(entry.msgid, "untranslated"))
        elif not _placeholders_match(entry.msgid, entry.msgstr, plural=False):
            found.append(Problem(entry.msgid, "placeholders differ"))
    return found


def msgids(catalogue: polib.POFile) -> set[tuple[str, str]]:
    """The catalogue's live entries as (context, msgid) pairs."""
    return {(e.msgctxt or "", e.msgid) for e in catalogue if not e.obsolete and e.msgid}


def compile_catalogue(po_path: Path) -> Path:
    """Write the ``.mo`` beside ``po_path`` (fuzzy entries left out, as msgfmt does)."""
    catalogue = polib.pofile(str(po_path))
    for entry in catalogue:
        # polib keeps fuzzy entries in the .mo; gettext would not, and a guessed translation
        # must never reach a player.
        if "fuzzy" in entry.flags:
            entry.msgstr = ""
            entry.msgstr_plural = dict.fromkeys(entry.msgstr_plural, "")
    mo_path = po_path.with_suffix(".mo")
    # Written beside and renamed over: two test workers compiling at once never leave a
    # half-written file for a third to read.
    fd, temporary = tempfile.mkstemp(dir=mo_path.parent, prefix=".", suffix=".mo")
    os.close(fd)
    try:
        catalogue.save_as_mofile(temporary)
        os.replace(temporary, mo_path)
    finally:
        Path(temporary).unlink(missing_ok=True)
    return mo_path


def compile_all(root: Path | None = None) -> list[Path]:
    """Compile every catalogue under ``root`` (the project's locale folder); the .mo paths."""
    root = root or locale_dir()
    return [compile_catalogue(po) for po in sorted(root.glob("*/LC_MESSAGES/*.po"))]
