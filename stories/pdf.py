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
import mimetypes
import ssl
import time
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.utils import translation
from django.utils._os import safe_join
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from games import registry, uploads
from stories.cache import cache_dir, cached
from stories.covers import cover_image
from stories.models import Story
from stories.services import Book, make_book

logger = logging.getLogger(__name__)

BOOK_HOST = "book.invalid"
BASE_URL = f"https://{BOOK_HOST}/"
COVER_PATH = "/book/cover"
# A game's illustrations (its kit's ``pictures``): ``/book/picture/<id>``, one entry per
# picture the book shows, handed to the fetcher like the cover (nothing else is served there).
# The table's own uploads the book shows (a custom deck's cards): ``/book/upload/<n>``, read
# from storage for this book, never by their path under /media/.
UPLOAD_PATH = "/book/upload/"
PICTURE_PATH = "/book/picture/"

PAGE_SIZES = {"a5": "A5", "a4": "A4", "letter": "letter"}
DEFAULT_SIZE = "a5"


class RefusedURL(ValueError):
    pass


# WeasyPrint's fetcher builds an HTTPS opener, whose default SSL context reads the system's
# certificates: a tenth of a second of every book. This fetcher never opens a connection
# (``fetch`` below answers or refuses every URL), so its opener gets a context of its own that
# trusts no certificate at all, made once.
NO_CERTIFICATES = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class BookFetcher(URLFetcher):
    """Serves the book's own files from disk and refuses everything else (see the module)."""

    def __init__(self, extra: dict[str, tuple[bytes, str]] | None = None) -> None:
        super().__init__(
            allowed_protocols=("https",),
            allow_redirects=False,
            timeout=1,
            ssl_context=NO_CERTIFICATES,
        )
        self.extra = dict(extra or {})
        self.served: list[str] = []
        self.refused: list[str] = []

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        try:
            body, mime = self._resolve(url)
        except RefusedURL:
            self.refused.append(url)
            logger.info("The book's URL fetcher refused %s", url[:200])
            raise
        self.served.append(url)
        return URLFetcherResponse(url, body=body, headers={"Content-Type": mime})

    def _resolve(self, url: str) -> tuple[bytes, str]:
        parts = urlsplit(url)
        if parts.scheme != "https" or parts.netloc != BOOK_HOST or parts.username:
            raise RefusedURL(f"Not one of the book's own files: {url[:200]}")
        path = unquote(parts.path)
        if "\\" in path or "\x00" in path or any(seg == ".." for seg in path.split("/")):
            raise RefusedURL(f"Not a plain path: {url[:200]}")
        if path in self.extra:
            return self.extra[path]
        static_prefix = urljoin("/", settings.STATIC_URL)
        if path.startswith(static_prefix):
            found = finders.find(path.removeprefix(static_prefix))
            if not found and settings.STATIC_ROOT:
                found = _inside(settings.STATIC_ROOT, path.removeprefix(static_prefix))
            return _read(found, url)
        # Uploads are not read by path: the book gets the ones its reader may see (``extra``),
        # so no upload of another story or deck can be printed into it.
        raise RefusedURL(f"Neither a static file nor one of the book's own: {url[:200]}")


def _inside(root, relative: str) -> str | None:
    try:
        return safe_join(str(root), relative)
    except (SuspiciousFileOperation, ValueError):
        return None


def _read(found, url: str) -> tuple[bytes, str]:
    if isinstance(found, list):
        found = found[0] if found else None
    if not found or not Path(found).is_file():
        raise RefusedURL(f"No such file: {url[:200]}")
    mime = mimetypes.guess_type(str(found))[0] or "application/octet-stream"
    if str(found).endswith(".otf"):
        mime = "font/otf"
    return Path(found).read_bytes(), mime


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
    fetcher = BookFetcher(extra)
    font_config = FontConfiguration()
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher)
    return document.write_pdf(font_config=font_config)


def render_book_pdf(book: Book, page_size: str = DEFAULT_SIZE) -> bytes:
    return html_to_pdf(book_html(book, page_size), extra=book_resources(book))


def lay_out_book(book: Book, page_size: str = DEFAULT_SIZE):
    """The book's pages laid out (a WeasyPrint document, not written yet): the first half of
    ``render_book_pdf``, for a worker that reports the two phases apart. Its ``write_pdf()``
    gives the same bytes as ``render_book_pdf``."""
    fetcher = BookFetcher(book_resources(book))
    document = HTML(string=book_html(book, page_size), base_url=BASE_URL, url_fetcher=fetcher)
    return document.render(font_config=FontConfiguration())


def book_resources(book: Book) -> dict[str, tuple[bytes, str]]:
    """The files one book links to besides the static ones: its cover and pictures."""
    extra = {COVER_PATH: cover_image(book)}
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
