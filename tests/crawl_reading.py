"""How the crawl (tests/test_crawl.py) reads a page or a file: its visible text (``visible``,
which other tests read pages with too), and a reader per language that says what in it is
not in that language (``Reader``: English left over, code names, decimal points and ISO dates
in Portuguese, ASCII punctuation in Japanese, the glossary's refused variants)."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import polib

from tests.codenames import code_names

LANGUAGES = ("pt-br", "ja")
CATALOGUES = {"pt-br": "pt_BR", "ja": "ja"}
FREE_TEXT = {"text", "contest"}  # what players type into a move (names are kept)
SCRUB = "Zq"

# -- reading a page ---------------------------------------------------------------------------


class Visible(HTMLParser):
    """The text a person sees: text nodes outside script/style/template, and the words of
    placeholders, titles, labels and alt texts; and, for the crawl, where the page leads (links,
    GET forms, htmx GETs) and where its POST forms go."""

    HIDDEN = {"script", "style", "template", "noscript"}
    ATTRS = {"placeholder", "title", "aria-label", "alt"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []
        self.links: list[str] = []
        self.posts: list[str] = []

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if tag == "a" and named.get("href"):
            self.links.append(named["href"] or "")
        if tag == "form":
            action = named.get("action") or ""
            if (named.get("method") or "get").lower() == "get":
                self.links.append(action)
            else:
                self.posts.append(action)
        for name in ("hx-get", "src"):
            if named.get(name):
                self.links.append(named[name] or "")
        if named.get("hx-post"):
            self.posts.append(named["hx-post"] or "")
        if tag in self.HIDDEN:
            self.depth += 1
        if self.depth:
            return
        for name, value in attrs:
            if name in self.ATTRS and value:
                self.parts.append(" ".join(value.split()))
            if tag == "input" and name == "value" and named.get("type") in {"submit", "button"}:
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


# -- what a page may show ---------------------------------------------------------------------

# Reviewed: words a page in any language shows as they are (the site's and the games' names,
# the language switcher's own names, card ranks, keys and formats).
KEPT = {
    "Amnesia Table",
    # The contest demo's characters: names, kept as they are in every language.
    "Captain Vex",
    "Doc Mirabel",
    "Grub",
    "Amnesia Stories",  # the Japanese seed's own title
    "Amnesia",
    "Heroic Saga",
    "English",
    "Português Brasileiro",
    "Esc",
    "Enter",
    "PC",
    "S",
    "N",
    "A5",
    "A4",
    "htmx",
    "WeasyPrint",
    "Django",
    "Wi-Fi",
    "JPEG",
    "PNG",
    "WebP",
    "ZIP",
    "GPS",
    "UTF",
    "MB",
    # The book's typefaces, as the colophon names them.
    "Amnesia Serif",
    "Amnesia Serif JP",
    "EB Garamond",
    "Noto Serif CJK JP",
}
CARD_RANKS = {"J", "Q", "K", "A"}
LATIN_ALLOWED = KEPT | CARD_RANKS | {"VP", "PDF", "JSON", "QR", "EPUB", "HTML", "CSV", "ID", "OK"}
# Words that are the same in Portuguese and English.
SAME_IN_PORTUGUESE = {
    "Total",
    "Zero",
    "Local",
    "Playtest",
    "Playtests",
    "Designer",
    "Designers",
    "min",
    "Bots",
    "Bot",
    "Pretzels",
    "Flashbacks",  # the glossary keeps the seed's word
}
# What a person types as it is shown (the lab's settings, a deck's CSV header), and the
# bundled fonts' licence (a legal text, kept in its own words).
TYPED = re.compile(r"[A-ZÇÃ]+=[A-ZÇÃ]+|(?<![A-Za-z])id,text(?![A-Za-z])")
FILE_NAME = re.compile(r"\b\w+\.(?:png|jpe?g|webp|csv|zip|json|pdf|epub|html)\b")
# An EPUB carries the bundled fonts' licence, a legal text kept in its own words.
LICENCE = re.compile(r"licen[cs]e|\bofl\b", re.I)

JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e\u3001-\u303f]"
# A ratio or a time (3:2, 19:00) is no colon in a sentence.
ASCII_IN_JAPANESE = re.compile(rf"{JAPANESE} ?(?:[,;()]|:(?!\d))|(?:[,;()]|(?<!\d):) ?{JAPANESE}")
# A decimal point, not Portuguese thousands (100.000): a group never starts with 0 ("0.500").
DECIMAL_POINT = re.compile(
    r"(?<![\w./-])(?![1-9]\d{0,2}(?:\.\d{3})+(?![\w./-]))\d+\.\d+(?![\w./-])"
)
# An e-mail address a credit gives as its author gave it (the contest's author's, say).
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
ADDRESS = re.compile(r"https?://|/\w|\w@\w|\bv\d")

GLOSSARY = Path(__file__).resolve().parents[1] / "locale" / "GLOSSARY.md"


def refused_variants() -> dict[str, list[tuple[str, str]]]:
    """The glossary's machine-readable list: per language, (refused, use instead)."""
    text = GLOSSARY.read_text("utf-8")
    block = re.search(r"```refused\n(.*?)```", text, re.S)
    assert block, "locale/GLOSSARY.md has no ```refused block"
    refused: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for line in block.group(1).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        language, wrong, right = (cell.strip() for cell in line.split("|"))
        refused[language].append((wrong, right))
    return refused


