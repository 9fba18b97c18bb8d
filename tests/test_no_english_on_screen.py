"""Every word a person reads on a table's screens and the rules pages is in their language.

In pt-BR and ja, the table page, the projector and every seat page of one table per game, in
each phase its demo reaches, and every game's rules page: no option code, phase code or
English string that a catalogue translates is left in the visible text. Free text the players
typed is replaced before the tables are made, so what is left is the app's own words.
"""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime
from html.parser import HTMLParser

import polib
import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from games import registry
from games.rules.script import parse_script, replay, rules_part
from games.services import import_script

FREE_TEXT = {"text", "contest"}  # what players type into a move (names are kept)
SCRUB = "Zq"


class Visible(HTMLParser):
    """The text a person sees: text nodes outside script/style/template, and the words of
    placeholders, titles, labels and alt texts."""

    HIDDEN = {"script", "style", "template", "noscript"}
    ATTRS = {"placeholder", "title", "aria-label", "alt"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.depth += 1
        if self.depth:
            return
        for name, value in attrs:
            if name in self.ATTRS and value:
                self.parts.append(value)
            if (
                tag == "input"
                and name == "value"
                and dict(attrs).get("type") in {"submit", "button"}
            ):
                self.parts.append(value or "")

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth and data.strip():
            self.parts.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return parser.parts


def scrubbed(script: dict) -> dict:
    script = copy.deepcopy(script)
    for move in script["moves"]:
        for key in FREE_TEXT & set(move):
            move[key] = SCRUB
        if "abilities" in move:
            move["abilities"] = [SCRUB for _ in move["abilities"]]
    return script


def phase_prefixes(script: dict) -> list[tuple[str, dict]]:
    """One script per phase the demo reaches: its moves up to the first time in that phase."""
    setup, moves = parse_script(script)
    seen: dict[str, int] = {}
    for n in range(len(moves) + 1):
        state = replay(setup, [rules_part(m) for m in moves[:n]]).state
        seen.setdefault(state.get("phase", "?"), n)
    return [(phase, {**script, "moves": script["moves"][:n]}) for phase, n in seen.items()]


LANGUAGES = {"pt-br": "pt_BR", "ja": "ja"}
# Words a Japanese page may show in Latin letters: the site's name, the language switcher's
# own names, abbreviations the Japanese seed itself uses, keyboard keys and file formats.
LATIN_ALLOWED = {
    "Amnesia Table",
    "Amnesia Stories",  # the Japanese seed's own title
    "Heroic Saga",
    "English",
    "Português Brasileiro",
    "VP",
    "PDF",
    "JSON",
    "QR",
    "A4",
    "EPUB",
    "HTML",
    "Esc",
    "Enter",
    "PC",
    "ID",
    "S",
    "N",
    "OK",
}


def codes() -> set[str]:
    """Every option name, option value and phase code of every registered game."""
    found: set[str] = set()
    for kit in registry.kits():
        for name, option in kit.referee.options.items():
            found.add(name)
            found.update(str(c) for c in option.choices or ())
        for _name, script in kit.demos(datetime.now(UTC)):
            found.update(phase for phase, _s in phase_prefixes(script))
    return found


# Codes that are also words of the language (Portuguese "zero").
NATIVE = {"pt-br": {"zero"}, "ja": set()}
LANGUAGE_NAMES = {"English", "Português Brasileiro", "日本語"}


def catalogued(language: str) -> set[str]:
    """The English strings the language's catalogue translates into something else (whole
    sentences and labels, placeholders left out)."""
    po = polib.pofile(f"locale/{LANGUAGES[language]}/LC_MESSAGES/django.po")
    out = set()
    for entry in po:
        if entry.obsolete or not entry.msgstr or entry.msgstr == entry.msgid:
            continue
        if entry.msgid in LANGUAGE_NAMES:
            continue  # the language switcher names each language in its own words
        if re.search(r"%\(|\{|%s|%d|<", entry.msgid) or len(entry.msgid) < 4:
            continue
        out.add(entry.msgid)
    return out


def pages(table) -> list[str]:
    urls = [reverse("games:table", args=[table.pk])]
    try:
        urls.append(reverse(f"{table.game}:projector", args=[table.pk]))
    except NoReverseMatch:
        pass  # the table page is the projector
    kit = registry.kit(table.game)
    if kit.seat_page:
        urls += [reverse(kit.seat_page, args=[s.token]) for s in table.seats.all()]
    return urls


class English:
    """A catalogue's English strings, ready for ``problems``: a part of a page that is one of
    them, or holds one of the long ones (a phrase of more than 12 characters), is English. The
    long ones are looked for by one pattern first (the thousands of strings against every part
    of every page, one by one, were half of this module's time); only a part the pattern finds
    something in is read string by string, for the message."""

    def __init__(self, msgids: set[str]) -> None:
        self.msgids = frozenset(msgids)
        self.long = sorted(m for m in self.msgids if " " in m and len(m) > 12)
        self.pattern = re.compile("|".join(re.escape(m) for m in self.long)) if self.long else None

    def found_in(self, part: str) -> list[str]:
        hits = {part} & self.msgids
        if self.pattern is not None and self.pattern.search(part):
            hits.update(m for m in self.long if m in part)
        return sorted(hits)


def without_allowed(part: str, allowed: set[str]) -> str:
    """``part`` without the Latin words a Japanese page may show, each where it stands alone
    (longest first); a word that is not in the part at all is not looked for."""
    for word in sorted(allowed, key=len, reverse=True):
        if word in part:
            part = re.sub(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", "", part)
    return part


def problems(
    parts: list[str], language: str, known: set[str], english: English, people: set[str]
) -> list[str]:
    found = []
    for part in parts:
        words = set(re.findall(r"[A-Za-z_]+", part))
        for code in known & words:
            if code not in people and code not in NATIVE[language]:
                found.append(f"code {code!r} in {part!r}")
        for msgid in english.found_in(part):
            found.append(f"English {msgid!r} in {part!r}")
        if language == "ja":
            rest = without_allowed(part, LATIN_ALLOWED | people)
            rest = re.sub(r"\S+@\S+\.\w+", "", rest)  # an address a person types, as given
            latin = re.findall(r"[A-Za-z]{2,}", rest)
            if latin:
                found.append(f"Latin {latin} in {part!r}")
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["pt-br", "ja"])
def test_no_code_or_english_on_the_tables_and_rules_pages(gm, language) -> None:
    client = Client()
    client.force_login(gm)
    known, english = codes(), English(catalogued(language))
    found: dict[str, list[str]] = {}
    for kit in registry.kits():
        url = reverse("games:rules", args=[kit.slug])
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        credited = {gm.get_username(), *kit.credit.designer.split()}
        found[url] = problems(visible(html), language, known, english, credited)
        covered: set[str] = set()  # one table per phase of each game, the first demo's
        for number, (_name, script) in enumerate(kit.demos(datetime.now(UTC))):
            for phase, partial in phase_prefixes(scrubbed(script)):
                if phase in covered:
                    continue
                covered.add(phase)
                table = import_script({**partial, "language": language}, gm, f"{number}")
                people = set(table.players) | {SCRUB, gm.get_username()}
                for move in partial["moves"]:
                    if isinstance(move.get("name"), str):
                        people.add(move["name"])
                people |= {w for p in list(people) for w in p.split()}
                for url in pages(table):
                    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                    assert response.status_code == 200, url
                    found[f"{kit.slug} {phase} {url}"] = problems(
                        visible(response.content.decode()), language, known, english, people
                    )
    found = {where: what for where, what in found.items() if what}
    assert found == {}, "\n".join(f"{w}: {x}" for w, xs in found.items() for x in xs[:6])


def test_the_english_finder_finds_what_the_plain_reading_finds() -> None:
    """``English.found_in`` against the plain definition: a part that is a string, or holds a
    long one (spaces and more than 12 characters), string by string."""
    msgids = {"Discard", "Pass the laptop", "Nothing you sent was applied", "Next round now"}
    english = English(msgids)
    parts = [
        "Discard",
        "Discard it",  # a short string inside a part is not English by itself
        "Ana: Pass the laptop to Bruno",
        "Pass the laptop",
        "Nothing you sent was applied, and the Next round now begins",
        "パスしてください",
        "",
    ]
    for part in parts:
        plain = sorted(m for m in msgids if part == m or (" " in m and len(m) > 12 and m in part))
        assert english.found_in(part) == plain, part
    assert english.found_in(parts[4]) == ["Next round now", "Nothing you sent was applied"]
    assert without_allowed("Ana と Bo の HP", {"Ana", "HP", "A"}) == " と Bo の "
