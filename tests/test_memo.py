"""tests/memo.py, which keeps pictures for the rest of a test run: what it keeps is read back
whole, made once across processes, never kept when making it fails; and the functions whose
results the run keeps (tests/plugins/pictures.py's pictures_made_once_per_run) make the same bytes
every time, which is what makes keeping them safe."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from games.amnesia_stories import area_store, carry, decks
from stories import covers
from tests import memo
from tests.stories.conftest import weasyprint_once  # noqa: F401 - a fixture


@pytest.fixture
def shared(monkeypatch, tmp_path) -> Path:
    monkeypatch.setenv("TEST_MEMO_DIR", str(tmp_path))
    monkeypatch.setattr(memo, "_KEPT", {})
    return tmp_path


def test_made_once_then_read_by_another_process(shared, monkeypatch):
    calls = []

    def make() -> tuple[bytes, ...]:
        calls.append(1)
        return (b"large", b"thumb")

    assert memo.remember("kind", "key", make) == (b"large", b"thumb")
    monkeypatch.setattr(memo, "_KEPT", {})  # another process: only the folder is shared
    assert memo.remember("kind", "key", make) == (b"large", b"thumb")
    assert memo.remember("kind", "other key", make) == (b"large", b"thumb")
    assert len(calls) == 2
    assert len(list(shared.iterdir())) == 2


def test_a_failure_is_not_kept_and_a_torn_file_is_made_again(shared, monkeypatch):
    def fail() -> tuple[bytes, ...]:
        raise ValueError("refused")

    with pytest.raises(ValueError):
        memo.remember("kind", "key", fail)
    assert list(shared.iterdir()) == []
    memo.remember("kind", "key", lambda: (b"whole",))
    (path,) = shared.iterdir()
    path.write_bytes(path.read_bytes()[:5])
    monkeypatch.setattr(memo, "_KEPT", {})
    assert memo.remember("kind", "key", lambda: (b"again",)) == (b"again",)


def test_without_a_folder_the_process_alone_keeps(monkeypatch):
    monkeypatch.delenv("TEST_MEMO_DIR", raising=False)
    monkeypatch.setattr(memo, "_KEPT", {})
    assert memo.folder() is None
    assert memo.remember("kind", "key", lambda: (b"one",)) == (b"one",)
    assert memo.remember("kind", "key", lambda: (b"two",)) == (b"one",)


def test_the_kept_pictures_are_the_same_bytes_every_time():
    assert decks.clean_image is carry.clean_image  # both callers read the kept pictures
    real_clean = decks.clean_image.real
    out = io.BytesIO()
    Image.new("RGB", (90, 60), (20, 80, 200)).save(out, "PNG")
    assert real_clean(out.getvalue(), "a.png") == real_clean(out.getvalue(), "a.png")
    assert decks.clean_image(out.getvalue(), "a.png") == real_clean(out.getvalue(), "a.png")

    real_draw, real_print = area_store.draw.real, area_store.print_picture.real
    made = []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as scratch:
            paths = area_store.card_paths("A03", Path(scratch))
            real_draw("A03", paths)
            printed = real_print("A03", Path(scratch))
            made.append((*(paths[kind].read_bytes() for kind in area_store.KINDS), printed))
    assert made[0] == made[1]
    with tempfile.TemporaryDirectory() as scratch:
        paths = area_store.card_paths("A03", Path(scratch))
        area_store.draw("A03", paths)
        kept = (*(paths[kind].read_bytes() for kind in area_store.KINDS),)
        assert kept + (area_store.print_picture("A03", Path(scratch)),) == made[0]


def test_a_cover_is_encoded_alike_and_kept_by_its_pixels(shared):
    """The same pixels make the same PNG; other pixels (another size, another palette) are not
    read as another cover's; the kept PNG decodes to the picture it was made from."""
    real_png = covers._png.real
    picture = Image.linear_gradient("L").convert("RGB").resize((120, 170))
    assert real_png(picture) == real_png(picture.copy())
    kept = covers._png(picture)
    assert kept == real_png(picture)
    assert Image.open(io.BytesIO(kept)).tobytes() == picture.tobytes()
    other = picture.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    assert Image.open(io.BytesIO(covers._png(other))).tobytes() == other.tobytes()
    # One colour at two shapes: the same bytes of pixels, two pictures.
    tall, wide = Image.new("RGB", (120, 170), (9, 8, 7)), Image.new("RGB", (170, 120), (9, 8, 7))
    assert tall.tobytes() == wide.tobytes()
    assert Image.open(io.BytesIO(covers._png(tall))).size == (120, 170)
    assert Image.open(io.BytesIO(covers._png(wide))).size == (170, 120)
    # The same indices under another palette: another picture.
    warm, cold = (Image.new("P", (8, 8), 1) for _ in range(2))
    warm.putpalette([0, 0, 0, 250, 120, 40])
    cold.putpalette([0, 0, 0, 40, 120, 250])
    assert Image.open(io.BytesIO(covers._png(cold))).convert("RGB").getpixel((0, 0)) == (
        40,
        120,
        250,
    )
    assert Image.open(io.BytesIO(covers._png(warm))).convert("RGB").getpixel((0, 0)) == (
        250,
        120,
        40,
    )
    assert len(list(shared.iterdir())) == 6


