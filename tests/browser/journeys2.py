"""Steps the whole-evening journeys of Amnesia and Amnesia Stories share: a laptop and phones in
browser contexts of their own, in the table's language, seated through the join screen's
links; two phones that send at the same moment; a refusal read inside the page; the book
downloaded and read."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.pdfs import all_text

from .conftest import TIMEOUT_MS
from .helpers import PASSWORD

PHONE = {"width": 390, "height": 844}
# Printing a short book happens inside the request: on a busy machine more than the suite's
# 10 s (see test_story_archive).
BOOK_MS = 60_000


# Every screen here follows the table by asking the server (live.js, every 3 s unless the poll
# element says otherwise; no websocket under the test server). The journeys' screens ask every
# 0.4 s instead: the same code path, only more often, so that an evening's thirty "the other
# screens catch up" steps cost seconds, not a minute and a half.
QUICK_POLLS = """
new MutationObserver(() => {
  document.querySelectorAll("[data-poll]:not([data-poll-every])").forEach(
    (el) => el.setAttribute("data-poll-every", "400"));
}).observe(document, { subtree: true, childList: true });
"""


def new_context(browser, **kwargs):
    context = browser.new_context(**kwargs)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(QUICK_POLLS)
    return context


def laptop(browser, live_server, django_user_model, locale: str, username: str = "gm"):
    """The game master's laptop, logged in through the login form (read in ``locale``: the
    fields are found by name, not by their English labels). Returns (context, page, user)."""
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    context = new_context(browser, base_url=live_server.url, locale=locale)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button").first.click()
    expect(page.get_by_test_id("current-user")).to_have_text(username)
    return context, page, user


def seat_links(page, table) -> list[str]:
    """The seats' links as the join screen prints them under their codes, in seat order."""
    page.goto(f"/tables/{table.pk}/join/")
    urls = page.locator("code.join-url")
    expect(page.get_by_role("alert")).to_have_count(0)  # not "on no network"
    expect(urls).to_have_count(table.seats.count())
    return [urls.nth(i).inner_text().strip() for i in range(urls.count())]


def phone(browser, url: str, locale: str):
    """One player's phone (a context of its own, phone-sized, touch) opened on their link."""
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True, locale=locale)
    page = context.new_page()
    page.goto(url)
    # A seat page is the player's alone: no site navigation, no way to log in from it.
    expect(page.locator("#seat-panel")).to_be_visible()
    expect(page.locator('a[href*="/accounts/"]')).to_have_count(0)
    return context, page


def caught_up(page, table) -> None:
    """Wait until ``page`` shows the table as its last move left it (a page follows the
    table by itself, a moment after a move made elsewhere)."""
    last = type(table).objects.get(pk=table.pk).last_seq
    panel = page.locator("#table-panel, #seat-panel")
    expect(panel).to_have_attribute("data-seq", str(last))


def tap(page, table, do: str) -> None:
    """The player of ``page`` plays ``do`` once their page shows the table as it is (a tap on
    a page whose refresh is on its way would be dropped by the panel, as htmx drops a second
    request while one runs)."""
    caught_up(page, table)
    with page.expect_response(is_move_post) as answer:
        verb(page, do).tap()
    assert answer.value.ok, answer.value.status


def verb(page_or_locator, do: str):
    """The button that plays the verb ``do`` (the language of its label does not matter)."""
    return page_or_locator.locator(f'button[name="do"][value="{do}"]')


def is_move_post(response) -> bool:
    return response.request.method == "POST" and "/draft/" not in response.url


def at_once(*clicks) -> list:
    """Each ``(page, locator)`` clicked before any answer has come back, as two people press
    at the same moment; returns the answers in order, once all have arrived."""
    waits = [page.expect_response(is_move_post) for page, _locator in clicks]
    infos = [wait.__enter__() for wait in waits]
    for _page, locator in clicks:
        locator.dispatch_event("click")
    for wait in waits:
        wait.__exit__(None, None, None)
    return [info.value for info in infos]


SHEETS = "() => [...document.styleSheets].map((sheet) => sheet.href)"


def refused(page, click, status: int):
    """``click()`` sends a move the table refuses with ``status``: the answer is drawn inside
    the page as it was (its title and stylesheet kept), with one sentence in an alert.
    Returns that sentence."""
    title = page.title()
    sheets = page.evaluate(SHEETS)
    with page.expect_response(is_move_post) as answer:
        click()
    assert answer.value.status == status, answer.value.status
    alert = page.get_by_role("alert")
    expect(alert).to_have_count(1)
    expect(alert).to_be_visible()
    assert page.title() == title
    assert page.evaluate(SHEETS) == sheets  # the page keeps its stylesheets: its layout
    return alert.inner_text().strip()


def download_book(page, story_url: str, tmp_path: Path) -> str:
    """The story's page, its A5 book asked for (a short book is printed in the request) and
    downloaded; returns the book's text."""
    page.goto(story_url)
    expect(page.get_by_test_id("book-ask-a5")).to_be_visible()
    with page.expect_download(timeout=BOOK_MS) as download:
        page.get_by_test_id("book-ask-a5").click(timeout=BOOK_MS)
    data = Path(download.value.path()).read_bytes()
    assert data.startswith(b"%PDF-")
    return squeeze(all_text(data, "\n"))


def squeeze(text: str) -> str:
    """Text with its runs of white space made one space (a PDF breaks lines anywhere)."""
    return re.sub(r"\s+", " ", text)


def path_of(url: str) -> str:
    return urlsplit(url).path
