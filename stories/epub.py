"""The story as an EPUB 3 book, made from the same print template as the page and the PDF.

The print template (``stories/_book.html``, rendered by ``stories.pdf.book_html`` exactly as
for the PDF) is read into a tree (``stories.markup``) and cut along its own sections: the
cover, the title page, one content document per chapter (scenes and memories alike), the
colophon. The EPUB's navigation document lists every chapter; the package document carries
the title, the authors, the language, the tags, the dates, the game and the ruleset's designer.
The bundled fonts go in (SIL Open Font License: embedding is allowed, and the licence is the
book's last page), with the story stylesheet, the cover and the pictures the chapters show:
only the files the PDF's fetcher would be handed (``stories.assets``), nothing from outside.

The zip is written by hand with :mod:`zipfile` rather than with ebooklib: ebooklib needs lxml,
which nothing else here uses, and re-parses and rewrites the content documents, where the book
already has exact XHTML; the container is small (a ``mimetype`` stored first, a
``container.xml``, the package and nav documents) and fixed by the EPUB 3 specification.
Entries get a fixed date, so the same story gives the same bytes.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from datetime import UTC
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from amnesia_site.accounts.models import display_name
from stories import markup
from stories.assets import PLAIN_IMAGES, book_files
from stories.epub_css import epub_stylesheet
from stories.fonts import EMOJI_FAMILY, FONTS, JAPANESE_FAMILY, BundledFont
from stories.pdf import COVER_PATH, book_html
from stories.services import Book

ZIP_DATE = (2020, 1, 1, 0, 0, 0)
STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "story.css"
LICENCE = Path(settings.BASE_DIR) / "static" / "fonts" / "OFL.txt"
CSS_NAME = "css/story.css"
# The characters the Japanese font is loaded for (story.css's unicode-range for it).
JAPANESE = re.compile(
    "[\u3000-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)
FONT_FACE = re.compile(r"@font-face\s*{[^}]*}")
WEB_FONT_SOURCE = re.compile(r'url\("[^"]+\.woff2"\)\s*format\("woff2"\),\s*')

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"""


@dataclass
class Document:
    name: str  # the file inside EPUB/
    title: str
    body: str  # XHTML
    properties: str = ""


def designer_name(book: Book) -> str:
    """The designer the table's ruleset credits (its owner, else whoever wrote the version)."""
    ruleset = book.story.table.ruleset
    if ruleset is None:
        return ""
    person = ruleset.owner or ruleset.created_by
    return display_name(person) if person is not None else ""


def authors(book: Book) -> list[str]:
    """The cover's names: the players who told something, then the game master by the name
    they are credited by."""
    told = [c.name for c in book.credits if c.chapters or c.words]
    master = book.game_master
    return told + ([master] if master not in told else [])


def _page(lang: str, title: str, body: str, *, nav: bool = False) -> str:
    epub_ns = ' xmlns:epub="http://www.idpf.org/2007/ops"'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
        f'<html xmlns="http://www.w3.org/1999/xhtml"{epub_ns} lang="{lang}" xml:lang="{lang}">\n'
        f'<head>\n<meta charset="UTF-8"/>\n<title>{escape(title)}</title>\n'
        f'<link rel="stylesheet" type="text/css" href="{CSS_NAME}"/>\n</head>\n'
        f'<body class="book-epub{" book-epub--nav" if nav else ""}">\n{body}\n</body>\n</html>\n'
    )


def _article(lang: str, inner: str) -> str:
    return f'<article class="book" lang="{lang}" xml:lang="{lang}">{inner}</article>'


def _sections(root: markup.Element) -> tuple[dict[str, markup.Element], list[markup.Element]]:
    """The template's front and back matter by name, and its chapters in order."""
    article = root.find(lambda e: e.tag == "article" and "book" in e.classes())
    if article is None:
        raise ValueError("The print template has no book in it.")
    parts: dict[str, markup.Element] = {}
    chapters: list[markup.Element] = []
    for child in article.children:
        if not isinstance(child, markup.Element):
            continue
        classes = child.classes()
        for name in ("book-cover", "book-front", "book-toc", "book-colophon"):
            if name in classes:
                parts[name] = child
        if "book-body" in classes:
            chapters = [
                c for c in child.children if isinstance(c, markup.Element) and c.tag == "section"
            ]
    return parts, chapters


def _stylesheet(japanese: bool) -> str:
    """story.css as readers take it (``stories.epub_css``), with only the fonts the book
    carries (a missing file is an EPUB error)."""
    left_out = {f.file for f in FONTS if f not in book_fonts(japanese)}
    # The pages' WOFF2 cut is for browsers; the book carries the OpenType files only.
    css = WEB_FONT_SOURCE.sub("", STYLESHEET.read_text())
    return epub_stylesheet(css, lambda block: not any(name in block for name in left_out))


