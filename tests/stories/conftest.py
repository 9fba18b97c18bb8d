"""Stories made from finished sample games, and a private cache and media folder per test; and
a game master's laptop and its bundle, for the bundle tests (``laptop``, ``bundle``)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.base import ContentFile

from games.models import Move, Ruleset, Seat, Table
from games.playtests.models import Impression, PlaytestReport
from games.services import new_tables, writing
from stories import services
from stories.bundles.export import export_bundle
from stories.models import Story, Tag, story_for
from stories.samples import SAMPLES, Scene, amnesia_script, sample_script
from tests.stories.bundle_sites import SCRIPTS, png


@pytest.fixture(autouse=True)
def story_folders(settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")
    settings.MEDIA_ROOT = str(tmp_path / "media")


def make_story(
    owner,
    language: str = "en",
    *,
    visibility: str = Story.Visibility.PRIVATE,
    published: bool = False,
    title: str | None = None,
    script: dict | None = None,
    at: str | None = None,
    **fields,
) -> Story:
    """A story of ``script`` (the language's sample game by default); ``at``: its moves played
    from that time (``played_at``), else now."""
    script = script or sample_script(language)
    if at is not None:
        script = played_at(script, at)
    table = new_tables.import_script(script, owner)
    story = story_for(table, language)
    story.title = title or SAMPLES[language]["title"]
    story.visibility = visibility
    for name, value in fields.items():
        setattr(story, name, value)
    if published:
        story.publish()
    story.save()
    if published:
        services.refresh_search_text(story)
    return story


def short_script(text: str, players: tuple[str, str] = ("Ana", "Bruno")) -> dict:
    """A finished game of three chapters whose first scene says ``text``."""
    a, b = players
    return amnesia_script(
        [a, b],
        [
            Scene(a, [text]),
            Scene(b, ["A memory of a lighthouse."], kind="flashback", abilities=["swimming"]),
            Scene(a, ["The room, at last."], kind="room_flashback"),
        ],
        epilogue="The end of it.",
    )


HEADER_LINE = re.compile(r"^\d+$")


def pdf_text(data: bytes, running_heads: set[str]) -> str:
    """The text of a PDF with page numbers and running heads taken out, pages joined."""
    from tests.pdfs import page_texts

    pages = []
    for page in page_texts(data):
        lines = page.split("\n")
        while lines and (
            HEADER_LINE.match(lines[-1].strip()) or lines[-1].strip() in running_heads
        ):
            lines.pop()
        pages.append("\n".join(lines))
    return "\n".join(pages).replace("\u2010\n", "")


def squeeze(text: str) -> str:
    """Text without any whitespace: line breaks fall in different places in a PDF."""
    return "".join(text.split())


# A fixed time for the moves of a story whose book is printed more than once in a test process:
# the book prints its dates, so stories of the same script made at different moments print
# different books.
PLAYED_AT = "2026-03-14T20:00:00+00:00"


def played_at(script: dict, start: str = PLAYED_AT) -> dict:
    """The script with its moves stamped a minute apart from ``start`` (as an exported table's
    are), unless they carry their own times."""
    from datetime import datetime, timedelta

    first = datetime.fromisoformat(start)
    moves = [
        move if "at" in move else {**move, "at": (first + timedelta(minutes=i)).isoformat()}
        for i, move in enumerate(script.get("moves", []))
    ]
    return {**script, "moves": moves}


@pytest.fixture
def weasyprint_once(monkeypatch):
    """WeasyPrint prints each document once a run (``print_once``) for the test."""
    print_once(monkeypatch)


def print_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """WeasyPrint's PDF for the same document, the same resources and the same way of printing
    it (all at once, or laid out and then written as the books' worker does) made once a run
    (tests/memo.py: once per ``make test`` across its workers and both engines, whose ids
    agree; once per process for a plain ``pytest``): the first time for real, the same bytes
    after. The book's code runs each time up to WeasyPrint (its HTML and resources are made and
    compared whole); what a test counts of the printing (``render_book_pdf``,
    ``lay_out_book``) is counted above this. Not for a test that watches what WeasyPrint
    fetches. The warnings WeasyPrint logged while printing it for real are kept with the PDF
    and logged again, the same messages on the same logger, each time the kept PDF is handed
    out: a test that listens for them (tests/test_crawl.py, the print-and-play sheets in
    tests/games/test_components_warnings.py, which print the same Portuguese sheets) hears
    them whichever printed first. A fixture of a wider scope patches it with its own
    ``pytest.MonkeyPatch.context()`` (tests/games/conftest.py's ``components_pdf``)."""
    import hashlib
    import json
    import logging

    import weasyprint

    from tests.memo import remember

    real = weasyprint.HTML
    heard = logging.getLogger("weasyprint")

    class Kept(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.WARNING)
            self.messages: list[list[object]] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append([record.name, record.levelno, record.getMessage()])

    def printed(key: tuple, make) -> bytes:
        made = []

        def first() -> tuple[bytes, bytes]:
            kept = Kept()
            heard.addHandler(kept)
            try:
                data = make()
            finally:
                heard.removeHandler(kept)
            made.append(True)
            return data, json.dumps(kept.messages).encode()

        data, warnings = remember("weasyprint", repr(key), first)
        if not made:  # kept: what printing it said is said again
            for name, level, message in json.loads(warnings):
                logging.getLogger(name).log(level, "%s", message)
        return data

    def key_of(way: str, string: str, base_url, url_fetcher) -> tuple:
        digest = hashlib.sha256(string.encode())
        for path, (body, mime) in sorted(getattr(url_fetcher, "extra", {}).items()):
            digest.update(f"\0{path}\0{mime}\0".encode())
            digest.update(body)
        return (way, base_url, type(url_fetcher), digest.hexdigest())

    def options(args: tuple, kwargs: dict) -> str:
        # What a call asks of WeasyPrint beyond the document (a PDF variant, its metadata...)
        # is part of the key; the font configuration is a fresh object every time and changes
        # nothing printed.
        return repr((args, sorted((k, v) for k, v in kwargs.items() if k != "font_config")))

    class Written:
        """A laid-out document: laid out for real (``lay_out``) the first time its PDF is
        asked for with these options."""

        def __init__(self, key: tuple, lay_out) -> None:
            self.key, self.lay_out = key, lay_out

        def write_pdf(self, *args, **kwargs) -> bytes:
            key = (*self.key, options(args, kwargs))
            return printed(key, lambda: self.lay_out().write_pdf(*args, **kwargs))

    class Once:
        def __init__(self, *, string: str, base_url=None, url_fetcher=None, **kwargs) -> None:
            assert not kwargs, kwargs
            self.args = {"string": string, "base_url": base_url, "url_fetcher": url_fetcher}

        def write_pdf(self, *args, **kwargs) -> bytes:
            key = (*key_of("write_pdf", **self.args), options(args, kwargs))
            return printed(key, lambda: real(**self.args).write_pdf(*args, **kwargs))

        def render(self, *args, **kwargs) -> Written:
            key = (*key_of("render", **self.args), options(args, kwargs))
            return Written(key, lambda: real(**self.args).render(*args, **kwargs))

    monkeypatch.setattr(weasyprint, "HTML", Once)


# -- a game master's laptop, for the bundle tests (test_bundles*.py) ------------------------
@pytest.fixture
def laptop(gm, other):
    """What one game master's laptop holds (``fill_laptop``)."""
    return fill_laptop(gm, other)


def fill_laptop(gm, other) -> list[Table]:
    """What one game master's laptop holds: three games' tables, a story edited twice (and
    reverted), with a cover and tags, a seat's user, an alias, a ruleset, a report with
    impressions; and an undone move, so the log and the moves in force differ."""
    gm.first_name = "Marta"
    gm.save()
    story = make_story(gm, visibility=Story.Visibility.PUBLIC, published=True, blurb="Blurb.")
    story.tags.set(Tag.for_names(["noir", "hotel"]))
    story.cover.save("c.png", ContentFile(png()))
    seq = story.table.moves.filter(kind=Move.Kind.MOVE).exclude(text="").first().seq
    first = services.edit_narration(story, seq, "Edited once.", gm)
    services.edit_narration(story, seq, "Edited twice.", other)
    services.revert_narration(story, seq, first, gm)
    table = story.table
    Seat.objects.filter(table=table, position=1).update(user=other, alias="Player 2")
    contest_script = json.loads((SCRIPTS / "contest/last_card_and_winner.json").read_text())
    contest = new_tables.import_script(contest_script["script"], gm)
    contest.ruleset = Ruleset.objects.create(
        game="contest", name="Laptop rules", version=2, options={}, owner=gm
    )
    contest.language = "ja"  # a table of its own language: it comes back in it
    contest.save(update_fields=["ruleset", "language"])
    report, _ = PlaytestReport.objects.get_or_create(table=contest, defaults={"place": "Club"})
    ratings = dict(fun=5, length=4, clarity=3, downtime=2, decisions=1, again=5)
    Impression.objects.create(report=report, player="Ana", best_moment="The pretzel.", **ratings)
    stories_script = json.loads((SCRIPTS / "amnesia_stories/01_judging_branches.json").read_text())[
        "script"
    ]
    journeys = new_tables.import_script(stories_script, gm)
    writing.undo(journeys, None, gm)
    return [table, contest, journeys]


@pytest.fixture
def bundle(laptop) -> bytes:
    return bundle_of_the_laptop()


def bundle_of_the_laptop() -> bytes:
    data = export_bundle(Table.objects.all(), with_deck=True)
    Table.objects.all().delete()  # the same site, without the tables: a good import would add them
    return data


@pytest.fixture(scope="module")
def bundle_once(django_db_setup, django_db_blocker, tmp_path_factory):
    """``bundle`` made once for a module whose tests each refuse it, or a damaged copy, and
    change nothing: the laptop filled (gm and other made as their fixtures make them) and its
    bundle exported in a transaction left open while the module's tests run, each test's own
    transaction inside it (what a test writes is rolled back to the site ``bundle`` leaves),
    and rolled back after the module. Filling the laptop was most of such a test's time."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import override_settings

    from tests.conftest import PASSWORD
    from tests.plugins.database import IDS_BETWEEN_TESTS, set_ids_back

    folder = tmp_path_factory.mktemp("bundle-once")
    block = transaction.atomic()
    with (
        django_db_blocker.unblock(),
        override_settings(STORY_CACHE_DIR=str(folder / "cache"), MEDIA_ROOT=str(folder)),
    ):
        block.__enter__()
        try:
            set_ids_back()
            users = get_user_model().objects
            gm = users.create_user(username="gm", password=PASSWORD)
            other = users.create_user(username="other", password=PASSWORD)
            fill_laptop(gm, other)
            data = bundle_of_the_laptop()
            # Rows that outlive a test: each test's ids go on from them, not from before them.
            IDS_BETWEEN_TESTS.forget()
        except BaseException:
            transaction.set_rollback(True)
            block.__exit__(None, None, None)
            raise
    try:
        yield data
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            block.__exit__(None, None, None)
        IDS_BETWEEN_TESTS.forget()
