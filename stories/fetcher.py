"""The book's URL fetcher for WeasyPrint (see ``stories.pdf``): it serves the book's own files
from disk and refuses everything else. Imported when a book is printed (it subclasses
WeasyPrint's fetcher, and WeasyPrint is not imported when the site starts)."""

from __future__ import annotations

import logging
import mimetypes
import ssl
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.utils._os import safe_join
from weasyprint.urls import URLFetcher, URLFetcherResponse

from stories.book_address import BOOK_HOST, RefusedURL

logger = logging.getLogger("stories.pdf")


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
    path = Path(found)
    opentype = path.with_suffix(".otf")
    if path.suffix == ".woff2" and opentype.is_file():
        # WeasyPrint unpacks a WOFF2 font into OpenType each time it reads one (fontTools:
        # about 50 ms for the Japanese cut, in every book, whatever its language): it gets
        # the OpenType file the WOFF2 was packed from (stories/fonts.py), the same font.
        path = opentype
    mime = mimetypes.guess_type(str(path))[0] or "application/octet-stream"
    if path.suffix == ".otf":
        mime = "font/otf"
    return path.read_bytes(), mime