def book_fonts(japanese: bool) -> list[BundledFont]:
    """The bundled fonts an EPUB carries: the Japanese cut for a book with Japanese in it;
    never the emoji cut, which only the PDF's print rules name (a reader draws emoji with
    the device's own colour font)."""
    return [
        f for f in FONTS if f.family != EMOJI_FAMILY and (japanese or f.family != JAPANESE_FAMILY)
    ]


def _licence_page(lang: str) -> Document:
    text = LICENCE.read_text() if LICENCE.exists() else ""
    paragraphs = "".join(
        f"<p>{escape(' '.join(block.split()))}</p>" for block in text.split("\n\n") if block.strip()
    )
    title = _("The fonts’ licence")
    body = _article(
        lang,
        f'<section class="book-licence" id="licence"><h2 class="colophon-title">{escape(title)}'
        f"</h2>{paragraphs}</section>",
    )
    return Document("licence.xhtml", title, body)


def _nav(book: Book, lang: str, chapters: list[tuple[str, str, markup.Element]]) -> str:
    entries = "".join(
        f'<li><a href="{anchor}.xhtml#{anchor}">{escape(title)}</a></li>'
        for anchor, title, _section in chapters
    )
    colophon = _("Who told what")
    entries += f'<li><a href="colophon.xhtml#colophon">{escape(colophon)}</a></li>'
    first = f"{chapters[0][0]}.xhtml" if chapters else "colophon.xhtml"
    contents = _("Contents")
    body = _article(
        lang,
        f'<nav class="book-toc" epub:type="toc" id="toc" aria-labelledby="toc-title">'
        f'<h2 class="toc-title" id="toc-title">{escape(contents)}</h2><ol>{entries}</ol></nav>'
        '<nav epub:type="landmarks" id="landmarks" hidden="hidden"><ol>'
        f'<li><a epub:type="cover" href="cover.xhtml">{escape(_("Cover"))}</a></li>'
        f'<li><a epub:type="toc" href="nav.xhtml">{escape(contents)}</a></li>'
        f'<li><a epub:type="bodymatter" href="{first}">{escape(book.title)}</a></li>'
        "</ol></nav>",
    )
    return _page(lang, contents, body, nav=True)


def _package(book: Book, lang: str, manifest: list[tuple[str, str, str, str]], spine: list[str]):
    story = book.story
    table = story.table
    modified = timezone.localtime(story.updated_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    date = story.published_at or table.finished_at or table.started_at or story.created_at
    meta = [
        f'<dc:identifier id="book-id">urn:uuid:{table.uuid}</dc:identifier>',
        f'<dc:title id="title">{escape(book.title)}</dc:title>',
        '<meta refines="#title" property="title-type">main</meta>',
    ]
    if book.subtitle:
        meta += [
            f'<dc:title id="subtitle">{escape(book.subtitle)}</dc:title>',
            '<meta refines="#subtitle" property="title-type">subtitle</meta>',
        ]
    for i, name in enumerate(authors(book), 1):
        meta += [
            f'<dc:creator id="author-{i}">{escape(name)}</dc:creator>',
            f'<meta refines="#author-{i}" property="role" scheme="marc:relators">aut</meta>',
        ]
    if designer := designer_name(book):
        meta += [
            f'<dc:contributor id="designer">{escape(designer)}</dc:contributor>',
            '<meta refines="#designer" property="role" scheme="marc:relators">dsr</meta>',
        ]
    meta.append(f"<dc:language>{escape(lang)}</dc:language>")
    for keyword in book.keywords:
        meta.append(f"<dc:subject>{escape(keyword)}</dc:subject>")
    if book.subtitle or book.blurb:
        meta.append(f"<dc:description>{escape(book.blurb or book.subtitle)}</dc:description>")
    meta += [
        f'<meta property="belongs-to-collection" id="game">{escape(book.game_title)}</meta>',
        f"<dc:date>{timezone.localtime(date, UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}</dc:date>",
        f'<meta property="dcterms:modified">{modified}</meta>',
        "<dc:publisher>Amnesia Table</dc:publisher>",
        '<meta name="cover" content="cover-image"/>',
    ]
    items = "\n    ".join(
        f'<item id="{item_id}" href="{href}" media-type="{mime}"'
        + (f' properties="{props}"' if props else "")
        + "/>"
        for item_id, href, mime, props in manifest
    )
    itemrefs = "\n    ".join(f'<itemref idref="{ref}"/>' for ref in spine)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id"'
        f" xml:lang={quoteattr(lang)}>\n"
        '  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n    '
        + "\n    ".join(meta)
        + f"\n  </metadata>\n  <manifest>\n    {items}\n  </manifest>\n"
        f"  <spine>\n    {itemrefs}\n  </spine>\n</package>\n"
    )


