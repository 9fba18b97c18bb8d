"""The story as one HTML file that opens in any browser with no network.

The same print template as the page, the PDF and the EPUB (``stories.pdf.book_html``), read
through the filter of ``stories.markup``; the story stylesheet, the bundled fonts it needs and
every picture are inlined as ``data:`` URIs. The file carries its own Content Security Policy
(nothing may be fetched but ``data:``, no script may run), so even opened from a disk it can
reach nothing outside itself. It is a download (an attachment), not a page of the site, which
is why it may carry an inline stylesheet.
"""

from __future__ import annotations

import base64
import re
from html import escape
from io import BytesIO

from django.utils import translation

from stories import markup
from stories.assets import book_files
from stories.epub import FONT_FACE, JAPANESE, STYLESHEET, authors
from stories.fonts import EMOJI_FAMILY, FONTS, JAPANESE_FAMILY
from stories.pdf import book_html
from stories.services import Book

FILE_POLICY = (
    "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'"
)
FONT_URL = re.compile(r'url\("\.\./fonts/([A-Za-z0-9_.-]+)"\)')
FONT_SRC = re.compile(r"src:[^;]*;")

# The page around the book: a readable column, and the reader's light or dark preference.
PAGE_CSS = """
body.book-single { margin: 0; padding: 1.5rem 1rem 4rem; background: #fbf8f3; }
body.book-single .book { max-width: 36rem; margin: 0 auto; font-size: 1.1rem; }
body.book-single .book-cover img { max-width: 24rem; margin: 0 auto; }
@media (prefers-color-scheme: dark) {
  body.book-single { background: #1b1714; }
  body.book-single .book { --book-ink: #eee5da; --book-muted: #c2b4a4; --book-accent: #f0a55a;
    --book-rule: #4a4038; --book-box: #28221d; }
}
"""


def data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def japanese_subset(path, text: str) -> bytes:
    """The Japanese face cut to the characters ``text`` uses (an OpenType font): a story's
    few hundred kanji and kana instead of the whole 2.5 MB font."""
    # when a file is written: the site starts without fontTools (stories.fonts says why)
    from fontTools import subset
    from fontTools.ttLib import TTFont  # the same

    # The bounds (head, hhea, vhea) kept as the whole font's, as pyftsubset keeps them: a
    # box that holds every glyph still holds the cut's. Recalculated, they drew every kept
    # glyph's outline twice over: half of the cut's CPU (0.5 s of 1.0 s for 439 characters),
    # and in the crawl's deep stacks 4.7 s of its three Japanese books' 6.5 s (measured).
    font = TTFont(path, recalcBBoxes=False)
    options = subset.Options()
    options.layout_features = ["*"]  # vertical forms, proportional kana: what the page asks
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted({ord(c) for c in text if not c.isspace()}))
    subsetter.subset(font)
    out = BytesIO()
    font.save(out)
    return out.getvalue()


def _stylesheet(japanese: bool, text: str = "") -> str:
    css = STYLESHEET.read_text()
    by_file = {f.file: f for f in FONTS}

    def face(match: re.Match) -> str:
        block = match.group(0)
        # The first of its sources this project bundles (a face may list a WOFF2 first).
        font = next((by_file[f] for f in FONT_URL.findall(block) if f in by_file), None)
        if font is None or (font.family == JAPANESE_FAMILY and not japanese):
            return ""
        if font.family == EMOJI_FAMILY:  # the PDF's alone: a browser has its own emoji
            return ""
        if font.family == JAPANESE_FAMILY:
            uri = data_uri(japanese_subset(font.path, text), "font/otf")
        else:
            uri = data_uri(font.path.read_bytes(), "font/otf")
        return FONT_SRC.sub(f'src: url("{uri}") format("opentype");', block)

    # Any other url() of the stylesheet would be a fetch: none is left.
    css = FONT_FACE.sub(face, css)
    return re.sub(r"url\((?!\"data:)[^)]*\)", "none", css) + PAGE_CSS


def render_single_html(book: Book) -> bytes:
    """The single HTML file of a book (see the module)."""
    with translation.override(book.language):
        files = book_files(book)
        root = markup.parse(book_html(book))
        article = root.find(lambda e: e.tag == "article" and "book" in e.classes())
        if article is None:
            raise ValueError("The print template has no book in it.")
        uris = {path: data_uri(data, mime) for path, (data, mime) in files.items()}
        markup.rewrite_images(article, uris.get)
        ids = {e.attrs["id"] for e in article.iter() if "id" in e.attrs}
        markup.rewrite_links(
            article, lambda href: href if href.startswith("#") and href[1:] in ids else None
        )
        book_text = article.text() + book.title + " ".join(authors(book))
        japanese = bool(JAPANESE.search(book_text)) or book.language == "ja"
        meta = "".join(f'<meta name="author" content="{escape(name)}">\n' for name in authors(book))
        keywords = escape(", ".join(book.keywords))
        page = (
            f'<!doctype html>\n<html lang="{book.html_lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{FILE_POLICY}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(book.title)}</title>\n{meta}"
            f'<meta name="keywords" content="{keywords}">\n'
            '<meta name="generator" content="Amnesia Table">\n'
            f"<style>{_stylesheet(japanese, book_text)}</style>\n</head>\n"
            f'<body class="book-single">\n{markup.to_html(article)}\n</body>\n</html>\n'
        )
    return page.encode()
