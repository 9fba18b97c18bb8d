"""The one detector of code names on screen: words a program uses that a reader should never
meet in a sentence, a label, a chart or a file made for people.

Shared by the lab's tests ("The lab answers in the designer's words") and the site-wide crawl
("Every word in the reader's language"): both ask ``code_names(text)`` of the visible text of a
page or a file, and fail on what it returns. What it finds:

- snake_case words (``bard_share``, ``steps_all_matched``, ``zero_at_climax``);
- dotted keys (``seat1.wins``, ``contest.brains``), but not a number (``5.32``), an address
  (``example.com``, ``/tables/3/``) or a file name a person reads (``story.pdf``);
- a changelog of assignments (``bard_points=3``);
- card codes as the referee writes them (``10H``, ``KS``, ``X1``, ``M13``), standing alone;
- a word in capitals that is a key shouted (``CLARITY``), beside a short list of words that are
  written in capitals on purpose (PDF, EPUB, CSV, JSON, HTML, VP, QR, URL...).

``allowed`` takes words a page may show as they are (a table's or a person's name that happens
to look like a code, say). The detector knows nothing of the catalogues: it reads shapes only,
so text built in Python from English keys is caught as well as a template's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Written in capitals on purpose, in every language.
CAPITALS = frozenset(
    {
        "PDF",
        "EPUB",
        "CSV",
        "JSON",
        "HTML",
        "VP",
        "QR",
        "URL",
        "ID",
        "OK",
        "A4",
        "A5",
        "US",
        "DPI",
        "PNG",
        "JPEG",
        "JPG",
        "WEBP",
        "SVG",
        "ZIP",
        "GM",
        "FAQ",
        "CSS",
        "HTTP",
        "HTTPS",
        "LAN",
        "SQL",
        "UTC",
        "RSS",
        "PIN",
        "TV",
        "DJ",
    }
)
FILE_ENDINGS = frozenset(
    {"pdf", "epub", "csv", "json", "html", "zip", "png", "jpg", "jpeg", "webp", "svg", "txt"}
)
# The ends of the addresses a page shows (a server's name, an example in the help).
ADDRESS_ENDINGS = frozenset({"com", "org", "net", "local", "lan", "br", "jp", "io", "test"})

SNAKE = re.compile(r"(?<![\w/.@-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/@-])")
DOTTED = re.compile(r"(?<![\w/.@:-])([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)(?![\w/@(-])")
ASSIGNMENT = re.compile(r"(?<![\w/?&.-])[A-Za-z_][A-Za-z0-9_]*=[^\s=&]+")
# A card as the referee writes it: a rank and a suit letter (10H, 7S, KD, AS, QC), a joker
# (X1, X2) or a major arcanum (M0..M21); alone, not inside a word.
CARD = re.compile(r"(?<![\w·-])(?:(?:10|[2-9AJQKPN])[SHDC]|X[12]|M(?:1\d|2[01]|\d))(?![\w-])")
SHOUTED = re.compile(r"(?<![\w-])[A-Z][A-Z_]{3,}(?![\w-])")


def code_names(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The code names in ``text``, each once, in the order found."""
    allow = set(allowed)
    found: list[str] = []

    def add(word: str) -> None:
        if word not in allow and word not in found:
            found.append(word)

    for match in SNAKE.finditer(text):
        add(match.group(0))
    for match in DOTTED.finditer(text):
        head, tail = match.group(1), match.group(2)
        if tail.lower() in FILE_ENDINGS | ADDRESS_ENDINGS or head.isdigit():
            continue
        if head[:1].isupper() and tail[:1].isupper():
            continue  # "Ana.Bo" is not a key a program writes this way
        if not re.search(r"[0-9_]", match.group(0)) and not head.islower():
            continue  # "Dr.Who": a sentence without its space, not a key
        if head.islower() and tail.islower() and len(head) > 1 and len(tail) > 1:
            # "seat1.wins", "contest.brains": a key; "e.g" is neither (one letter).
            add(match.group(0))
        elif re.search(r"\d", head):
            add(match.group(0))
    for match in ASSIGNMENT.finditer(text):
        add(match.group(0))
    for match in CARD.finditer(text):
        add(match.group(0))
    for match in SHOUTED.finditer(text):
        word = match.group(0)
        if word not in CAPITALS:
            add(word)
    return found
