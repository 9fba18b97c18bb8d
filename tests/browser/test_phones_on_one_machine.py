"""The recipe for trying the phones on one machine (docs/table.md), step by step, in Chromium: the site
told that 127.0.0.1 is its public address (``PUBLIC_URL``), the game master logs in, makes an
Amnesia table, opens its join screen, and each seat's link (the text under its QR code) opens
that player's page in a phone-sized window of its own."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.browser.helpers import log_in

PHONE = {"width": 390, "height": 844}
PLAYERS = ["Ana", "Bruno", "Caio"]


def test_the_recipe_for_phones_on_one_machine(
    browser, page, django_user_model, live_server, settings
) -> None:
    # PUBLIC_URL=http://127.0.0.1:8000 make run, on the port this test's server has.
    public_url = f"http://127.0.0.1:{urlsplit(live_server.url).port}"
    settings.PUBLIC_URL = public_url
    settings.LAN_ADDRESSES = []  # no network either way: the recipe is for a laptop alone

    # Log in, make a table.
    log_in(page, django_user_model)
    page.goto("/tables/new/?game=amnesia")
    page.get_by_label("Table name").fill("Room 714")
    page.get_by_label(re.compile("Players, in seat order")).fill("\n".join(PLAYERS))
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", name="Room 714")).to_be_visible()
    # The table page gives every seat's link and code too.
    links = page.get_by_test_id("seat-links")
    expect(links.get_by_role("link", name="link")).to_have_count(len(PLAYERS))
    expect(links.locator("img")).to_have_count(len(PLAYERS))

    # Open its join screen: one code per seat, each link under it on the public address.
    page.get_by_test_id("join-screen").click()
    codes = page.locator(".join-seats img")
    expect(codes).to_have_count(len(PLAYERS))
    urls = page.locator("code.join-url")
    expect(urls).to_have_count(len(PLAYERS))
    expect(page.get_by_role("alert")).to_have_count(0)

    # Each seat's link in a window of its own, phone-sized, sharing no session.
    for position, name in enumerate(PLAYERS):
        url = urls.nth(position).inner_text()
        assert url.startswith(f"{public_url}/seat/"), url
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            seat = phone.new_page()
            seat.goto(url)
            expect(seat.get_by_role("heading", level=1)).to_contain_text(name)
            expect(seat.get_by_test_id("my-tokens")).to_be_visible()
        finally:
            phone.close()
