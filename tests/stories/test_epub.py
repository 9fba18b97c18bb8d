"""The EPUB: epubcheck finds nothing to say, and the book read back holds the story.

Each game's first demo story (and the Japanese sample) is made once for the module; epubcheck
(Debian's package, run with Java) takes seconds to start, so one Java process checks every book
(EpubcheckMany.java), and the module's tests run on one test worker (its xdist group), which
makes the books and checks them once. The books are made alike in every run (a fixed time of
play, table id and time of the last change), so ``make test``'s PostgreSQL run reads the
verdict its SQLite run's Java gave for the same bytes (tests/memo.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import uuid
import zipfile
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from amnesia_site.accounts.models import Profile
from games import registry
from games.models import Ruleset, Table
from games.services import new_tables
from stories import epub, services
from stories.models import Story, Tag, story_for
from tests.memo import remember

from .conftest import PLAYED_AT, make_story

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("epub")]

EPUBCHECK = Path("/usr/share/java/epubcheck.jar")
# A short run of one program: Java's quick compiler alone and its simplest collector take half
# the CPU time of its defaults (which spend most of a run compiling for a long life), and
# check the same.
JAVA_FOR_A_SHORT_RUN = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
# Checks every book in one Java process (the module's books are checked at once).
MANY = Path(__file__).with_name("EpubcheckMany.java")
OPF = "{http://www.idpf.org/2007/opf}"
DC = "{http://purl.org/dc/elements/1.1/}"
XHTML = "{http://www.w3.org/1999/xhtml}"


@dataclass
class Made:
    data: bytes
    title: str
    language: str
    authors: list[str]
    tags: list[str]
    chapters: list[str]
    passages: list[str]
    game_title: str
    images: int


def demo_script(kit) -> tuple[str, dict]:
    """The game's first finished demo table (the one its demo story is made from), played at
    a fixed time (see ``made``)."""
    for name, script in kit.demos(datetime.fromisoformat(PLAYED_AT)):
        if any(m.get("do") for m in script.get("moves", [])):
            return name, script
    raise AssertionError(f"{kit.slug} has no demo")


# The books' identifiers (urn:uuid), one for each book of the module.
BOOK_IDS = uuid.UUID("6f1c1d8e-2f0a-4c57-9a53-3f2d6a0b7e14")

BOOKS = [f"demo-{kit.slug}" for kit in registry.kits()] + ["sample-ja"]


@pytest.fixture(scope="module")
def made(django_db_setup, django_db_blocker, tmp_path_factory) -> dict[str, Made]:
    from django.contrib.auth import get_user_model

    folder = tmp_path_factory.mktemp("epubs")
    books: dict[str, Made] = {}
    with (
        django_db_blocker.unblock(),
        override_settings(STORY_CACHE_DIR=str(folder / "cache"), MEDIA_ROOT=str(folder)),
        transaction.atomic(),
    ):
        owner = get_user_model().objects.create_user(username="epub-gm")
        Profile.objects.filter(user=owner).update(display_name="Marta Reis")
        stories = []
        for kit in registry.kits():
            name, script = demo_script(kit)
            table = new_tables.import_script(script, owner, name)
            story = story_for(table, "en")
            story.tags.set(Tag.for_names(["demo", kit.slug]))
            stories.append((f"demo-{kit.slug}", story))
        japanese = make_story(owner, "ja", at=PLAYED_AT, subtitle="副題", blurb="あらすじ。")
        japanese.tags.set(Tag.for_names(["ノワール"]))
        stories.append(("sample-ja", japanese))
        for key, story in stories:
            # What the clock and chance give a story (its table's id for readers, the time it
            # was last changed) fixed too: the same book, byte for byte, in every run.
            Table.objects.filter(pk=story.table_id).update(uuid=uuid.uuid5(BOOK_IDS, key))
            Story.objects.filter(pk=story.pk).update(updated_at=datetime.fromisoformat(PLAYED_AT))
            story = Story.objects.get(pk=story.pk)
            book = services.make_book(story)
            books[key] = Made(
                data=epub.render_epub(book),
                title=book.title,
                language=book.html_lang,
                authors=epub.authors(book),
                tags=book.tags,
                chapters=[c.title for c in book.chapters],
                passages=[p.text for c in book.chapters for p in c.passages if p.text],
                game_title=book.game_title,
                images=len(book.images) + len(book.uploads),
            )
        transaction.set_rollback(True)
    return books


def contents(data: bytes) -> tuple[ElementTree.Element, list[tuple[str, ElementTree.Element]]]:
    """The package document and the spine's content documents, in reading order."""
    archive = zipfile.ZipFile(BytesIO(data))
    container = ElementTree.fromstring(archive.read("META-INF/container.xml"))
    opf_path = container.find(".//{*}rootfile").get("full-path")
    opf = ElementTree.fromstring(archive.read(opf_path))
    base = opf_path.rsplit("/", 1)[0] + "/"
    items = {i.get("id"): i for i in opf.iter(f"{OPF}item")}
    docs = []
    for ref in opf.iter(f"{OPF}itemref"):
        href = items[ref.get("idref")].get("href")
        docs.append((href, ElementTree.fromstring(archive.read(base + href))))
    return opf, docs


