"""The hostile narration of test_safety, through the EPUB and the single HTML file: the markup
is the players' words, shown as text; nothing it names is fetched, nothing runs."""

from __future__ import annotations

import re
import zipfile
from html.parser import HTMLParser
from io import BytesIO

from stories import formats, markup

from . import test_safety
from .conftest import squeeze
from .test_safety import hostname_text

# The fixtures of test_safety, for these tests too.
canary = test_safety.canary
hostile_story = test_safety.hostile_story
no_network = test_safety.no_network

HOSTILE_WORDS = ['<img src="file:///etc/hostname">', "<script>alert(1)</script>"]


class Tags(HTMLParser):
    """Every element and attribute a document really has (text is not looked at)."""

    def __init__(self, document: str) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(document)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, {k: v or "" for k, v in attrs}))


def _no_active_markup(document: str, allowed_src: tuple[str, ...], style_elements: int = 0) -> None:
    tags = Tags(document).found
    names = [tag for tag, _attrs in tags]
    for bad in ("script", "iframe", "object", "embed", "form", "base", "meta http-equiv=refresh"):
        assert bad not in names
    assert names.count("style") == style_elements
    for tag, attrs in tags:
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)  # no event handler
        assert "style" not in attrs, (tag, attrs)
        if tag == "img":
            assert attrs["src"].startswith(allowed_src), attrs
        if tag == "link":
            assert attrs.get("href") == "css/story.css", attrs
        if tag == "a" and "href" in attrs:
            assert not re.match(r"[a-z]+:", attrs["href"]), attrs  # only the book's own pages


def test_the_epub_shows_the_markup_as_text_and_carries_nothing_from_outside(
    hostile_story, canary, no_network
):
    data = formats.epub_for(hostile_story)
    archive = zipfile.ZipFile(BytesIO(data))
    names = archive.namelist()
    text = ""
    for name in names:
        if name.endswith((".xhtml", ".opf", ".css")):
            document = archive.read(name).decode()
            if name.endswith(".xhtml"):
                _no_active_markup(document, ("images/",))
                text += markup.parse(document).text()
            if name.endswith(".css"):
                assert not re.search(r"url\((?!\"\.\./fonts/Amnesia)", document)
    # The files are the book's own: the pages, its stylesheet, the fonts, the cover.
    assert all(
        n
        in (
            "mimetype",
            "META-INF/container.xml",
            "EPUB/package.opf",
            "EPUB/nav.xhtml",
            "EPUB/css/story.css",
        )
        or n.startswith(("EPUB/fonts/Amnesia", "EPUB/images/cover."))
        or (n.startswith("EPUB/") and n.endswith(".xhtml"))
        for n in names
    ), names
    for words in HOSTILE_WORDS:
        assert squeeze(words) in squeeze(text)
    if hostname_text():
        assert hostname_text() not in text.replace("/etc/hostname", "")
    opf = archive.read("EPUB/package.opf").decode()
    assert '&lt;img src="file:///etc/hostname"&gt;Title' in opf
    assert not no_network


def test_the_html_file_shows_the_markup_as_text_and_carries_nothing_from_outside(
    hostile_story, canary, no_network
):
    document = formats.single_html_for(hostile_story).decode()
    head, _, body = document.partition("</head>")
    _no_active_markup(document, ("data:image/",), style_elements=1)  # ours, and no other
    assert "Content-Security-Policy" in head and "default-src 'none'" in head
    assert not re.search(r"url\((?!\"data:)", head.split("<style>", 1)[1])
    for src in re.findall(r'<img[^>]+src="([^"]*)"', body):
        assert src.startswith("data:image/")
    text = markup.parse(body).text()
    for words in HOSTILE_WORDS:
        assert squeeze(words) in squeeze(text)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    if hostname_text():  # (in the text: a short name may well be in a picture's base64)
        assert hostname_text() not in text.replace("/etc/hostname", "")
    assert "<title>&lt;img src=&quot;file:///etc/hostname&quot;&gt;Title</title>" in head
    assert not no_network


def test_raw_markup_never_survives_the_filter():
    """Even markup no template lets through is taken out by the tree the formats are made from."""
    root = markup.parse(
        '<article class="book"><p onclick="x()" style="color:red">Hi</p><script>bad()</script>'
        '<style>p{}</style><iframe src="file:///etc/hostname"></iframe><img src="file:///x" '
        'onerror="y()"><a href="javascript:z()">link</a><svg><script>s()</script></svg>'
        "<object data=x></object><p>after</p></article>"
    )
    markup.rewrite_images(root, lambda src: None)
    markup.rewrite_links(root, lambda href: None)
    out = markup.to_xhtml(root)
    assert out == '<article class="book"><p>Hi</p><a>link</a><p>after</p></article>'
