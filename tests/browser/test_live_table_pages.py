"""The game master's table page follows the table, in all three games: a move made on another
device (a second laptop tab, a player's phone) shows on it within one poll interval, with no
reload, and never at the cost of what the game master is typing.

Each device is its own browser context (its own cookies), as two machines at a table are. The
pages here ask every 0.4 s (``QUICK_POLLS``, the journeys' own: the same code path, only more
often); live.js's own 3 s is waited out in tests/browser/test_live_pages.py."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import Table
from games.services import new_tables, reading, writing

from .conftest import TIMEOUT_MS
from .helpers import PASSWORD
from .helpers import log_in as log_in_first
from .journeys2 import QUICK_POLLS

POLL_S = 3  # live.js's interval: a page with no data-poll-every asks every 3 s
# One default interval, plus the refresh's own round trip: what the quicker pages here must
# beat by far, and what a page that stopped following never does.
WITHIN_ONE_POLL = (POLL_S + 2) * 1000


def log_in(page, django_user_model):
    """The first laptop (tests/browser/helpers.py), its pages asking every 0.4 s."""
    page.add_init_script(QUICK_POLLS)
    return log_in_first(page, django_user_model)


def device(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(QUICK_POLLS)
    return context, context.new_page()


def log_in_again(page, username: str = "gm") -> None:
    """The same game master on another machine: the login form, no new account."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("current-user")).to_have_text(username)


def not_reloaded(page) -> None:
    """The page was loaded once: what changed came through the poll's refresh."""
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_amnesia_a_move_on_a_second_laptop_reaches_the_first(
    browser, page, live_server, django_user_model
) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno", "Caio"], seed=3)
    page.goto(table.get_absolute_url())
    heading = page.locator("#table-panel .actions h2")
    expect(heading).to_have_text("Ana’s turn")
    assert "key=" in (page.locator("[data-poll]").get_attribute("data-poll") or "")
    context, other = device(browser, live_server)
    try:
        log_in_again(other)
        other.goto(table.get_absolute_url())
        other.get_by_role("button", name=re.compile("Continue the story")).click()
        expect(other.locator("#table-panel .actions h2")).to_have_text("Ana narrates")
        expect(heading).to_have_text("Ana narrates", timeout=WITHIN_ONE_POLL)
        not_reloaded(page)
        expect(page.locator("[data-poll]")).to_have_attribute("data-version", "1")
    finally:
        context.close()


def test_amnesia_stories_the_bard_on_a_second_laptop_reaches_the_first(
    browser, page, live_server, django_user_model
) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(
        gm,
        "amnesia_stories",
        ["Ana", "Bruno", "Caio"],
        options={"choices": 3, "questions": 2, "rounds": 1},
        seed=7,
    )
    page.goto(table.get_absolute_url())
    heading = page.locator("#table-panel .actions h2")
    expect(heading).to_have_text("Ana is the bard")
    journey = reading.state_of(table)["journey"]
    context, other = device(browser, live_server)
    try:
        log_in_again(other)
        other.goto(table.get_absolute_url())
        selects = other.locator("#table-panel select[name=story]")
        for i in range(selects.count()):
            selects.nth(i).select_option(journey[i])
        other.locator("#narration").fill("The hero left at dawn.")
        other.get_by_role("button", name=re.compile("Tell the story")).click()
        expect(other.locator("#table-panel .actions h2")).to_have_text("Everyone answers in secret")
        expect(heading).to_have_text("Everyone answers in secret", timeout=WITHIN_ONE_POLL)
        expect(page.locator("#table-panel")).to_contain_text("The hero left at dawn.")
        not_reloaded(page)
    finally:
        context.close()


# A stacked deck: Ana has challenged Bo, who answers from his phone.
CONTEST = {
    "game": "contest",
    "players": ["Ana", "Bo"],
    "options": {"hand_size": 4},
    "deck": ["4H", "5H", "2C", "9C", "7D", "3D", "KS", "AS", "8D", "6C", "10D", "JH"],
    "moves": [
        {"by": "Ana", "do": "character", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3,
         "coolness": 3},
        {"by": "Bo", "do": "character", "name": "Yum", "brains": 2, "muscle": 4, "moves": 3,
         "coolness": 3},
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "chess match",
         "attribute": "brains"},
    ],
}  # fmt: skip


