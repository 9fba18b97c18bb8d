"""The book's language: ``story pdf --language``, the cache kept per language, and (once the
catalogues are in) a Japanese book with Japanese headings."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation
from django.utils.formats import date_format
from pypdf import PdfReader

from stories import pdf as story_pdf
from stories import services
from tests.pdfs import all_text

from .conftest import PLAYED_AT, make_story, squeeze

# Stories played at the same time print the same books: WeasyPrint makes each once
# (weasyprint_once, tests/stories/conftest.py); each test's printing still counts.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("weasyprint_once"),
    pytest.mark.xdist_group("books"),  # with the other modules that print the same books
]

# The headings every book prints: none may stay English in a translated book.
HEADINGS = ("Contents", "Who told what")


def run_pdf(story, out, *extra: str) -> str:
    stdout = StringIO()
    call_command("story", "pdf", str(story.table_id), str(out), *extra, stdout=stdout)
    return stdout.getvalue()


@pytest.mark.parametrize("given", ["pt-br", "PT-BR", "pt_BR", "Pt-Br"])
def test_the_language_is_a_django_code_in_any_case(gm, tmp_path, given, monkeypatch) -> None:
    story = make_story(gm, "en", at=PLAYED_AT)
    asked = []
    real = story_pdf.render_book_pdf

    def recording(book, size="a5"):
        asked.append(book.language)
        return real(book, size)

    monkeypatch.setattr(story_pdf, "render_book_pdf", recording)
    said = run_pdf(story, tmp_path / "book.pdf", "--language", given)
    assert asked == ["pt-br"]
    assert "pt-br" in said
    assert PdfReader(tmp_path / "book.pdf").metadata.title == story.title
    story.refresh_from_db()
    assert story.language == "en"  # printing in another language changes nothing stored


def test_an_unknown_language_is_an_error_that_lists_the_choices(gm, tmp_path) -> None:
    story = make_story(gm, "en", at=PLAYED_AT)
    with pytest.raises(CommandError) as raised:
        run_pdf(story, tmp_path / "book.pdf", "--language", "fr")
    assert "'fr'" in str(raised.value)
    assert "en, pt-br, ja" in str(raised.value)
    assert not (tmp_path / "book.pdf").exists()


def test_without_the_option_the_book_speaks_the_storys_language(gm, tmp_path) -> None:
    story = make_story(gm, "ja", at=PLAYED_AT)
    assert "(a5, ja)" in run_pdf(story, tmp_path / "book.pdf")


def test_books_are_cached_per_language(gm, monkeypatch) -> None:
    story = make_story(gm, "en", at=PLAYED_AT)
    calls = []
    real = story_pdf.render_book_pdf

    def counting(book, size="a5"):
        calls.append(book.language)
        return real(book, size)

    monkeypatch.setattr(story_pdf, "render_book_pdf", counting)
    english = story_pdf.pdf_for(story)
    japanese = story_pdf.pdf_for(story, language="ja")
    # Each from the cache now: printing one language never evicts the other.
    assert story_pdf.pdf_for(story) == english
    assert story_pdf.pdf_for(story, language="ja") == japanese
    assert calls == ["en", "ja"]
    folder = story_pdf.cache_dir() / "pdf"
    assert len(list(folder.glob(f"{story.pk}-en-a5-*.pdf"))) == 1
    assert len(list(folder.glob(f"{story.pk}-ja-a5-*.pdf"))) == 1
    assert services.make_book(story).hash != services.make_book(story, "ja").hash


@pytest.mark.catalogue
@pytest.mark.parametrize("language", ["ja", "pt-br"])
def test_a_translated_book_has_no_english_heading(gm, tmp_path, language) -> None:
    """Waits on the catalogues: each heading is the catalogue's translation, not the English."""
    story = make_story(gm, "en", at=PLAYED_AT)
    out = tmp_path / "book.pdf"
    run_pdf(story, out, "--language", language)
    # Case-blind: the stylesheet sets some headings in small capitals.
    text = squeeze(all_text(out)).casefold()
    for heading in HEADINGS:
        with translation.override(language):
            translated = translation.gettext(heading)
        assert translated != heading, f"{heading!r} is not translated into {language} yet"
        assert squeeze(translated).casefold() in text
    # The chapters' own titles (chapter, memory, the memory of the room, the ending) too.
    english = [c.title for c in services.make_book(story, "en").chapters]
    translated_titles = [c.title for c in services.make_book(story, language).chapters]
    assert len(english) == len(translated_titles)
    for before, after in zip(english, translated_titles, strict=True):
        assert before != after, f"chapter title {before!r} is still English in {language}"
        assert squeeze(after).casefold() in text
    with translation.override(language):
        told_by = translation.gettext("told by %(names)s")
    assert told_by != "told by %(names)s"


@pytest.mark.parametrize(("language", "mark"), [("ja", "年"), ("pt-br", " de ")])
def test_the_books_dates_are_written_the_books_way(gm, language, mark) -> None:
    """Django's own date formats for the language (they need no catalogue of ours)."""
    story = make_story(gm, "en", at=PLAYED_AT)
    book = services.make_book(story, language)
    assert book.finished_at is not None
    finished = timezone.localtime(book.finished_at)
    with translation.override(language):
        expected = date_format(finished, "DATE_FORMAT")
    with translation.override("en"):
        english = date_format(finished, "DATE_FORMAT")
    assert mark in expected and expected != english
    html = story_pdf.book_html(book)
    assert expected in html
    assert english not in html
    assert f'<html lang="{book.html_lang}">' in html