def text_of(element: ElementTree.Element) -> str:
    return "".join(element.itertext())


def squeeze(text: str) -> str:
    return "".join(text.split())


@dataclass
class Checked:
    messages: list[dict]
    code: int
    output: str


@pytest.fixture(scope="module")
def checked(made, tmp_path_factory) -> dict[str, Checked]:
    """epubcheck's report and exit code for each book, all books checked by one Java process
    (EpubcheckMany.java: starting Java and loading epubcheck's schemas was most of each
    book's run).

    The verdict is kept for the run by the books' bytes (tests/memo.py): the books are made
    alike in every run (``made``), so the PostgreSQL run of ``make test`` reads the verdict
    the SQLite run's Java gave for the very same bytes; a book that differs by one byte is
    checked again for real."""
    if not EPUBCHECK.exists() or not shutil.which("java"):
        message = f"{EPUBCHECK} or java is missing: run scripts/setup.sh as root."
        # In CI a skipped check would hide a broken set-up.
        if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)

    def check() -> tuple[bytes, bytes]:
        folder = tmp_path_factory.mktemp("epubcheck")
        paths = {}
        for key, book in made.items():
            paths[key] = folder / f"{key}.epub"
            paths[key].write_bytes(book.data)
        result = subprocess.run(
            ["java", *JAVA_FOR_A_SHORT_RUN, "-cp", str(EPUBCHECK), str(MANY)]
            + [str(part) for key in made for part in (paths[key], folder / f"{key}.json")],
            capture_output=True,
            text=True,
            timeout=300,
        )
        output = result.stdout + result.stderr
        assert result.returncode == 0, output
        said = [line.removeprefix("code ") for line in result.stdout.splitlines()]
        codes = dict(line.rsplit(" ", 1) for line in said if line.startswith(str(folder)))
        verdicts = {
            key: {
                "messages": json.loads((folder / f"{key}.json").read_text())["messages"],
                "code": int(codes[str(paths[key])]),
            }
            for key in made
        }
        return json.dumps(verdicts).encode(), output.encode()

    # What the verdict depends on: the checker (its jar, how it is run) and every book, whole.
    key = hashlib.sha256(MANY.read_bytes())
    key.update(f"\0{EPUBCHECK}\0{EPUBCHECK.stat().st_size}\0{JAVA_FOR_A_SHORT_RUN}".encode())
    for name, book in made.items():
        key.update(f"\0{name}\0".encode())
        key.update(hashlib.sha256(book.data).digest())
    verdicts, output = remember("epubcheck", key.hexdigest(), check)
    return {
        name: Checked(messages=verdict["messages"], code=verdict["code"], output=output.decode())
        for name, verdict in json.loads(verdicts).items()
    }


