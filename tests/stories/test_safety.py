"""Narration is text, never markup; WeasyPrint fetches nothing but the book's own files."""

from __future__ import annotations

import socket
import urllib.request
from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from stories import pdf as story_pdf
from stories import services
from stories.models import Story
from stories.samples import Scene, amnesia_script

from .conftest import make_story, pdf_text, squeeze

FONTS = Path(__file__).resolve().parents[2] / "static" / "fonts"

HOSTNAME = Path("/etc/hostname")


@pytest.fixture
def canary(tmp_path) -> dict[str, str]:
    """Files outside the site that would show up in the book if anything fetched them."""
    css = tmp_path / "canary.css"
    css.write_text('body::before { content: "CANARYCSS"; }')
    png = tmp_path / "canary.png"
    Image.new("RGB", (333, 111), "red").save(png)
    secret = tmp_path / "secret.txt"
    secret.write_text("CANARYSECRET")
    return {"css": css.as_uri(), "png": png.as_uri(), "secret": secret.as_uri()}


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a socket or a URL fails the test."""
    attempts: list[object] = []

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setattr(urllib.request.OpenerDirector, "open", refuse)
    return attempts


@pytest.fixture
def fetchers(monkeypatch) -> list[story_pdf.BookFetcher]:
    """Every BookFetcher made while rendering, to see what it was asked for."""
    made: list[story_pdf.BookFetcher] = []
    original = story_pdf.BookFetcher.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(story_pdf.BookFetcher, "__init__", spy)
    return made


def hostile(canary: dict[str, str]) -> list[str]:
    return [
        f'<img src="file:///etc/hostname"> <img src="{canary["png"]}">',
        '<link rel="stylesheet" href="http://example.com/x.css">'
        f'<link rel="stylesheet" href="{canary["css"]}">',
        f"<style>p {{ background: url(file:///etc/hostname) }} @import url({canary['secret']});"
        '</style> <p style="background:url(file:///etc/hostname)">styled</p>',
    ]


def hostname_text() -> str:
    return HOSTNAME.read_text().strip() if HOSTNAME.exists() else ""


# -- the fetcher itself -------------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/hostname",
        "file:///etc/passwd",
        "http://example.com/x.css",
        "https://example.com/static/css/story.css",
        "https://book.invalid.example.com/static/css/story.css",
        "https://user@book.invalid/static/css/story.css",
        "http://book.invalid/static/css/story.css",
        "data:text/css,body{color:red}",
        "ftp://book.invalid/static/css/story.css",
        "https://book.invalid/static/../../../../etc/hostname",
        "https://book.invalid/static/%2e%2e/%2e%2e/%2e%2e/etc/hostname",
        "https://book.invalid/media/../../etc/hostname",
        "https://book.invalid/media/..%2f..%2fetc/hostname",
        "https://book.invalid/etc/hostname",
        "https://book.invalid/static/css/nothing-here.css",
        "https://book.invalid/static/css",
        "https://book.invalid/book/picture/A01",  # a picture is served only when handed over
        "https://book.invalid/book/picture/../cover",
        "https://book.invalid/book/area/A01",
    ],
)
def test_the_fetcher_refuses_anything_but_our_files(url, no_network):
    fetcher = story_pdf.BookFetcher()
    with pytest.raises(ValueError):
        fetcher(url)
    assert fetcher.refused == [url]
    assert not no_network


def test_the_fetcher_serves_static_files_and_the_books_own_but_no_upload(settings, no_network):
    media = Path(settings.MEDIA_ROOT)
    (media / "stories").mkdir(parents=True)
    (media / "stories" / "c.jpg").write_bytes(b"JPEGDATA")
    fetcher = story_pdf.BookFetcher(
        {"/book/cover": (b"PNG", "image/png"), "/book/picture/A01": (b"JPG", "image/jpeg")}
    )
    css = fetcher("https://book.invalid/static/css/story.css")
    assert b"@font-face" in css.read() and css.content_type == "text/css"
    font = fetcher("https://book.invalid/static/fonts/AmnesiaSerif-Regular.otf")
    assert font.read()[:4] == b"OTTO"
    # The Japanese cut's WOFF2 (the pages') comes as the OpenType file it was packed from: the
    # same font, which WeasyPrint need not unpack in every book.
    packed = "https://book.invalid/static/fonts/AmnesiaSerifJP-Regular.woff2"
    web = fetcher(packed)
    assert web.read() == (FONTS / "AmnesiaSerifJP-Regular.otf").read_bytes()
    assert web.content_type == "font/otf"
    assert (FONTS / "AmnesiaSerifJP-Regular.woff2").read_bytes()[:4] == b"wOF2"
    assert fetcher("https://book.invalid/book/cover").read() == b"PNG"
    assert fetcher("https://book.invalid/book/picture/A01").read() == b"JPG"
    with pytest.raises(ValueError):
        fetcher("https://book.invalid/book/picture/A02")
    assert fetcher.refused == ["https://book.invalid/book/picture/A02"] and not no_network
    # An upload is printed only when handed to the book (read from storage for a reader who
    # may see it), never by its path: another story's cover or a deck cannot be pulled in.
    with pytest.raises(ValueError):
        fetcher("https://book.invalid/media/stories/c.jpg")
    assert fetcher.refused[-1] == "https://book.invalid/media/stories/c.jpg"


def test_raw_html_cannot_reach_files_or_hosts(canary, no_network, fetchers):
    """Even markup that no template would let through (the template escapes it) fetches
    nothing: the fetcher is the last line of defence."""
    html = (
        "<html><head>"
        '<link rel="stylesheet" href="http://example.com/x.css">'
        f'<link rel="stylesheet" href="{canary["css"]}">'
        f"<style>@import url({canary['secret']}); p {{ background: url(file:///etc/hostname) }}"
        f" div {{ background: url({canary['png']}) }}</style>"
        '</head><body><p>Visible text.</p><img src="file:///etc/hostname">'
        f'<img src="{canary["png"]}"><div>x</div>'
        '<iframe src="file:///etc/hostname"></iframe><object data="file:///etc/hostname"></object>'
        "</body></html>"
    )
    data = story_pdf.html_to_pdf(html)
    reader = PdfReader(BytesIO(data))
    text = reader.pages[0].extract_text()
    assert "Visible text." in text
    assert "CANARY" not in text
    assert not list(reader.pages[0].images)
    (fetcher,) = fetchers
    assert fetcher.served == []
    refused = set(fetcher.refused)
    assert "file:///etc/hostname" in refused
    assert "http://example.com/x.css" in refused
    assert canary["css"] in refused and canary["png"] in refused
    if hostname_text():
        assert hostname_text() not in text
    assert not no_network


# -- a hostile story, through the pages and the PDF -----------------------------------------
@pytest.fixture
def hostile_story(gm, canary) -> Story:
    lines = hostile(canary)
    script = amnesia_script(
        ["Ana", "Bruno"],
        [
            Scene("Ana", [lines[0], "An ordinary sentence."], suggestions=[("Bruno", lines[1])]),
            Scene("Bruno", [lines[2]], kind="flashback"),
            Scene("Ana", ["The room."], kind="room_flashback"),
        ],
        epilogue="<script>alert(1)</script>",
    )
    return make_story(
        gm,
        script=script,
        title='<img src="file:///etc/hostname">Title',
        subtitle="</title><link rel=stylesheet href=http://example.com/y.css>",
        blurb="<style>body{background:url(file:///etc/hostname)}</style>",
        visibility=Story.Visibility.PUBLIC,
        published=True,
    )


def test_the_reading_page_escapes_the_narration(client, hostile_story):
    page = client.get(reverse("stories:detail", args=[hostile_story.pk])).content.decode()
    assert "&lt;img src=&quot;file:///etc/hostname&quot;&gt;" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert '<img src="file:' not in page
    assert "<script>alert" not in page
    assert '<link rel="stylesheet" href="http://example.com' not in page
    assert "<style>p {" not in page and "<style>body" not in page


def test_the_pdf_prints_the_markup_as_text_and_fetches_nothing(
    hostile_story, canary, no_network, fetchers
):
    data = story_pdf.pdf_for(hostile_story)
    book = services.make_book(hostile_story)
    text = pdf_text(data, {book.title, *(c.title for c in book.chapters)})
    # The markup is printed as the words the players typed...
    assert squeeze('<img src="file:///etc/hostname">') in squeeze(text)
    assert squeeze("<script>alert(1)</script>") in squeeze(text)
    # ...and nothing it names was fetched or shown.
    assert "CANARY" not in text
    if hostname_text():
        assert hostname_text() not in text
    (fetcher,) = fetchers
    assert fetcher.refused == []  # nothing hostile even reached the fetcher
    for url in fetcher.served:
        assert url.startswith(("https://book.invalid/static/", "https://book.invalid/book/cover"))
    reader = PdfReader(BytesIO(data))
    images = set()
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        images |= {
            xobjects.raw_get(key).idnum
            for key in xobjects
            if xobjects[key].get_object().get("/Subtype") == "/Image"
        }
    assert len(images) == 1  # the cover, nothing else
    assert reader.metadata.title == '<img src="file:///etc/hostname">Title'
    assert not no_network
