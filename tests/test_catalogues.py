"""The catalogue gate: what CI checks before a translation ships.

Two kinds of test live here:

- the gate itself (``amnesia_site.catalogues``) on small catalogues made in the test: a fuzzy
  entry, an untranslated one or a placeholder that differs from the English fails, a complete
  catalogue passes, and ``compile_catalogues`` writes a .mo that gettext reads (fuzzy left out);
- the shipped catalogues (``locale/pt_BR`` and ``locale/ja``): marked ``catalogue``, they fail
  while a catalogue has untranslated or fuzzy entries, and they fail when the code has a string
  that a catalogue lacks (``makemessages`` is run afresh into a temporary folder, which needs
  gettext's ``xgettext``: ``make test`` installs it).
"""

from __future__ import annotations

import ast
import gettext
import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command

from amnesia_site import catalogues
from amnesia_site.catalogues import LOCALES, catalogue_path, compile_catalogue, placeholders

# One worker runs this module (pyproject's --dist loadgroup): `extracted` below runs makemessages
# once, where each worker would run it again, at the same time, on the same work files.
pytestmark = pytest.mark.xdist_group("catalogues")

HEADER = {
    "Content-Type": "text/plain; charset=UTF-8",
    "Plural-Forms": "nplurals=2; plural=(n > 1);",
    "Language": "pt_BR",
}


def make_catalogue(*entries: polib.POEntry) -> polib.POFile:
    po = polib.POFile()
    po.metadata = dict(HEADER)
    for entry in entries:
        po.append(entry)
    return po


def complete() -> polib.POFile:
    return make_catalogue(
        polib.POEntry(msgid="Rules", msgstr="Regras"),
        polib.POEntry(msgid="It is {turn}'s turn.", msgstr="É a vez de {turn}."),
        polib.POEntry(
            msgid="%(name)s drew %(card)s.",
            msgstr="%(name)s comprou %(card)s.",
            flags=["python-format"],
        ),
        polib.POEntry(
            msgid="%(count)d token",
            msgid_plural="%(count)d tokens",
            msgstr_plural={0: "%(count)d ficha", 1: "%(count)d fichas"},
            flags=["python-format"],
        ),
        polib.POEntry(
            msgid="Option {name} must be one of: {allowed}.", msgstr="{name}: {allowed}."
        ),
        polib.POEntry(msgid="100%% sure, %s", msgstr="%s, 100%% certo"),
    )


# -- the gate ------------------------------------------------------------------------------
def test_a_complete_catalogue_passes() -> None:
    assert catalogues.problems(complete()) == []


def test_a_fuzzy_entry_fails() -> None:
    po = complete()
    po.append(polib.POEntry(msgid="Discard", msgstr="Descarte", flags=["fuzzy"]))
    assert [(p.msgid, p.what) for p in catalogues.problems(po)] == [("Discard", "fuzzy")]


def test_an_untranslated_entry_fails() -> None:
    po = complete()
    po.append(polib.POEntry(msgid="Bank", msgstr=""))
    po.append(
        polib.POEntry(
            msgid="%(count)d card",
            msgid_plural="%(count)d cards",
            msgstr_plural={0: "%(count)d carta", 1: ""},
        )
    )
    assert [(p.msgid, p.what) for p in catalogues.problems(po)] == [
        ("Bank", "untranslated"),
        ("%(count)d card", "untranslated"),
    ]


@pytest.mark.parametrize(
    ("english", "translated"),
    [
        ("It is {turn}'s turn.", "É a vez de {vez}."),  # a renamed {name}
        ("It is {turn}'s turn.", "É a sua vez."),  # a dropped one
        ("%(name)s drew %(card)s.", "%(name)s comprou uma carta."),
        ("%(name)s drew a card.", "%(nome)s comprou uma carta."),
        ("%(count)d points", "%(count)s pontos"),  # another conversion
        ("{a} beat {b}", "{a} venceu {a}"),
    ],
)
def test_a_placeholder_that_differs_from_the_english_fails(english: str, translated: str) -> None:
    po = complete()
    po.append(polib.POEntry(msgid=english, msgstr=translated))
    assert [(p.msgid, p.what) for p in catalogues.problems(po)] == [
        (english, "placeholders differ")
    ]


