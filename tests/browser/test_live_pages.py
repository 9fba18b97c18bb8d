"""Live pages in a real browser: static/js/live.js polls, and a change on the table reaches a
page without a reload, within one poll interval.

A laptop (the game master, logged in) and a phone (a seat link, no account) are two browser
contexts with their own cookies."""

from __future__ import annotations

from playwright.sync_api import expect

from games.services import new_tables, writing

from .conftest import TIMEOUT_MS
from .helpers import log_in
from .journeys2 import QUICK_POLLS

POLL_S = 3  # live.js's interval unless a page says otherwise


def test_a_move_reaches_the_contest_seat_page_within_one_poll(
    browser, page, live_server, django_user_model
) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="virtual", seed=4)
    seat = table.seats.get(name="Ana")
    phone_context = browser.new_context(base_url=live_server.url)
    phone_context.set_default_timeout(TIMEOUT_MS)
    phone = phone_context.new_page()
    try:
        requests: list[str] = []
        phone.on("request", lambda r: requests.append(r.url))
        phone.goto(f"/seat/{seat.token}/")
        heading = phone.get_by_role("heading", level=1)
        expect(heading).to_have_text("Ana")
        # Nothing moved: the page keeps polling, and nothing else is fetched.
        with phone.expect_response(lambda r: "/poll/?since=0" in r.url):
            pass  # the first poll, a poll interval after the page came
        polls = [u for u in requests if "/poll/?since=0" in u]
        assert polls, requests
        assert not [u for u in requests if u.endswith(f"/seat/{seat.token}/")][1:]
        # The game master's move (a character for Ana) shows on the phone, no reload.
        writing.play_many(
            table,
            [
                {"by": "Ana", "do": "character", "name": "Zed", "brains": 2, "muscle": 4}
                | {"moves": 3, "coolness": 3}
            ],
            0,
            gm,
        )
        expect(heading).to_contain_text("Zed", timeout=(POLL_S + 2) * 1000)
        assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1
        # The new panel polls from the new version on.
        expect(phone.locator("[data-poll]")).to_have_attribute("data-version", "1")
    finally:
        phone_context.close()


def test_the_projector_follows_the_table(page, live_server, django_user_model) -> None:
    # Asking every 0.4 s (the journeys' QUICK_POLLS): the same code path, only more often; the
    # default interval is waited out by the seat page's test above.
    page.add_init_script(QUICK_POLLS)
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(
        gm,
        "amnesia_stories",
        ["Ana", "Bruno", "Caio"],
        options={"choices": 3, "questions": 2, "rounds": 1},
        seed=7,
    )
    page.goto(f"/tables/{table.pk}/projector/")
    screen = page.locator("#screen")
    expect(screen).to_have_attribute("data-version", "0")
    assert "key=" in (screen.get_attribute("data-poll") or "")
    writing.bump_version(table)  # any change people must see, a reveal step say
    expect(page.locator("#screen")).to_have_attribute(
        "data-version", "1", timeout=(POLL_S + 2) * 1000
    )
