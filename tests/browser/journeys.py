"""Steps the whole-evening journeys share: phones in contexts of their own, seated from the
join screen's links, two phones acting at the same moment, and the book read back."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from playwright.sync_api import expect

from tests.pdfs import all_text

from .conftest import TIMEOUT_MS
from .journeys2 import QUICK_POLLS

PHONE = {"width": 390, "height": 844}


def phone(browser, live_server, locale: str = "en-US"):
    """A phone-sized browser of its own (no cookies shared with the laptop or other phones)."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        locale=locale,
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(QUICK_POLLS)  # asking every 0.4 s, as the other journeys' screens do
    return context, context.new_page()


def seat_links(laptop) -> list[str]:
    """The join screen's seat links (the text under each code), in seat order. The laptop is on
    the join screen."""
    urls = laptop.locator("code.join-url")
    expect(urls.first).to_be_visible()
    expect(laptop.get_by_role("alert")).to_have_count(0)
    return [u.inner_text() for u in urls.all()]


def at_once(*steps: tuple[object, Callable[[], None]]) -> list[object]:
    """Each ``(page, action)``: every action is fired before any answer is awaited, so the
    requests leave together, each page drawn at the version it had; then every page's POST
    answer is waited for. Returns the responses, in the order given."""
    with ExitStack() as stack:
        waits = [
            stack.enter_context(page.expect_response(lambda r: r.request.method == "POST"))
            for page, _action in steps
        ]
        for _page, action in steps:
            action()
    return [w.value for w in waits]


def download_book(page) -> str:
    """On a story's page: ask for the PDF (a short book is printed in the request), wait for
    the download, and return its text."""
    ask = page.get_by_test_id(re.compile(r"^book-ask-")).first
    with page.expect_download() as download:
        ask.click()
    data = Path(download.value.path()).read_bytes()
    assert data.startswith(b"%PDF"), data[:20]
    return all_text(data, "\n")


def intact(page, title: str) -> None:
    """A refused move was answered inside the page: its layout (title, stylesheets) is still
    there and one sentence says what happened."""
    expect(page).to_have_title(re.compile(re.escape(title)))
    assert page.locator("link[rel=stylesheet]").count() > 0
    expect(page.get_by_role("alert")).to_have_count(1)