def render_epub(book: Book) -> bytes:
    """The EPUB file of a book (see the module)."""
    with translation.override(book.language):
        return _render(book)


def _render(book: Book) -> bytes:
    lang = book.html_lang
    files = book_files(book)
    html = book_html(book)
    root = markup.parse(html)
    parts, chapter_sections = _sections(root)

    # The pictures, under names of their own inside the book.
    images: dict[str, tuple[str, bytes, str]] = {}  # template path -> (file, bytes, type)
    for number, (path, (data, mime)) in enumerate(files.items()):
        stem = "cover" if path == COVER_PATH else f"picture-{number}"
        images[path] = (f"images/{stem}.{PLAIN_IMAGES[mime]}", data, mime)
    markup.rewrite_images(root, lambda src: images[src][0] if src in images else None)

    cover = parts.get("book-cover")
    front = parts.get("book-front")
    colophon = parts.get("book-colophon")
    chapters = [
        (section.attrs.get("id") or chapter.anchor, chapter.title, section)
        for section, chapter in zip(chapter_sections, book.chapters, strict=False)
    ]
    # Links between the parts (a passage's anchor, the colophon) point into the file that holds
    # the id; every other address is dropped.
    where: dict[str, str] = {}
    for anchor, _title, section in chapters:
        for element in section.iter():
            if "id" in element.attrs:
                where[element.attrs["id"]] = f"{anchor}.xhtml"
    if colophon is not None:
        where["colophon"] = "colophon.xhtml"

    def target(href: str) -> str | None:
        return f"{where[href[1:]]}{href}" if href.startswith("#") and href[1:] in where else None

    documents: list[Document] = []
    for name, title, section in (
        ("cover.xhtml", _("Cover"), cover),
        ("front.xhtml", book.title, front),
        *((f"{anchor}.xhtml", title, section) for anchor, title, section in chapters),
        ("colophon.xhtml", _("Who told what"), colophon),
    ):
        if section is not None:
            markup.rewrite_links(section, target)
            documents.append(Document(name, title, _article(lang, markup.to_xhtml(section))))
    documents.append(_licence_page(lang))

    japanese = bool(JAPANESE.search(root.text())) or book.language == "ja"
    fonts = book_fonts(japanese)

    manifest: list[tuple[str, str, str, str]] = [
        ("nav", "nav.xhtml", "application/xhtml+xml", "nav"),
        ("css", CSS_NAME, "text/css", ""),
    ]
    for i, document in enumerate(documents):
        manifest.append((f"doc-{i}", document.name, "application/xhtml+xml", document.properties))
    for i, font in enumerate(fonts):
        manifest.append((f"font-{i}", f"fonts/{font.file}", "font/otf", ""))
    for i, (path, (name, _data, mime)) in enumerate(images.items()):
        is_cover = path == COVER_PATH
        manifest.append(
            (
                "cover-image" if is_cover else f"image-{i}",
                name,
                mime,
                "cover-image" if is_cover else "",
            )
        )
    # The reading order: the cover, the title page, the contents, the chapters, the colophon.
    ids = {d.name: f"doc-{i}" for i, d in enumerate(documents)}
    spine = [ids[d.name] for d in documents[:2] if d.name in ("cover.xhtml", "front.xhtml")]
    spine.append("nav")
    spine += [ids[d.name] for d in documents if d.name not in ("cover.xhtml", "front.xhtml")]

    out = BytesIO()
    with zipfile.ZipFile(out, "w") as archive:

        def put(name: str, data: bytes | str, compress: bool = True) -> None:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
            archive.writestr(info, data.encode() if isinstance(data, str) else data)

        # The EPUB's signature: first, uncompressed, with no extra field.
        put("mimetype", "application/epub+zip", compress=False)
        put("META-INF/container.xml", CONTAINER)
        put("EPUB/package.opf", _package(book, lang, manifest, spine))
        put("EPUB/nav.xhtml", _nav(book, lang, chapters))
        put(f"EPUB/{CSS_NAME}", _stylesheet(japanese))
        for document in documents:
            put(f"EPUB/{document.name}", _page(lang, document.title, document.body))
        for font in fonts:
            put(f"EPUB/fonts/{font.file}", font.path.read_bytes())
        for name, data, _mime in images.values():
            put(f"EPUB/{name}", data, compress=False)
    return out.getvalue()
