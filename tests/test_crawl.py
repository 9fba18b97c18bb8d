"""Every word in the reader's language, proven by a crawl of every page and every file.

From a world made as a newcomer's evening makes it (each game's demo tables in every phase
they reach and played to their end, a book of each, a lab study kept, a ruleset), four people
(a designer, a game master, a seat link and an anonymous visitor) follow every link and every
GET form and htmx target of the site, in English, Brazilian Portuguese and Japanese; each
distinct address is read once per person and language. The URL conf says what exists: every
pattern is reached, or listed in ``NOT_REACHED`` with why. Of every page and every file it can
download (book PDF, EPUB and single HTML, report PDFs, components PDFs, rules PDFs), the
visible text is read, and the crawl fails on:

- text identical to the English page's at the same place, or an English sentence the
  catalogue knows, outside the short reviewed list below (names, the site's name, card ranks);
- a code name (``tests/codenames.py``, the detector the lab's tests share);
- in pt-BR, a number with a decimal point or a date in ISO form; in ja, ASCII ``: , ; ( )``
  inside Japanese text;
- a warning WeasyPrint prints while rendering (a CSS value it ignores is a misprint);
- a variant the glossary refuses (``locale/GLOSSARY.md``, its machine-readable list).

It runs on SQLite only (tests/conftest.py, ``sqlite_only``): it reads what the views render, and
the views' own tests run on both engines. CSV and JSON exports are data: their keys go with a
header in words, and they are fetched (reached) but not read.
"""

from __future__ import annotations

import difflib
import json
import logging
import os
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.test import Client

from games import registry
from tests.crawl_reading import LANGUAGES, English, Reader, catalogued, refused_variants
from tests.crawl_walk import crawl, make_world, pattern_names, route_of, seat_links
from tests.stories.conftest import weasyprint_once  # noqa: F401 - a fixture

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_only, pytest.mark.long]


# Patterns no GET of the crawl reaches, and why. A POST target the crawl sees in a form counts
# as reached (it is never sent: the crawl only reads).
NOT_REACHED: dict[str, str] = {
    "favicon.ico": "a redirect to the icon, a static file",
    "set_language": "a POST (the language switcher)",
    "demo_login": "a POST that logs the reader in as the demo user",
    "password_change_done": "shown only after a password is changed (a POST)",
    "password_reset": "Django's page; no link leads there (the site sends no mail)",
    "password_reset_done": "shown only after a reset is asked for (a POST)",
    "password_reset_confirm": "reached from a mailed link only",
    "password_reset_complete": "shown only after a reset (a POST)",
    "amnesia_stories:handoff": "the laptop's hand-off screen: the demo tables answer on phones",
    "amnesia_stories:answer": "a POST (an answer on the passed laptop)",
    "amnesia_stories:reveal": "a POST (the projector's reveal)",
    "amnesia_stories:revealed": "the projector's answers once revealed: asked after a reveal (a POST)",
    "amnesia_stories:timer": "a POST (the answer timer)",
    "amnesia_stories:seat_move": "a POST (a seat's answer)",
    "amnesia_stories:deck": "the world has no custom deck (an upload; its pages are tested there)",
    "amnesia_stories:deck_delete": "a POST, and the world has no custom deck",
    "amnesia_stories:deck_picture": "the world has no custom deck",
    "games:picture": "a custom deck's picture: the world has no custom deck",
    "games:seat_picture": "a custom deck's picture: the world has no custom deck",
    "stories:picture": "a story's uploaded picture: the world has none",
    "stories:shared_picture": "a story's uploaded picture: the world has none",
    "games:draft": "a POST (a narration kept while it is typed)",
    "games:poll": "asked by the page's script with its version; answers the panels already read",
    "games:seat_poll": "asked by the seat page's script; answers the panels already read",
    "contest:bring": "a POST (a character brought to a table)",
    "contest:character": "the world has no persistent character (a contest character's page)",
    "contest:character_edit": "the world has no persistent character",
    "contest:character_spend": "a POST, and the world has no persistent character",
    "playtests:review_external": "the world has no report sent through the public form",
    "playtests:publish_external": "a POST, and the world has no report sent from outside",
    "playtests:run_cancel": "a POST (a run is cancelled)",
    "playtests:run_compare": "the world keeps one run per game, none to compare with",
    "playtests:run_save_ruleset": "a POST (a run's options saved as a ruleset)",
    "stories:bundle_import": "a POST (a bundle uploaded)",
    "stories:revert": "a POST (a narration put back)",
    "stories:table_play": "one table's play as JSON: data, linked from no page",
}