def test_a_plural_form_may_leave_the_count_out_but_not_another_name() -> None:
    good = polib.POEntry(
        msgid="one card from %(name)s",
        msgid_plural="%(count)d cards from %(name)s",
        msgstr_plural={0: "uma carta de %(name)s", 1: "%(count)d cartas de %(name)s"},
    )
    bad = polib.POEntry(
        msgid="one card from %(name)s",
        msgid_plural="%(count)d cards from %(name)s",
        msgstr_plural={0: "uma carta", 1: "%(count)d cartas de %(nome)s"},
    )
    assert catalogues.problems(make_catalogue(good)) == []
    assert [p.what for p in catalogues.problems(make_catalogue(bad))] == ["placeholders differ"]


def test_the_count_is_what_the_plural_names_and_the_singular_does_not() -> None:
    """``{% blocktranslate count n=... %}`` names the count as it likes: a form may use it
    (Portuguese's first form covers 0 and 1) or leave it out, never drop another name."""
    entry = dict(
        msgid="You owe a penalty to %(who)s", msgid_plural="You owe %(n)s penalties to %(who)s"
    )
    with_count = polib.POEntry(
        **entry,
        msgstr_plural={
            0: "Você deve %(n)s penalidade a %(who)s",
            1: "Você deve %(n)s penalidades a %(who)s",
        },
    )
    without = polib.POEntry(
        **entry,
        msgstr_plural={
            0: "Você deve uma penalidade a %(who)s",
            1: "Você deve %(n)s penalidades a %(who)s",
        },
    )
    lost_name = polib.POEntry(
        **entry,
        msgstr_plural={0: "Você deve %(n)s penalidade", 1: "Você deve %(n)s penalidades a %(who)s"},
    )
    assert catalogues.problems(make_catalogue(with_count, without)) == []
    assert [p.what for p in catalogues.problems(make_catalogue(lost_name))] == [
        "placeholders differ"
    ]


def test_placeholders_are_read_in_every_form_the_code_uses() -> None:
    assert placeholders("{code!r} and {n} and {x:>3}") == ["{code}", "{n}", "{x}"]
    assert placeholders("%(name)s has %(count)d, %s, 50%%") == ["%(count)d", "%(name)s", "%s"]
    assert placeholders("{{literal}} braces") == []


def test_compiled_catalogue_is_read_by_gettext_and_leaves_fuzzy_out(tmp_path: Path) -> None:
    po = complete()
    po.append(polib.POEntry(msgid="Discard", msgstr="Descarte", flags=["fuzzy"]))
    po_path = tmp_path / "pt_BR" / "LC_MESSAGES" / "django.po"
    po_path.parent.mkdir(parents=True)
    po.save(str(po_path))
    mo_path = compile_catalogue(po_path)
    assert mo_path == po_path.with_suffix(".mo")
    with mo_path.open("rb") as f:
        translations = gettext.GNUTranslations(f)
    assert translations.gettext("Rules") == "Regras"
    assert translations.ngettext("%(count)d token", "%(count)d tokens", 1) == "%(count)d ficha"
    # pt_BR's rule: one for 0 and 1, the other from 2.
    assert translations.ngettext("%(count)d token", "%(count)d tokens", 0) == "%(count)d ficha"
    assert translations.ngettext("%(count)d token", "%(count)d tokens", 2) == "%(count)d fichas"
    assert translations.gettext("Discard") == "Discard"  # a guessed translation never shows


