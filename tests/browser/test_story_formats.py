"""The single HTML file in a real Chromium with the network blocked: every passage and every
picture shows, nothing is requested but the file, and a hostile story runs nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.services import new_tables
from stories import formats, services
from stories.models import story_for
from tests.stories import test_safety
from tests.stories.conftest import make_story

from .conftest import TIMEOUT_MS

# The hostile story of tests/stories/test_safety and what it needs.
canary = test_safety.canary
hostile_story = test_safety.hostile_story

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _open_offline(browser, path: Path):
    """A page with every request but the file itself refused; returns it and what it asked."""
    context = browser.new_context(offline=True)
    context.set_default_timeout(TIMEOUT_MS)
    asked: list[str] = []
    url = path.as_uri()

    def route(request_route):
        if request_route.request.url == url:
            request_route.continue_()
        else:
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("request", lambda request: asked.append(request.url))
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    page.wait_for_load_state("load")
    return context, page, asked, dialogs


def squeeze(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("source", ["amnesia_stories/01_judging_branches.json", "sample-ja"])
def test_the_html_file_shows_every_passage_and_picture_offline(browser, gm, tmp_path, source):
    if source == "sample-ja":
        story = make_story(gm, "ja")
    else:
        script = json.loads((SCRIPTS / source).read_text())["script"]
        story = story_for(new_tables.import_script(script, gm), "en")
    book = services.make_book(story)
    path = tmp_path / "story.html"
    path.write_bytes(formats.single_html_for(story))
    context, page, asked, dialogs = _open_offline(browser, path)
    try:
        shown = squeeze(page.locator("body").inner_text())
        position = 0
        for passage in (p.text for c in book.chapters for p in c.passages if p.text):
            found = shown.find(squeeze(passage), position)
            assert found >= 0, passage[:60]
            position = found
        images = page.locator("img")
        assert images.count() == 1 + len(book.images) + len(book.uploads)
        for i in range(images.count()):
            images.nth(i).scroll_into_view_if_needed()
            loaded = images.nth(i).evaluate("img => img.complete && img.naturalWidth > 0")
            assert loaded, f"picture {i} did not load"
        # The bundled font drew the text (no system font was asked for over any network).
        family = page.evaluate("getComputedStyle(document.querySelector('.book')).fontFamily")
        assert "Amnesia Serif" in family
        assert page.evaluate("document.fonts.check('16px \"Amnesia Serif\"')")
        assert [u for u in asked if not u.startswith("data:")] == [path.as_uri()]
        assert dialogs == []
    finally:
        context.close()


def test_a_hostile_html_file_runs_nothing_and_fetches_nothing(browser, hostile_story, tmp_path):
    path = tmp_path / "hostile.html"
    path.write_bytes(formats.single_html_for(hostile_story))
    context, page, asked, dialogs = _open_offline(browser, path)
    try:
        assert "<script>alert(1)</script>" in page.locator("body").inner_text()
        assert page.locator("script, iframe, object, link").count() == 0
        assert page.locator("img").count() == 1  # the cover
        assert [u for u in asked if not u.startswith("data:")] == [path.as_uri()]
        assert dialogs == []
    finally:
        context.close()