def test_contest_a_seat_decision_on_a_phone_reaches_the_game_master(
    browser, page, live_server, django_user_model
) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.import_script(CONTEST, gm, name="Chess")
    page.goto(table.get_absolute_url())
    panel = page.locator("#table-panel")
    expect(panel).to_have_class(re.compile(r"\bphase-response\b"))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    context, phone = device(browser, live_server)
    try:
        phone.goto(f"/seat/{table.seats.get(name='Bo').token}/")
        phone.locator('[data-decision="accept"]').get_by_role(
            "button", name=re.compile("Brains")
        ).click()
        expect(phone.locator('[data-decision="accept"]')).to_have_count(0)
        expect(panel).to_have_class(re.compile(r"\bphase-contest\b"), timeout=WITHIN_ONE_POLL)
        not_reloaded(page)
        # The generic poll (games.live), no longer the contest's own.
        assert any("/poll/?key=" in u for u in requests), requests
        assert not any("/contest/poll/" in u for u in requests), requests
    finally:
        context.close()


def test_typing_the_narration_survives_a_refresh(page, live_server, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno", "Caio"], seed=3)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    # The autosave never reaches the server here, so only the page itself can keep the text
    # (the draft the server would draw in a fresh panel is empty).
    page.route("**/draft/", lambda route: route.abort())
    page.goto(table.get_absolute_url())
    box = page.locator("#narration")
    poll = page.locator("[data-poll]")
    box.click()
    box.press_sequentially("She wakes")
    # Someone else moves (Bruno suggests, from another device) while the game master types.
    writing.play_many(
        Table.objects.get(pk=table.pk), [{"by": "Bruno", "do": "suggest", "text": "A key."}], 1, gm
    )
    # The refresh comes while the box has the keyboard (issue 26: the laptop keeps following
    # the table while someone types), and keeps every letter, the caret and the keyboard.
    expect(poll).to_have_attribute("data-version", "2", timeout=WITHIN_ONE_POLL)
    expect(page.locator("#table-panel")).to_have_attribute("data-seq", "2")
    expect(page.locator(".story")).to_contain_text("A key.")
    expect(box).to_be_focused()
    expect(box).to_have_value("She wakes")
    box.press_sequentially(" in the dark.")
    expect(box).to_have_value("She wakes in the dark.")
    # Stepping out of the box (to the button) keeps the keyboard there.
    box.press("Tab")
    end_scene = page.get_by_role("button", name=re.compile("End the scene"))
    expect(end_scene).to_be_focused()
    not_reloaded(page)


def test_contest_a_revoked_seat_link_is_replaced_on_every_laptop(
    browser, page, live_server, django_user_model
) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="virtual", seed=4)
    old = table.seats.get(name="Ana").token
    page.goto(table.get_absolute_url())
    links = page.locator(".seat-links li")
    expect(links.first.get_by_role("link", name="link")).to_have_attribute("href", re.compile(old))
    context, other = device(browser, live_server)
    try:
        log_in_again(other)
        other.goto(table.get_absolute_url())
        other.once("dialog", lambda dialog: dialog.accept())
        other.locator(".seat-links li").first.get_by_role("button", name="New link").click()
        new_link = re.compile(r"/seat/(?!" + re.escape(old) + r")[\w-]+/")
        expect(
            other.locator(".seat-links li").first.get_by_role("link", name="link")
        ).to_have_attribute("href", new_link)
        # The first laptop follows: the new link, with no reload.
        expect(links.first.get_by_role("link", name="link")).to_have_attribute(
            "href", new_link, timeout=WITHIN_ONE_POLL
        )
        not_reloaded(page)
        new = Table.objects.get(pk=table.pk).seats.get(name="Ana").token
        assert new != old
        assert other.goto(f"/seat/{old}/").status == 404
        assert other.goto(f"/seat/{new}/").status == 200
    finally:
        context.close()
