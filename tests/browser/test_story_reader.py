"""The reading page on a phone: the text grows and shrinks, light or dark is the reader's
choice, and the reader's place is kept on the device (localStorage) across visits."""

from __future__ import annotations

from playwright.sync_api import expect

from stories.models import Story
from tests.stories.conftest import make_story

from .conftest import TIMEOUT_MS


def test_text_size_theme_and_place_are_kept_on_this_device(
    browser, live_server, gm, settings, tmp_path
):
    settings.STORY_CACHE_DIR = str(tmp_path / "cache")
    story = make_story(gm, visibility=Story.Visibility.PUBLIC, published=True)
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 740},
        is_mobile=True,
        has_touch=True,
        color_scheme="dark",
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(f"/stories/{story.pk}/")
        controls = page.get_by_role("toolbar", name="Reading")
        expect(controls).to_be_visible()
        book = page.locator(".story-page .book")
        normal = float(book.evaluate("b => parseFloat(getComputedStyle(b).fontSize)"))
        larger = controls.get_by_role("button", name="Larger text")
        larger.tap()
        larger.tap()
        bigger = float(book.evaluate("b => parseFloat(getComputedStyle(b).fontSize)"))
        assert bigger > normal * 1.25
        expect(larger).to_be_disabled()  # the largest size
        theme = controls.locator("[data-reader-theme]")
        expect(theme).to_have_attribute("aria-pressed", "true")  # the device is dark
        theme.tap()
        expect(theme).to_have_attribute("aria-pressed", "false")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        # Light: the page's background is a light colour now.
        rgb = [int(x) for x in background[background.index("(") + 1 : -1].split(",")[:3]]
        assert sum(rgb) > 600, background

        # Read on to the third chapter, then leave.
        chapter = page.locator(".chapter").nth(2)
        chapter_id = chapter.get_attribute("id")
        chapter.scroll_into_view_if_needed()
        page.evaluate("id => document.getElementById(id).scrollIntoView()", chapter_id)
        page.wait_for_function(
            """id => {
                const key = document.querySelector("[data-reader]").dataset.reader;
                const el = document.getElementById(localStorage.getItem("amnesia-reader:place:" + key));
                return el && (el.id === id || el.closest("#" + id));
            }""",
            arg=chapter_id,
        )
        page.goto("/stories/")
        page.goto(f"/stories/{story.pk}/")
        expect(page.locator("[data-reader-resumed]")).to_be_visible()
        top = page.evaluate(
            "id => document.getElementById(id).getBoundingClientRect().top", chapter_id
        )
        assert -200 < top < 300, top  # back at the chapter, not at the top of the book
        assert float(book.evaluate("b => parseFloat(getComputedStyle(b).fontSize)")) == bigger
        expect(theme).to_have_attribute("aria-pressed", "false")  # still light
        assert page.evaluate("document.documentElement.dataset.readerTheme") == "light"
    finally:
        context.close()


CONTEST = {
    "game": "contest",
    "players": ["Ana", "Bo"],
    "seed": 7,
    "moves": [
        {"by": "Ana", "do": "character", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3,
         "coolness": 3},
        {"by": "Bo", "do": "character", "name": "Yum", "brains": 3, "muscle": 3, "moves": 3,
         "coolness": 3},
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "a race",
         "attribute": "moves", "text": "The market is closed."},
        {"by": "Bo", "do": "refuse", "penalty": ["drink", "card"]},
        {"by": "Bo", "do": "throw_pretzel"},
        {"by": "Bo", "do": "take_control", "with": "drinks"},
        {"by": "Bo", "do": "challenge", "target": "Ana", "contest": "a dance",
         "attribute": "coolness", "text": "Yum dances on the stalls."},
    ],
}  # fmt: skip


def test_a_parts_margin_notes_stay_beside_its_own_text(browser, live_server, gm):
    """A contest's part told in a line with many notes in the margin (a challenge refused, its
    penalties, a pretzel): the next part begins below them, not with Part 1's notes beside
    its heading."""
    story = make_story(gm, script=CONTEST, visibility=Story.Visibility.PUBLIC, published=True)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(f"/stories/{story.pk}/")
        first, second = page.locator(".chapter--part").all()
        notes = first.locator(".margin-note")
        expect(notes).to_have_count(5)  # the challenge, the refusal, a drink, a card, a pretzel
        last = notes.last.bounding_box()
        heading = second.locator(".chapter-head").bounding_box()
        assert last and heading
        assert last["y"] + last["height"] <= heading["y"], (last, heading)
    finally:
        context.close()
