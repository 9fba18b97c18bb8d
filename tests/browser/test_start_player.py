"""The new-table form's start player in Chromium: the dropdown of the seats takes the names as
they are typed, the game's own draw leaves it to the app with a virtual deck, and the table page
shows the draw."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import Table
from tests.browser.helpers import log_in


def test_the_seats_follow_the_names_and_the_app_deals_the_score_cards(page, django_user_model):
    log_in(page, django_user_model)
    page.goto("/tables/new/?game=amnesia_stories")
    start = page.get_by_label("Start player")
    # before any name: the seats by line
    expect(start.locator("option[value='2']")).to_have_text("Seat 2 (line 2 of the players)")
    players = page.get_by_label(re.compile("Players, in seat order"))
    players.fill("Ana\nBruno")
    expect(start.locator("option[value='2']")).to_have_text("2. Bruno")
    expect(start.locator("option[value='3']")).to_be_disabled()
    players.fill("Ana\nBruno\nCaio\n\nDuda")  # a blank line is no seat
    expect(start.locator("option[value='4']")).to_have_text("4. Duda")
    start.select_option("3")
    players.fill("Ana\nBruno")  # the chosen seat went away: back to the first seat
    expect(start).to_have_value("")
    players.fill("Ana\nBruno\nCaio\nDuda")

    # the seed's own way: the app deals the score cards (nothing to choose with a virtual deck)
    page.get_by_label(re.compile("Deal the score cards")).check()
    expect(start).to_be_disabled()
    page.get_by_label(re.compile("Physical deck")).check()
    expect(start).to_be_enabled()  # at a real table the game master enters the S card's holder
    page.get_by_label(re.compile("Virtual deck")).check()
    expect(start).to_be_disabled()
    page.get_by_role("button", name="Start the table").click()

    draw = page.get_by_test_id("start-draw")
    expect(draw).to_contain_text(re.compile(r"(Ana|Bruno|Caio|Duda) was dealt the S card"))
    table = Table.objects.get()
    holder = table.extra["start_draw"]["s_card"]
    assert table.start_player == holder
    expect(page.locator(".actions h2")).to_have_text(f"{holder} is the bard")