@pytest.mark.parametrize("key", BOOKS)
def test_epubcheck_reports_no_error_and_no_warning(checked, key):
    said = [
        f"{m['severity']} {m['ID']}: {m['message']} {m['locations'][:1]}"
        for m in checked[key].messages
        if m["severity"] in ("FATAL", "ERROR", "WARNING")
    ]
    assert said == [], "\n".join(said)
    assert checked[key].code == 0, checked[key].output


@pytest.mark.parametrize("key", BOOKS)
def test_every_passage_is_in_the_book_in_order(made, key):
    book = made[key]
    _opf, docs = contents(book.data)
    text = squeeze("\n".join(text_of(doc) for _href, doc in docs))
    position = 0
    for passage in book.passages:
        found = text.find(squeeze(passage), position)
        assert found >= 0, f"missing or out of order: {passage[:60]!r}"
        position = found + len(squeeze(passage))
    assert book.passages  # every demo tells something


@pytest.mark.parametrize("key", BOOKS)
def test_the_navigation_lists_every_chapter_and_memory(made, key):
    book = made[key]
    archive = zipfile.ZipFile(BytesIO(book.data))
    nav = ElementTree.fromstring(archive.read("EPUB/nav.xhtml"))
    toc = next(
        n for n in nav.iter(f"{XHTML}nav") if n.get("{http://www.idpf.org/2007/ops}type") == "toc"
    )
    titles = [text_of(a) for a in toc.iter(f"{XHTML}a")]
    assert titles[: len(book.chapters)] == book.chapters
    for a in toc.iter(f"{XHTML}a"):
        name, _, anchor = a.get("href").partition("#")
        doc = ElementTree.fromstring(archive.read(f"EPUB/{name}"))
        assert any(e.get("id") == anchor for e in doc.iter())


@pytest.mark.parametrize("key", BOOKS)
def test_metadata(made, key):
    book = made[key]
    opf, _docs = contents(book.data)
    meta = opf.find(f"{OPF}metadata")
    assert [t.text for t in meta.iter(f"{DC}title")][0] == book.title
    assert [c.text for c in meta.iter(f"{DC}creator")] == book.authors
    assert "Marta Reis" in book.authors  # the game master by their display name
    assert meta.find(f"{DC}language").text == book.language
    subjects = [s.text for s in meta.iter(f"{DC}subject")]
    assert subjects == [book.game_title, *book.tags]
    collection = [
        m.text for m in meta.iter(f"{OPF}meta") if m.get("property") == "belongs-to-collection"
    ]
    assert collection == [book.game_title]
    assert meta.find(f"{DC}date").text
    # EPUB 3.3 asks for exactly one last-modified time, in UTC to the second: the story's
    # last change (made fixed by ``made``), never the clock's time of the export.
    modified = [m.text for m in meta.iter(f"{OPF}meta") if m.get("property") == "dcterms:modified"]
    assert modified == [PLAYED_AT.replace("+00:00", "Z")]
    assert meta.find(f"{DC}identifier").text.startswith("urn:uuid:")


def test_the_cover_fonts_and_pictures_are_inside(made):
    for key, book in made.items():
        archive = zipfile.ZipFile(BytesIO(book.data))
        names = archive.namelist()
        assert names[0] == "mimetype"
        assert archive.getinfo("mimetype").compress_type == zipfile.ZIP_STORED
        # No entry takes the clock's time: the same story makes the same bytes.
        assert {info.date_time for info in archive.infolist()} == {epub.ZIP_DATE}
        assert any(n.startswith("EPUB/images/cover.") for n in names)
        assert "EPUB/fonts/AmnesiaSerif-Regular.otf" in names
        assert ("EPUB/fonts/AmnesiaSerifJP-Regular.otf" in names) == (book.language == "ja")
        # The emoji cut is the PDF's: a reader draws emoji with the device's colour font.
        assert "EPUB/fonts/AmnesiaEmoji-Regular.ttf" not in names
        pictures = [n for n in names if n.startswith("EPUB/images/picture-")]
        assert len(pictures) == book.images, key
        opf, docs = contents(book.data)
        cover = [i for i in opf.iter(f"{OPF}item") if i.get("properties") == "cover-image"]
        assert len(cover) == 1
        # Every picture a page shows is a file of the book.
        for href, doc in docs:
            for img in doc.iter(f"{XHTML}img"):
                assert f"EPUB/{img.get('src')}" in names, (key, href)
    assert made["demo-amnesia_stories"].images > 0


