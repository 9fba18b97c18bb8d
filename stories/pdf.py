"""The story as a PDF book, printed by WeasyPrint from the same template as the reading page.

WeasyPrint fetches what the page links to (stylesheets, fonts, images). It gets our own
fetcher, which serves the site's static files from disk, plus the few resources handed to it
for one book (the cover, the area cards' art, a custom deck's pictures read through the
storage API), under an address that cannot be reached (``https://book.invalid/``, a reserved
name). It opens no socket and follows no redirect: everything else (``file:``, ``data:``, other
hosts, paths outside the static files, any other upload) is refused.

PDFs are cached on disk (``stories.cache``), named after the story and the hash of everything
that goes into the book, so a changed story (or template) gets a new file and the old one is
removed.
"""

from __future__ import annotations

import logging
import time
from io import BytesIO
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils import translation
from PIL import Image

from games import images, registry, uploads
from stories.book_address import (  # noqa: F401 - the book's addresses, named from here too
    BASE_URL,
    BOOK_HOST,
    COVER_PATH,
    PICTURE_PATH,
    UPLOAD_PATH,
    RefusedURL,
)
from stories.cache import cache_dir, cached
from stories.covers import cover_image
from stories.models import Story
from stories.services import Book, make_book

if TYPE_CHECKING:
    from stories.fetcher import BookFetcher

logger = logging.getLogger(__name__)

PAGE_SIZES = {"a5": "A5", "a4": "A4", "letter": "letter"}
DEFAULT_SIZE = "a5"


# WeasyPrint is imported when a book is printed, not when the site starts: its import (Pango,
# its fonts, fontTools) is about a second of CPU, which every web and worker process, every
# command and every test process paid at start-up, most of them never printing anything.
# ``BookFetcher`` (``stories.fetcher``) subclasses WeasyPrint's fetcher, so it is read from
# there on first use (and may be replaced here, as the tests do to watch what it is asked).
def __getattr__(name: str) -> Any:
    if name == "BookFetcher":
        # when a book is printed: the fetcher's module imports WeasyPrint
        from stories.fetcher import BookFetcher

        globals()["BookFetcher"] = BookFetcher
        return BookFetcher
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _fetcher(extra: dict[str, tuple[bytes, str]] | None) -> BookFetcher:
    fetcher_class = globals().get("BookFetcher") or __getattr__("BookFetcher")
    return fetcher_class(extra)


# -- rendering ----------------------------------------------------------------------------
def book_html(book: Book, page_size: str = DEFAULT_SIZE) -> str:
    """The print template as a standalone document (what WeasyPrint reads)."""
    with translation.override(book.language):
        return render_to_string(
            "stories/book_pdf.html",
            {
                "book": book,
                "story": book.story,
                "page_size": PAGE_SIZES.get(page_size, PAGE_SIZES[DEFAULT_SIZE]),
                "for_pdf": True,
                "cover_src": COVER_PATH,
                "picture_src": PICTURE_PATH,
                "upload_src": UPLOAD_PATH,
            },
        )


def html_to_pdf(html: str, extra: dict[str, tuple[bytes, str]] | None = None) -> bytes:
    """Any HTML through our fetcher and fonts (the book, the benchmark and the tests)."""
    from weasyprint import HTML  # when a book is printed, not when the site starts (above)
    from weasyprint.text.fonts import FontConfiguration  # the same

    fetcher = _fetcher(extra)
    font_config = FontConfiguration()
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher)
    return document.write_pdf(font_config=font_config)


def render_book_pdf(book: Book, page_size: str = DEFAULT_SIZE) -> bytes:
    return html_to_pdf(book_html(book, page_size), extra=book_resources(book))


def lay_out_book(book: Book, page_size: str = DEFAULT_SIZE):
    """The book's pages laid out (a WeasyPrint document, not written yet): the first half of
    ``render_book_pdf``, for a worker that reports the two phases apart. Its ``write_pdf()``
    gives the same bytes as ``render_book_pdf``."""
    from weasyprint import HTML  # when a book is printed, not when the site starts (above)
    from weasyprint.text.fonts import FontConfiguration  # the same

    fetcher = _fetcher(book_resources(book))
    document = HTML(string=book_html(book, page_size), base_url=BASE_URL, url_fetcher=fetcher)
    return document.render(font_config=FontConfiguration())


def print_cover(data: bytes, mime: str) -> tuple[bytes, str]:
    """The cover as the PDF embeds it: a JPEG as it is (WeasyPrint copies a JPEG's bytes into
    the PDF), a generated PNG as a JPEG at full quality and full colour resolution. A PNG
    WeasyPrint decodes and compresses again, every book: for a generated cover (1240 x 1754)
    that was 90 ms of a 330 ms book, against 20 ms for this."""
    if mime == "image/jpeg":
        return data, mime
    with Image.open(BytesIO(data)) as image:
        rgb = image.convert("RGB")
    return images.encode(rgb, "JPEG", quality=95, subsampling=0), "image/jpeg"


def book_resources(book: Book) -> dict[str, tuple[bytes, str]]:
    """The files one book links to besides the static ones: its cover and pictures."""
    extra = {COVER_PATH: print_cover(*cover_image(book))}
    pictures = book.pictures
    if pictures is not None:
        for picture_id in book.images:
            extra[f"{PICTURE_PATH}{picture_id}"] = (pictures.picture(picture_id), "image/jpeg")
    # The table's own uploads (a custom deck's cards) come from storage, never over HTTP:
    # the book is printed in the server, whoever asked for it may read the story.
    for number in book.uploads:
        found = uploads.read(registry.picture(book.story.table, number, "large"))
        if found is not None:
            extra[f"{UPLOAD_PATH}{number}"] = found
    return extra


def pdf_for(
    story: Story,
    page_size: str = DEFAULT_SIZE,
    book: Book | None = None,
    language: str | None = None,
) -> bytes:
    """The story's PDF, from the cache when nothing in the book has changed; in the story's
    language, or in ``language`` (a book printed in another language is cached beside it:
    printing one never throws the other away)."""
    if page_size not in PAGE_SIZES:
        page_size = DEFAULT_SIZE
    book = book or make_book(story, language)
    key = f"{story.pk}-{book.language}-{page_size}"
    path = cache_dir() / "pdf" / f"{key}-{book.hash}.pdf"

    def render() -> bytes:
        started = time.perf_counter()
        data = render_book_pdf(book, page_size)
        logger.info("Story %s: %s PDF in %.2fs", story.pk, page_size, time.perf_counter() - started)
        return data

    return cached(path, render, stale=f"{key}-*.pdf")