@pytest.mark.django_db
def test_a_kept_cover_is_the_cover_its_key_names_and_printed_alike(shared, monkeypatch, gm):
    """A generated cover is kept by the key the site's cache names it by: the same key draws
    the same PNG, another key is drawn anew (not read as the kept one); the cover a book
    embeds is kept by the PNG's bytes and is the same JPEG."""
    from stories import pdf as story_pdf
    from stories import services
    from tests.stories.conftest import make_story

    book = services.make_book(make_story(gm, "en"))
    real_drawn, real_print = covers.drawn_png.real, story_pdf.print_cover.real
    png = real_drawn(book)
    assert png == real_drawn(book)
    assert covers.drawn_png(book) == png
    monkeypatch.setattr(memo, "_KEPT", {})  # another process: read from the folder
    assert covers.drawn_png(book) == png
    book.title = "Another title entirely"
    retitled = covers.drawn_png(book)
    assert retitled != png and retitled == real_drawn(book)
    printed = real_print(png, "image/png")
    assert printed == real_print(png, "image/png") and printed[1] == "image/jpeg"
    assert story_pdf.print_cover(png, "image/png") == printed
    monkeypatch.setattr(memo, "_KEPT", {})
    assert story_pdf.print_cover(png, "image/png") == printed
    kinds = sorted(path.name.rsplit("-", 1)[0] for path in shared.iterdir())
    assert kinds == ["cover", "cover", "cover-png", "cover-png", "print-cover"]


def test_the_text_of_a_pdf_is_pypdfs_and_kept_by_its_bytes(shared, monkeypatch):
    from pypdf import PdfReader

    from stories import pdf as story_pdf
    from tests import pdfs

    html = "<p>First page.</p><p style='break-before: page'>Second page.</p>"
    data = story_pdf.html_to_pdf(html)
    direct = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert [text.strip() for text in direct] == ["First page.", "Second page."]
    assert pdfs.page_texts(data) == direct
    monkeypatch.setattr(memo, "_KEPT", {})  # another process: read from the folder
    assert pdfs.page_texts(data) == direct
    assert pdfs.all_text(data, "|") == "|".join(direct)
    other = story_pdf.html_to_pdf("<p>Only page.</p>")
    assert [text.strip() for text in pdfs.page_texts(other)] == ["Only page."]


@pytest.mark.usefixtures("weasyprint_once")
def test_a_kept_pdf_says_again_what_printing_it_said(shared, caplog):
    """weasyprint_once (tests/stories/conftest.py) hands out a kept PDF with the warnings
    WeasyPrint logged printing it, logged again: a test that listens hears them whether it
    printed first or not (the crawl and the print-and-play sheets print the same ones)."""
    import logging

    from stories.pdf import html_to_pdf

    def warned() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")]

    misprint = '<p style="margin: 5,0mm">Cut here.</p>'
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        first = html_to_pdf(misprint)
        said = warned()
        assert any("5,0mm" in w for w in said) and len(memo._KEPT) == 1, said
        caplog.clear()
        again = html_to_pdf(misprint)  # kept: not printed again
        assert again == first and len(memo._KEPT) == 1
        assert warned() == said
        caplog.clear()
        html_to_pdf("<p>Cut here.</p>")
        html_to_pdf("<p>Cut here.</p>")
        assert warned() == [] and len(memo._KEPT) == 2