def test_the_designer_of_the_ruleset_is_credited(gm):
    ruleset = Ruleset.objects.create(game="amnesia", name="Short nights", owner=gm)
    story = make_story(gm)
    table = story.table
    table.ruleset = ruleset
    table.save(update_fields=["ruleset"])
    Profile.objects.update_or_create(user=gm, defaults={"display_name": "Dora Designer"})
    opf, _docs = contents(epub.render_epub(services.make_book(Story.objects.get(pk=story.pk))))
    contributors = [c.text for c in opf.iter(f"{DC}contributor")]
    assert contributors == ["Dora Designer"]
    roles = [m.text for m in opf.iter(f"{OPF}meta") if m.get("refines") == "#designer"]
    assert roles == ["dsr"]


def test_the_story_command_writes_the_epub(gm, tmp_path):
    story = make_story(gm)
    out = tmp_path / "story.epub"
    call_command("story", "epub", str(story.table_id), str(out), "--language", "pt-br")
    opf, _docs = contents(out.read_bytes())
    assert opf.find(f"{OPF}metadata").find(f"{DC}language").text == "pt-BR"
    assert Story.objects.get(pk=story.pk).language == "en"  # the export does not change the story


def test_the_epub_download_follows_the_story_visibility(client, gm, other):
    story = make_story(gm, visibility=Story.Visibility.UNLISTED, published=True)
    url = reverse("stories:epub", args=[story.pk])
    client.force_login(other)
    assert client.get(url).status_code == 404  # unlisted: not by its id
    shared = client.get(reverse("stories:shared_epub", args=[story.secret]))
    assert shared.status_code == 200
    assert shared["Content-Type"] == "application/epub+zip"
    assert shared["Content-Disposition"].startswith("attachment")
    assert zipfile.ZipFile(BytesIO(shared.content)).read("mimetype") == b"application/epub+zip"
    client.force_login(gm)
    page = client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    assert f'href="{url}"' in page
    html = client.get(reverse("stories:shared_single_html", args=[story.secret]))
    assert html["Content-Disposition"].startswith("attachment")
    policy = html["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    assert html.content.startswith(b"<!doctype html>")
    assert re.search(
        r'href="/stories/s/[^"]+/epub/"',
        client.get(reverse("stories:shared", args=[story.secret])).content.decode(),
    )


def test_the_story_command_writes_the_html_file(gm, tmp_path):
    story = make_story(gm, "ja")
    out = tmp_path / "story.html"
    call_command("story", "html", str(story.table_id), str(out))
    html = out.read_text()
    assert html.startswith("<!doctype html>") and '<html lang="ja">' in html
    book = services.make_book(story)
    for passage in (p.text for c in book.chapters for p in c.passages if p.text):
        assert passage.split("\n")[0][:20] in html
    assert "AmnesiaSerifJP" not in html  # the font is inside, as data, not by its file name
    assert 'src: url("data:font/otf;base64,' in html


def test_a_picture_readers_may_not_draw_is_made_a_png():
    """EPUB readers need no fallback for JPEG, PNG and GIF; a WebP upload becomes a PNG."""
    from PIL import Image

    from stories.assets import _plain

    out = BytesIO()
    Image.new("RGB", (30, 20), "teal").save(out, "WEBP")
    data, mime = _plain(out.getvalue(), "image/webp")
    assert mime == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(BytesIO(data)) as image:
        assert image.size == (30, 20)
    jpeg = b"\xff\xd8\xff jpeg bytes"
    assert _plain(jpeg, "image/jpeg") == (jpeg, "image/jpeg")
