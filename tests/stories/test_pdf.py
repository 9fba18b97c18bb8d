"""The PDF book, read back with pypdf: pages, outline, metadata, text, fonts, images, cache.

The three sample books (English, Portuguese, Japanese) are printed once for the module, and
played at a fixed time with ids from the same start, so that make test's PostgreSQL run reads
the SQLite run's PDFs (``print_once``) instead of printing them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.utils import translation
from pypdf import PdfReader

from games import registry
from stories import pdf as story_pdf
from stories import services
from stories.fonts import FONTS, japanese_code_points, missing_glyphs
from stories.models import Tag
from stories.samples import SAMPLES
from tests.pdfs import page_texts

from .conftest import PLAYED_AT, make_story, pdf_text, print_once, squeeze

# Every test is marked, so the test database is made even when only the tests that read the
# module's printed books are selected. The modules that print the same books run on one test
# worker (their xdist group): the module's books are printed once, and the books several tests
# print alike are made once by WeasyPrint (weasyprint_once).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("books")]

LANGUAGES = ["en", "pt-br", "ja"]


@dataclass
class Printed:
    pdf: bytes
    title: str
    subtitle: str
    authors: list[str]
    tags: list[str]
    chapters: list[str]
    passages: list[str]
    narrators: list[str]

    @property
    def reader(self) -> PdfReader:
        return PdfReader(BytesIO(self.pdf))

    @property
    def texts(self) -> list[str]:
        return page_texts(self.pdf)


@pytest.fixture(scope="module")
def printed(django_db_setup, django_db_blocker, tmp_path_factory) -> dict[str, Printed]:
    """Each sample story printed once; the database rows are rolled back afterwards. The
    stories are played at PLAYED_AT and their ids start where a test's do (the cover is
    seeded by the story's id), so the same books are printed in every run."""
    from django.contrib.auth import get_user_model

    from tests.plugins.database import set_ids_back

    folder = tmp_path_factory.mktemp("printed")
    books: dict[str, Printed] = {}
    with (
        django_db_blocker.unblock(),
        override_settings(STORY_CACHE_DIR=str(folder / "cache"), MEDIA_ROOT=str(folder)),
        transaction.atomic(),
        pytest.MonkeyPatch.context() as patch,
    ):
        print_once(patch)
        set_ids_back()
        owner = get_user_model().objects.create_user(username="printer-gm")
        for language in LANGUAGES:
            story = make_story(
                owner, language, subtitle=f"Subtitle {language}", blurb="Blurb.", at=PLAYED_AT
            )
            story.tags.set(Tag.for_names(["noir", f"tag-{language}"]))
            book = services.make_book(story)
            books[language] = Printed(
                pdf=story_pdf.render_book_pdf(book),
                title=book.title,
                subtitle=book.subtitle,
                authors=book.authors,
                tags=book.tags,
                chapters=[c.title for c in book.chapters],
                passages=[p.text for c in book.chapters for p in c.passages if p.text],
                narrators=[n for c in book.chapters for n in c.narrators],
            )
        transaction.set_rollback(True)
    return books


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_has_its_front_matter_chapters_and_colophon(printed, language):
    book = printed[language]
    reader = book.reader
    assert book.pdf.startswith(b"%PDF-")
    # cover, title page, contents; the body; the room and the ending each open a page;
    # the colophon.
    assert 7 <= len(reader.pages) <= 10
    # Chapter titles are in the story's language (English until a catalogue is translated).
    if language == "en":
        assert book.chapters == [
            "Chapter 1",
            "Memory 1",
            "Chapter 2",
            "The memory of the room",
            "The ending",
        ]
    assert len(book.chapters) == 5
    assert book.narrators == [SAMPLES[language]["players"][i] for i in (0, 1, 2, 1)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_outline_lists_exactly_the_chapters(printed, language):
    reader = printed[language].reader
    outline = reader.outline
    assert all(not isinstance(item, list) for item in outline)  # one level, no sub-entries
    assert [item.title for item in outline] == printed[language].chapters


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contents_page_numbers_are_the_chapters_pages(printed, language):
    reader, texts = printed[language].reader, printed[language].texts
    contents = texts[2]
    for item in reader.outline:
        page_number = reader.get_destination_page_number(item) + 1
        line = next(line for line in contents.split("\n") if line.startswith(item.title))
        assert line.rstrip().endswith(str(page_number)), (line, page_number)
        # The running page number printed on that page agrees.
        assert texts[page_number - 1].rstrip().endswith(str(page_number))


@pytest.mark.parametrize("language", LANGUAGES)
def test_metadata(printed, language):
    book = printed[language]
    reader = book.reader
    meta = reader.metadata
    assert meta.title == book.title
    assert meta.author == ", ".join(book.authors)
    assert set(book.authors) >= set(SAMPLES[language]["players"]) | {"printer-gm"}
    keywords = [k.strip() for k in meta["/Keywords"].split(",")]
    with translation.override(language):  # the game's name as the book's language says it
        game = str(registry.title("amnesia"))
    assert game in keywords and "noir" in keywords and f"tag-{language}" in keywords
    assert meta.subject == book.subtitle
    assert reader.trailer["/Root"]["/Lang"] == {"en": "en", "pt-br": "pt-BR", "ja": "ja"}[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_text_is_the_narration_in_order(printed, language):
    book = printed[language]
    heads = {book.title, *book.chapters}
    text = squeeze(pdf_text(book.pdf, heads))
    sample = SAMPLES[language]
    # Every passage of the story, and nothing in between is lost: they come in order.
    expected = [sample["scenes"][0], sample["suggestion"], sample["memory"], sample["scenes"][1]]
    # the dispute: the claim, then each side's stake
    expected += [sample["claim"], sample["stake"], sample["claim"]]
    expected += [sample["scenes"][2], sample["room"], sample["epilogue"]]
    assert book.passages == expected
    position = 0
    for passage in expected:
        found = text.find(squeeze(passage), position)
        assert found >= 0, f"{passage!r} is missing (or out of order) in the PDF text"
        position = found
    assert squeeze(book.title) in text


def test_only_the_bundled_fonts_are_embedded(printed):
    names = set()
    for language in LANGUAGES:
        for page in printed[language].reader.pages:
            fonts = page["/Resources"].get("/Font", {})
            names |= {str(fonts[key].get_object()["/BaseFont"]) for key in fonts}
    families = {name.split("+", 1)[-1] for name in names}
    assert families, "no fonts found"
    assert all(family.startswith(("Amnesia-Serif", "Amnesia-Symbols")) for family in families)
    assert any(family.startswith("Amnesia-Serif-JP") for family in families)


def running_head_fonts(pdf: PdfReader) -> set[str]:
    """The fonts of the text set in the pages' top margin (the running heads), by name."""
    fonts: set[str] = set()
    for page in pdf.pages:
        top = float(page.mediabox.top) - 19 * 72 / 25.4  # the book's top margin: 19 mm

        def visit(text, cm, tm, font, size, page_top=top):
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            if text.strip() and font and y > page_top:
                fonts.add(str(font["/BaseFont"]).split("+", 1)[-1])

        page.extract_text(visitor_text=visit)
    return fonts


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_running_heads_are_upright_in_japanese(printed, language):
    """Japanese has no italics (the CJK font is slanted, distorted): the running heads in the
    margin are set upright in a Japanese book; the other languages keep their italic."""
    fonts = running_head_fonts(printed[language].reader)
    assert fonts, "no running head found"
    slanted = {name for name in fonts if "Italic" in name or "Oblique" in name}
    if language == "ja":
        assert not slanted, fonts
    else:
        assert slanted, fonts


def test_no_japanese_is_slanted(printed):
    """Nowhere in a Japanese book is the CJK font slanted (WeasyPrint's oblique of a font with
    no italic): a dispute's stakes, the plays and the verdict, the ending's agreement included."""
    fonts = set()
    for page in printed["ja"].reader.pages:
        found = page["/Resources"].get("/Font", {})
        fonts |= {str(found[key].get_object()["/BaseFont"]).split("+", 1)[-1] for key in found}
    assert "Amnesia-Serif-JP" in fonts
    assert not [name for name in fonts if name.startswith("Amnesia-Serif-JP-")], fonts


def test_the_japanese_text_has_no_missing_glyph(printed):
    sample = SAMPLES["ja"]
    text = "".join(
        [sample["title"], *sample["players"], sample["memory"], sample["room"], sample["claim"]]
        + sample["scenes"]
        + [sample["epilogue"], sample["suggestion"], sample["stake"], "♠♥♦♣✓"]
    )
    assert missing_glyphs(text) == set()
    assert all(f.path.stat().st_size < 3_500_000 for f in FONTS)  # a cut, not the full font
    # Text the fonts cannot draw is reported, not hidden.
    assert missing_glyphs("𠮷 a") == {"𠮷"}


def test_the_fonts_cover_what_the_games_print():
    """The Japanese cut is made from every registered game's printed texts (Amnesia Stories'
    adventure texts), and the bundled files draw them."""
    printed = [t for kit in registry.kits() if kit.printed_texts for t in kit.printed_texts()]
    assert printed, "no game prints texts of its own"
    assert {ord(ch) for text in printed for ch in text} <= japanese_code_points()
    assert missing_glyphs("".join(printed)) == set()


def test_the_cover_is_an_embedded_image_filling_the_first_page(printed):
    page = printed["en"].reader.pages[0]
    images = list(page.images)
    assert len(images) == 1
    image = images[0].image
    assert image.size == (1240, 1754)
    assert images[0].name.endswith(".jpg")  # embedded as it is (tests/stories/test_covers.py)
    assert printed["en"].texts[0].strip() == ""  # the cover page: no running head or number


# The Portuguese book played at PLAYED_AT in A4 is the one the story command prints below:
# WeasyPrint prints it once (weasyprint_once), and each engine's run reads the same PDFs.
@pytest.mark.usefixtures("weasyprint_once")
@pytest.mark.parametrize(("size", "points"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_a4_and_letter(gm, size, points):
    story = make_story(gm, "pt-br", at=PLAYED_AT)
    reader = PdfReader(BytesIO(story_pdf.pdf_for(story, size)))
    box = reader.pages[3].mediabox
    assert (round(float(box.width)), round(float(box.height))) == points


@pytest.mark.usefixtures("weasyprint_once")  # the book test_book_printing.py prints too
def test_the_pdf_is_cached_until_the_story_changes(gm, monkeypatch):
    story = make_story(gm, "en", at=PLAYED_AT)
    calls = []
    real = story_pdf.render_book_pdf

    def counting(book, size="a5"):
        calls.append(book.hash)
        return real(book, size)

    monkeypatch.setattr(story_pdf, "render_book_pdf", counting)
    first = story_pdf.pdf_for(story)
    assert story_pdf.pdf_for(story) == first
    assert len(calls) == 1
    cached = list((story_pdf.cache_dir() / "pdf").glob(f"{story.pk}-en-a5-*.pdf"))
    assert len(cached) == 1

    seq = services.make_book(story).chapters[0].passages[0].seq
    services.edit_narration(story, seq, "She wakes, and the floor is warm.", gm)
    second = story_pdf.pdf_for(story)
    assert len(calls) == 2 and calls[0] != calls[1]
    book = services.make_book(story)
    text = squeeze(pdf_text(second, {book.title, *(c.title for c in book.chapters)}))
    assert squeeze("She wakes, and the floor is warm.") in text
    assert squeeze(SAMPLES["en"]["scenes"][0]) not in text
    # The old file is gone: one PDF per story and size.
    assert [p.name for p in (story_pdf.cache_dir() / "pdf").glob(f"{story.pk}-en-a5-*.pdf")] == [
        f"{story.pk}-en-a5-{calls[1]}.pdf"
    ]


@pytest.mark.usefixtures("weasyprint_once")
def test_the_story_command_writes_the_pdf(gm, tmp_path):
    story = make_story(gm, "pt-br", at=PLAYED_AT)
    out = tmp_path / "book.pdf"
    call_command("story", "pdf", str(story.table_id), str(out), "--size", "a4")
    reader = PdfReader(out)
    assert reader.metadata.title == story.title
    # In the story's language, whatever its catalogue says ("Chapter 1" until it is translated).
    with translation.override("pt-br"):
        first = translation.gettext("Chapter %(number)s") % {"number": 1}
    assert [o.title for o in reader.outline][0] == first
