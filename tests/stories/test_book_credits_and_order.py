"""The book as the table asked for it (issue 10.11, 13.7), read back from the PDF with pypdf:
the game's name on the title page, the game master's display name (never their login) as an
author, a scene before the suggestions made while it was told, headings on the page of their
text, the cover's background set in whole words, and the designer named as the seed does."""

from __future__ import annotations

import json
import random
import re
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from amnesia_site.accounts.models import Profile
from games.amnesia import cover as amnesia_cover
from games.services import new_tables
from stories import covers, services
from stories import pdf as story_pdf
from stories.models import story_for
from stories.samples import Scene, amnesia_script
from tests.pdfs import page_texts

from .conftest import PLAYED_AT, make_story, played_at, squeeze

# A story played at the same time prints the same book: WeasyPrint makes each once
# (weasyprint_once, tests/stories/conftest.py), for the tests that print the same.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("weasyprint_once"),
    pytest.mark.xdist_group("books"),  # with the other modules that print the same books
]

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def pages_of(data: bytes) -> list[str]:
    return page_texts(data)


def colophon_of(pages: list[str]) -> str:
    """The colophon's page (its title is set in lower case; the contents' entry is not)."""
    return next(p for p in reversed(pages) if "who told what" in p)


@pytest.fixture
def alice(django_user_model):
    user = django_user_model.objects.create_user(username="gm_alice")
    Profile.objects.filter(user=user).update(display_name="Alice Moreau")
    return user


def other_game_story(owner, path: str):
    script = json.loads((SCRIPTS / path).read_text())["script"]
    return story_for(new_tables.import_script(played_at(script), owner), "en")


@pytest.mark.parametrize(
    ("path", "name"),
    [
        (None, "Amnesia"),
        ("amnesia_stories/01_judging_branches.json", "Amnesia Stories"),
        ("contest/teams.json", "Contest"),
    ],
)
def test_the_title_page_names_the_game_as_written(alice, path, name) -> None:
    story = make_story(alice, at=PLAYED_AT) if path is None else other_game_story(alice, path)
    title_page = pages_of(story_pdf.pdf_for(story))[1]
    assert title_page.split("\n")[0] == name  # not its code, not lowered


def test_the_display_name_is_the_author_on_the_title_page_colophon_and_metadata(alice) -> None:
    story = make_story(alice, at=PLAYED_AT)
    data = story_pdf.pdf_for(story)
    pages = pages_of(data)
    assert "Game master: Alice Moreau" in pages[1]
    colophon = colophon_of(pages)
    assert "Alice Moreau" in colophon and "gm_alice" not in "".join(pages)
    assert "Alice Moreau" in PdfReader(BytesIO(data)).metadata.author
    assert "Alice Moreau" in services.make_book(story).authors


def test_without_a_display_name_the_username_stands(django_user_model) -> None:
    user = django_user_model.objects.create_user(username="gm_bob")
    assert services.make_book(make_story(user)).game_master == "gm_bob"


def test_a_new_display_name_reprints_the_book(alice) -> None:
    story = make_story(alice)
    before = services.make_book(story)
    alice.profile.display_name = "Alice M."
    alice.profile.save()
    alice.refresh_from_db()
    after = services.make_book(story_for(story.table, "en"))
    assert after.game_master == "Alice M." and after.hash != before.hash


def test_a_scene_typed_when_it_ends_comes_before_its_suggestion(alice) -> None:
    """At the table the scene is told aloud, suggested on, and typed into the box that ends
    it: the book prints the scene, then the suggestion that answered it."""
    script = amnesia_script(
        ["Ana", "Bruno"],
        [
            Scene(
                "Ana",
                ["", "She counts the bodies twice and finds a hotel key under the bed."],
                suggestions=[("Bruno", "The key opens room 714.")],
            ),
            Scene("Bruno", ["A lighthouse, years ago."], kind="flashback"),
            Scene("Ana", ["The room, at last."], kind="room_flashback"),
        ],
    )
    story = make_story(alice, script=script, at=PLAYED_AT)
    chapter = services.make_book(story).chapters[0]
    assert [item["type"] for item in chapter.data["items"]] == ["text", "suggestion"]
    text = squeeze("".join(pages_of(story_pdf.pdf_for(story))))
    scene = text.index(squeeze("She counts the bodies twice"))
    suggestion = text.index(squeeze("Bruno suggested"))
    assert scene < suggestion