def catalogued(language: str) -> set[str]:
    """The English strings the language's catalogue translates into something else (whole
    sentences and labels, placeholders left out)."""
    po = polib.pofile(f"locale/{CATALOGUES[language]}/LC_MESSAGES/django.po")
    out = set()
    for entry in po:
        if entry.obsolete or not entry.msgstr or entry.msgstr == entry.msgid:
            continue
        if entry.msgid in {"English", "Português Brasileiro", "日本語"}:
            continue
        if re.search(r"%\(|\{|%s|%d|<", entry.msgid) or len(entry.msgid) < 4:
            continue
        out.add(entry.msgid)
    return out


class English:
    """A catalogue's English strings: a part that is one of them, or holds one of the long ones
    (a phrase of more than 12 characters), is English."""

    def __init__(self, msgids: set[str]) -> None:
        self.msgids = frozenset(msgids)
        self.long = sorted(m for m in self.msgids if " " in m and len(m) > 12)
        self.pattern = re.compile("|".join(re.escape(m) for m in self.long)) if self.long else None

    def found_in(self, part: str) -> list[str]:
        hits = {part} & self.msgids
        if self.pattern is not None and self.pattern.search(part):
            hits.update(m for m in self.long if m in part)
        return sorted(hits)


def without(part: str, words: set[str]) -> str:
    """``part`` without ``words``, each where it stands alone (longest first)."""
    for word in sorted(words, key=len, reverse=True):
        if word and word in part:
            if " " in word:  # a name of several words, however a PDF's text runs it on
                part = part.replace(word, " ")
            else:
                part = re.sub(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", "", part)
    return part


@dataclass
class Reader:
    language: str
    people: set[str]
    english: English
    refused: list[tuple[str, str]]
    # What each part was found to hold, by (part, same_as_english): the same navigation,
    # footer and labels come back on every page (48,205 parts a crawl, 5,614 of them
    # distinct), and the answer depends on nothing else. Read from here, the crawl's reading
    # took 0.9 s instead of 7.7 s (English.found_in's long alternation searched every part).
    _read: dict[tuple[str, bool], list[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def problems(self, part: str, *, same_as_english: bool = False) -> list[str]:
        key = (part, same_as_english)
        if key not in self._read:
            self._read[key] = self._problems(part, same_as_english)
        return list(self._read[key])

    def _problems(self, part: str, same_as_english: bool) -> list[str]:
        found: list[str] = []
        if TYPED.search(part) or ADDRESS.fullmatch(part.split()[0] if part.split() else ""):
            return found
        part = FILE_NAME.sub("", EMAIL.sub("", re.sub(r"https?://\S+", "", part)))
        rest = without(part, LATIN_ALLOWED | self.people)
        for code in code_names(part, allowed=self.people | LATIN_ALLOWED):
            found.append(f"code {code!r}")
        for msgid in self.english.found_in(part):
            if msgid not in KEPT:
                found.append(f"English {msgid!r}")
        if same_as_english and self.language == "pt-br":
            if re.search(r"[A-Za-z]{3,}", without(rest, SAME_IN_PORTUGUESE)):
                found.append("same as the English page")
        if self.language == "ja":
            latin = re.findall(r"[A-Za-z]{2,}", rest)
            if latin:
                found.append(f"Latin {latin}")
            if ASCII_IN_JAPANESE.search(part):
                found.append("ASCII punctuation in Japanese")
        else:
            if not ADDRESS.search(part):
                if DECIMAL_POINT.search(part):
                    found.append("decimal point")
                if ISO_DATE.search(part):
                    found.append("ISO date")
        for wrong, right in self.refused:
            if wrong in part:
                found.append(f"glossary: {wrong!r} (use {right!r})")
        return found