def test_compile_catalogues_command_compiles_every_catalogue(settings, tmp_path: Path) -> None:
    for locale in LOCALES:
        path = catalogue_path(locale, tmp_path)
        path.parent.mkdir(parents=True)
        complete().save(str(path))
    settings.LOCALE_PATHS = [tmp_path]
    call_command("compile_catalogues", stdout=open(os.devnull, "w"))
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.mo")) == [
        "ja/LC_MESSAGES/django.mo",
        "pt_BR/LC_MESSAGES/django.mo",
    ]


# -- the shipped catalogues -----------------------------------------------------------------
@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_shipped_catalogue_has_the_language_and_its_plural_rule(locale: str) -> None:
    po = polib.pofile(str(catalogue_path(locale)))
    assert po.metadata["Plural-Forms"] == LOCALES[locale]
    assert po.metadata["Language"] == locale
    assert not po.metadata_is_fuzzy
    # Each header line once: two branches' makemessages runs merged (union) left two creation
    # dates in one header; makemessages now keeps the date steady (games' makemessages).
    header = catalogue_path(locale).read_text(encoding="utf-8").split("\n\n", 1)[0]
    keys = re.findall(r'^"([A-Za-z-]+): ', header, re.M)
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)


@pytest.mark.catalogue
@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_shipped_catalogue_is_complete_and_keeps_the_placeholders(locale: str) -> None:
    po = polib.pofile(str(catalogue_path(locale)))
    found = catalogues.problems(po)
    summary = "\n".join(str(p) for p in found[:20])
    assert not found, f"{locale}: {len(found)} entries cannot ship, the first:\n{summary}"


def test_every_alias_of_gettext_in_the_code_is_extracted() -> None:
    """``from django.utils.translation import gettext as _g``: xgettext finds ``_g("...")``
    only when makemessages names it, so every alias the code uses must be a keyword."""
    from django.conf import settings

    from games.management.commands.makemessages import DEFAULT_KEYWORDS

    functions = {"gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "gettext_noop"}
    functions |= {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}
    aliases = set()
    for package in ("amnesia_site", "games", "stories"):
        for path in (Path(settings.BASE_DIR) / package).rglob("*.py"):
            if "." in path.stem:  # makemessages' work copy of a template (x.html.py)
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
                    for alias in node.names:
                        if alias.name in functions and alias.asname not in (None, "_"):
                            aliases.add((alias.name, alias.asname))
    assert {("gettext", "_g"), ("gettext_lazy", "_lazy")} <= aliases  # the scan finds them
    # Plural or context aliases would need their argument spec (name:1,2): none today.
    assert all(name in ("gettext", "gettext_lazy") for name, _alias in aliases), aliases
    assert {alias for _name, alias in aliases} <= set(DEFAULT_KEYWORDS)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> polib.POFile:
    """The strings of the code today: makemessages run afresh into a temporary folder."""
    if shutil.which("xgettext") is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("xgettext is missing: make test installs Debian's gettext.")
        pytest.skip("xgettext (Debian's gettext) is not installed")
    out = tmp_path_factory.mktemp("extracted")
    call_command("makemessages", locale=["ja"], output_dir=str(out), verbosity=0)
    return polib.pofile(str(catalogue_path("ja", out)))


@pytest.mark.catalogue
@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_every_string_of_the_code_is_in_the_catalogue(extracted, locale: str) -> None:
    shipped = catalogues.msgids(polib.pofile(str(catalogue_path(locale))))
    missing = sorted(catalogues.msgids(extracted) - shipped)
    assert len(catalogues.msgids(extracted)) > 500  # the extraction found the code's strings
    assert not missing, f"{locale} lacks {len(missing)} strings, the first: {missing[:10]}"
    # The referee's N_ templates are extracted too (games/rules), and the aliased gettext.
    assert ("", "Option {name} must be true or false.") in shipped
    assert ("", "a card") in shipped  # games/contest/story.py: _g("a card")
    # Django's own strings the site words otherwise (amnesia_site/django_words.py).
    assert {("", ":"), ("", "Password confirmation")} <= catalogues.msgids(extracted)