def test_text_typed_with_the_opening_keeps_the_order_of_play(alice) -> None:
    script = amnesia_script(
        ["Ana", "Bruno"],
        [
            Scene(
                "Ana",
                ["She wakes.", "She takes the key Bruno spoke of."],
                suggestions=[("Bruno", "There is a key in her pocket.")],
            ),
            Scene("Bruno", ["A memory."], kind="flashback"),
            Scene("Ana", ["The room."], kind="room_flashback"),
        ],
    )
    chapter = services.make_book(make_story(alice, script=script)).chapters[0]
    assert [item["type"] for item in chapter.data["items"]] == ["text", "suggestion", "text"]


WORDS = "the rain kept on the roof while she counted doors and names and the clock ran".split()


def passage(n: int) -> str:
    return " ".join(WORDS[i % len(WORDS)] for i in range(n)) + "."


def test_no_page_ends_with_a_heading(alice) -> None:
    """Chapters of every length, memories that awaken skills, suggestions: whatever falls at
    the foot of a page, a chapter's title, its "told by" line and a memory's skills stay with
    the text they introduce."""
    beats = []
    for i in range(30):
        memory = i % 3 == 1
        beats.append(
            Scene(
                None,
                [passage(5 + (i * 37) % 60), passage(8 + (i * 13) % 50)],
                kind="flashback" if memory else "continue",
                abilities=["climbing", "lockpicking"] if memory else [],
                suggestions=[] if memory else [(["Bruno", "Caio", "Ana"][i % 3], passage(7))],
            )
        )
    beats.append(Scene(None, ["The room."], kind="room_flashback"))
    story = make_story(alice, script=amnesia_script(["Ana", "Bruno", "Caio"], beats), at=PLAYED_AT)
    running_heads = re.compile(r"\d+|(Chapter|Memory) \d+|The memory of the room|The ending")
    title = story.title
    headed = 0
    for number, text in enumerate(pages_of(story_pdf.pdf_for(story))[3:], start=4):
        lines = [
            line.strip()
            for line in text.split("\n")
            if line.strip() and not running_heads.fullmatch(line.strip()) and line != title
        ]
        if not lines:
            continue
        last = lines[-1]
        headed += any(re.fullmatch(r"(chapter|memory) \d+", line) for line in lines)
        assert not re.fullmatch(r"(chapter|memory) \d+", last), (number, lines[-3:])
        assert not last.startswith("told by"), (number, lines[-3:])
        assert last != "she remembers how to", (number, lines[-3:])
        assert not (len(lines) > 1 and lines[-2] == "she remembers how to"), (number, lines[-3:])
    assert headed > 10  # the check saw the chapters' headings


def test_the_covers_background_is_whole_words_in_order() -> None:
    drift = "She wakes on a cold floor. · Someone is pounding on the door, slow and patient."
    words = drift.split()
    lines = amnesia_cover.drift_lines(drift, lambda text: 18.0 * len(text), 1240, random.Random(3))
    cycle = " ".join([*words, "·"] * 40)
    for _ in range(15):
        line = next(lines)
        assert line.text in cycle  # a run of the drift as it reads, never glued mid-word
        assert line.text.split()[0] in words + ["·"]
        assert 18.0 * len(line.text) >= 1240 - line.x  # it runs past the right edge


def test_the_cover_draws_its_drift(alice) -> None:
    book = services.make_book(make_story(alice))
    image = covers.generated_cover(book)
    assert image.size == covers.COVER_SIZE
    # The top of the cover carries the drift: lighter pixels than the bare ink.
    top = image.crop((0, 60, image.width, 400)).convert("L")
    assert top.getextrema()[1] > 40


@pytest.mark.parametrize(
    ("path", "credit"),
    [
        (None, "From the designer’s draft"),
        ("amnesia_stories/01_judging_branches.json", "From the designer’s draft"),
        ("contest/teams.json", "A game by Phillip Foster"),
    ],
)
def test_the_colophon_names_the_designer_as_the_seed_does(alice, path, credit) -> None:
    story = make_story(alice, at=PLAYED_AT) if path is None else other_game_story(alice, path)
    pages = pages_of(story_pdf.pdf_for(story))
    colophon = colophon_of(pages)
    assert squeeze(credit) in squeeze(colophon)