# Findings left as they are, each an exact (route, text, problem), and each must still occur
# (the crawl fails on one that no longer does, so the list never hides the same text coming
# back). The other branches of issue 47 that this list once held for are merged and mended.
PENDING: set[tuple[str, str, str]] = {
    # Amnesia Stories' components in Japanese: the start card's "S" and the score track's "VP"
    # run together in the PDF's text layer ("SVP"); on the page they are two labels.
    ("games:components", "SVP ", "Latin ['SVP']"),
}

# WeasyPrint warnings left as they are (none: a CSS value WeasyPrint ignores is a misprint).
PENDING_WARNINGS: set[str] = set()


@pytest.mark.usefixtures("weasyprint_once")
def test_every_page_and_file_is_in_the_readers_language(django_user_model, caplog) -> None:
    world = make_world(django_user_model)
    rules = [f"/rules/{kit.slug}/" for kit in registry.kits()]

    def people(language: str) -> tuple[dict[str, Client], dict[str, list[str]]]:
        clients = {"anonymous": Client(), "gm": Client(), "designer": Client(), "seat": Client()}
        clients["gm"].force_login(world.gms[language])
        clients["designer"].force_login(world.designer)
        seeds = {
            "anonymous": ["/", *rules, *world.shared[language]],
            "gm": ["/", "/stories/", *world.extra[language]],
            "designer": ["/", "/playtests/"],
            "seat": seat_links(world, language),
        }
        return clients, seeds

    english, _posted = crawl(*people("en"), "en", files=False)
    # A pattern is reached when a page of it was read (a refusal of one person is no reading).
    reached = {
        route_of(urlsplit(url).path) for (_p, url), page in english.items() if page.status < 400
    }
    found: dict[str, list[str]] = defaultdict(list)
    pending_seen: set[tuple[str, str, str]] = set()
    counts: dict[str, tuple[int, int]] = {}
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        for language in LANGUAGES:
            pages, posted = crawl(*people(language), language)
            reached |= posted | {
                route_of(urlsplit(url).path)
                for (_p, url), page in pages.items()
                if page.status < 400
            }
            counts[language] = (
                sum(p.kind == "text/html" for p in pages.values()),
                sum(p.kind != "text/html" for p in pages.values()),
            )
            reader = Reader(
                language,
                world.people,
                English(catalogued(language)),
                refused_variants().get(language, []),
            )
            for (person, url), page in pages.items():
                route = route_of(urlsplit(url).path) or url
                same: set[int] = set()
                if (person, url) in english:
                    matcher = difflib.SequenceMatcher(
                        None, english[person, url].parts, page.parts, autojunk=False
                    )
                    for block in matcher.get_matching_blocks():
                        same.update(range(block.b, block.b + block.size))
                for index, part in enumerate(page.parts):
                    for problem in reader.problems(part, same_as_english=index in same):
                        if (route, part, problem) in PENDING:
                            pending_seen.add((route, part, problem))
                            continue
                        found[f"{language} {person} {url}"].append(f"{problem}: {part!r}")
    warnings = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("weasyprint") and r.getMessage() not in PENDING_WARNINGS
    ]
    seen_warnings = {r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")}
    # A pending finding that no longer occurs was mended: it leaves the list, so that the list
    # never hides the same text coming back.
    mended = sorted(PENDING - pending_seen) + sorted(PENDING_WARNINGS - seen_warnings)
    if os.environ.get("CRAWL_PENDING_DUMP"):
        Path(os.environ["CRAWL_PENDING_DUMP"]).write_text(json.dumps(sorted(pending_seen)))
    missing = pattern_names() - reached - set(NOT_REACHED)
    stale = set(NOT_REACHED) & reached
    report = [f"{where}: {what}" for where, whats in found.items() for what in whats]
    print(f"crawled (pages, files) per language: {counts}, and {len(english)} English pages")
    assert not report, "\n".join(report)
    assert not warnings, sorted(set(warnings))[:20]
    assert not missing, f"patterns neither reached nor listed: {sorted(missing)}"
    assert not stale, f"listed as not reached, but reached: {sorted(stale)}"
    assert not mended, f"pending findings no longer found (take them off the list): {mended[:20]}"
