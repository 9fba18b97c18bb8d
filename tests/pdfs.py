"""The text of a PDF's pages, as pypdf reads it, read once a run for the same bytes.

pypdf's text extraction is pure Python and slow (a sixth of a second a PDF on average over the
modules that read them, measured), and the tests read the same PDFs many times: several tests
of one module read the same printed sheet, and the PostgreSQL run reads the very bytes the
SQLite run did (WeasyPrint's output is kept for the run, tests/memo.py and the
``weasyprint_once`` fixture). What the same bytes give is the
same text, so it is kept by the bytes (tests/memo.py), never by what they were made from.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from tests.memo import remember


def page_texts(pdf: bytes | Path) -> list[str]:
    """Each page's text, in order (``PdfReader(...).pages[i].extract_text()``)."""
    data = pdf.read_bytes() if isinstance(pdf, Path) else pdf

    def extract() -> tuple[bytes, ...]:
        from pypdf import PdfReader

        return tuple(page.extract_text().encode() for page in PdfReader(BytesIO(data)).pages)

    return [text.decode() for text in remember("pdf-text", data, extract)]


def all_text(pdf: bytes | Path, joiner: str = "") -> str:
    """Every page's text, joined."""
    return joiner.join(page_texts(pdf))
