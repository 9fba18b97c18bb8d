"""The two other games plug into the book registry: Amnesia Stories' journeys with their
illustrations, the contest game's cast, parts and contests."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

import pytest
from PIL import ImageDraw
from pypdf import PdfReader

from games import registry
from games.amnesia_stories import cover as amnesia_stories_cover
from games.contest import cover as contest_cover
from games.services import new_tables
from stories import covers, services
from stories import pdf as story_pdf
from stories.models import story_for

from .conftest import pdf_text, squeeze

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def story_of(owner, path: str, language: str = "en"):
    script = json.loads((SCRIPTS / path).read_text())["script"]
    return story_for(new_tables.import_script(script, owner), language)


def test_amnesia_stories_journeys(gm):
    story = story_of(gm, "amnesia_stories/01_judging_branches.json")
    book = services.make_book(story)
    assert [c.title for c in book.chapters] == ["Journey 1", "Journey 2", "Journey 3"]
    assert [c.narrators for c in book.chapters] == [["Ana"], ["Bruno"], ["Caio"]]
    first = book.chapters[0]
    steps = first.data["steps"]
    assert [s["journey"] for s in steps] == ["A08", "A06", "A10"]
    assert steps[0]["text"].startswith("Shared supper with villagers")
    # Ana told her steps as slots 2, 4, 1 of the selection A01..A05.
    assert [s["illustration"] for s in steps] == ["A02", "A04", "A01"]
    assert steps[0]["matched"] == ["Bruno"]
    assert first.passages[0].text == "The hero climbed, sailed, then got lost."
    assert first.data["gains"] == {"Ana": 4, "Bruno": 3, "Caio": 1}
    assert book.images[:3] == ["A02", "A04", "A01"]


def test_amnesia_stories_texts_follow_the_story_language(gm):
    story = story_of(gm, "amnesia_stories/01_judging_branches.json", "pt-br")
    steps = services.make_book(story).chapters[0].data["steps"]
    assert steps[0]["text"].startswith("Jantou com aldeões")


def test_amnesia_stories_pdf_embeds_the_illustrations(gm):
    story = story_of(gm, "amnesia_stories/01_judging_branches.json")
    book = services.make_book(story)
    data = story_pdf.pdf_for(story)
    reader = PdfReader(BytesIO(data))
    assert [o.title for o in reader.outline] == ["Journey 1", "Journey 2", "Journey 3"]
    images = set()
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        images |= {xobjects.raw_get(k).idnum for k in xobjects}
    assert len(images) >= 1 + len(book.images)  # the cover and each illustration
    text = squeeze(pdf_text(data, {book.title, *(c.title for c in book.chapters)}))
    assert squeeze("The hero climbed, sailed, then got lost.") in text
    # The illustrations are the game's pictures, served under the generic path.
    assert book.picture_ids == registry.kit("amnesia_stories").pictures.ids
    html = story_pdf.book_html(book)
    assert f'src="{story_pdf.PICTURE_PATH}{book.images[0]}"' in html
    assert "/book/area/" not in html
    # The generated cover is a collage of the journeys' pictures, drawn by the game.
    assert registry.kit("amnesia_stories").cover is amnesia_stories_cover.draw


def test_the_contest_book(gm):
    story = story_of(gm, "contest/chain_face_cards_and_reshuffle.json")
    book = services.make_book(story)
    assert [c.kind for c in book.chapters] == ["cast", "part", "part"]
    cast = book.chapters[0].data["cast"]
    assert [(r["player"], r["character"]) for r in cast] == [("Ana", "Zed"), ("Bo", "Yum")]
    second = book.chapters[2]
    assert second.narrators[0] == "Bo"
    (contest,) = [i for i in second.data["items"] if i["type"] == "contest"]
    assert contest["kind"] == "tug of war" and contest["winner"] == "Bo"
    ana = next(side for side in contest["sides"] if side["name"] == "Ana")
    assert [c["code"] for c in ana["cards"]] == ["5C", "QC", "2C", "KS"]
    assert [c["chain"] for c in ana["cards"]] == [False, True, True, True]
    assert ana["total"] == 10 and ana["attribute"] == "muscle"
    # Ana's drink for losing is told once, in the box (in the table page's words), not also
    # in the margin before it (the margin's sentences: tests/games/contest/test_book.py).
    assert ana["penalties"] == ["1 drink"]
    margin = [i["summary"] for i in second.data["items"] if i["type"] == "margin"]
    assert margin == []
    assert [p.text for p in second.passages] == ["I dig my heels in."]


def test_the_contest_winner_closes_the_book(gm):
    story = story_of(gm, "contest/last_card_and_winner.json")
    book = services.make_book(story)
    assert book.chapters[-1].kind == "winner"
    assert book.chapters[-1].data["winner"] == "Ana"
    reader = PdfReader(BytesIO(story_pdf.pdf_for(story)))
    assert [o.title for o in reader.outline] == [c.title for c in book.chapters]


def test_the_contest_cover_names_the_characters(gm, monkeypatch):
    story = story_of(gm, "contest/chain_face_cards_and_reshuffle.json")
    book = services.make_book(story)
    assert registry.kit("contest").cover is contest_cover.draw
    assert contest_cover.cast(book) == [("Zed", "Ana"), ("Yum", "Bo")]
    written = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        written.append(text)
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    image = covers.generated_cover(book)
    assert image.size == covers.COVER_SIZE
    assert "Zed" in written and "Yum" in written
    assert "Ana" not in written  # the characters stand on the cover, not the players
