"""One contest played by tapping in Chromium, physical deck: two characters made at the table,
a challenge, both plays with their chains tapped card by card, the loser's lost card."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.contest.models import Character
from games.models import Table
from games.services import reading
from tests.browser.helpers import click_and_wait_for_swap, log_in
from tests.tables import contest_in_play


def tap(panel, label: str) -> None:
    """Tap one card of the grid and wait for the page to take it (the card joins the pending
    move, or the move is played)."""
    click_and_wait_for_swap(panel.locator(".cgrid").get_by_role("button", name=label, exact=True))


def test_one_contest_by_tapping_on_a_physical_deck(page, django_user_model) -> None:
    log_in(page, django_user_model)
    page.goto("/tables/new/?game=contest")
    page.get_by_label("Table name").fill("The county fair")
    page.get_by_label(re.compile("Players, in seat order")).fill("Ana\nBo")
    page.get_by_label(re.compile("Physical deck")).check()
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", name="The county fair")).to_be_visible()
    panel = page.locator("#table-panel")

    # Each player makes a character at the table (kept for later games).
    for seat, name, muscle, coolness in (("Ana", "Zed", 4, 2), ("Bo", "Yum", 2, 4)):
        card = panel.locator(".character-seat", has=page.get_by_role("heading", name=seat))
        card.get_by_label("Character name").fill(name)
        card.get_by_label("Muscle").fill(str(muscle))
        card.get_by_label("Coolness").fill(str(coolness))
        seq = panel.get_attribute("data-seq")
        card.get_by_role("button", name="Play this character").click()
        expect(panel).not_to_have_attribute("data-seq", seq)

    # Zed controls the story; the countdown runs. Zed challenges Yum.
    expect(panel.locator(".control-panel h2")).to_have_text("Zed (Ana) controls the story")
    expect(panel.locator(".countdown-text")).to_contain_text("Others may take control")
    panel.locator("#narration").fill("The pies are on the long table.")
    panel.get_by_text("Yum", exact=True).click()
    panel.get_by_label("What is the contest?").fill("a pie-eating contest")
    panel.locator(".pill", has_text="Muscle").click()
    panel.get_by_role("button", name=re.compile("Challenge!")).click()
    expect(panel.locator(".actions h2")).to_have_text("Zed (Ana) challenges Yum (Bo)")

    # Yum accepts with Coolness: one tap.
    panel.get_by_role("button", name=re.compile("Coolness")).click()
    expect(panel.locator(".actions h2")).to_have_text("Contest: Zed (Ana) against Yum (Bo)")

    # Zed plays 7♣ on Muscle: the chain draws 2♣, then 9♥ ends it (4 + 7 + 2 + 9 = 22).
    tap(panel, "7♣")
    expect(panel.locator(".pending h2")).to_contain_text("chain goes on")
    tap(panel, "2♣")
    tap(panel, "9♥")
    expect(panel.locator(".board .side").first).to_contain_text("22")

    # Yum plays 6♥ on Coolness: J♥ keeps the chain, 4♠ ends it (4 + 6 + 0 + 4 = 14).
    expect(panel.locator(".card-pick h3")).to_have_text("Yum (Bo) plays: tap the card")
    tap(panel, "6♥")
    tap(panel, "J♥")
    tap(panel, "4♠")
    expect(panel.locator(".actions h2")).to_have_text("Penalties")
    expect(panel.locator(".board .side.won")).to_contain_text("Zed (Ana)")

    # Yum loses a card: open the grid, tap the card.
    panel.get_by_role("button", name=re.compile("Lose a card")).click()
    expect(panel.locator(".pending h2")).to_contain_text("Tap the card Yum (Bo) loses")
    tap(panel, "10♦")
    expect(panel.locator(".control-panel h2")).to_have_text("Zed (Ana) controls the story")
    expect(panel.locator(".cplayer", has_text="Yum")).to_contain_text("10♦")

    story = panel.locator(".story")
    expect(story).to_contain_text("The pies are on the long table.")
    expect(story).to_contain_text("Zed (Ana) wins against Yum (Bo) with the higher total.")

    table = Table.objects.get(name="The county fair")
    state = reading.state_of(table)
    assert state["last_contest"]["cards"] == {"Ana": ["7C", "2C", "9H"], "Bo": ["6H", "JH", "4S"]}
    assert state["last_contest"]["totals"] == {"Ana": 22, "Bo": 14}
    assert state["players"]["Bo"]["lost"] == ["10D"]
    assert set(Character.objects.values_list("name", flat=True)) == {"Zed", "Yum"}


def test_the_countdown_holds_control_until_it_ends_or_the_game_master_opens_it(
    page, django_user_model
) -> None:
    log_in(page, django_user_model)
    user = django_user_model.objects.get(username="gm")
    table = contest_in_play(user, name="Clock", deck_mode="physical")
    page.goto(table.get_absolute_url())
    panel = page.locator("#table-panel")
    take = panel.locator(".take-control")
    drinks = take.get_by_role("button", name="2 drinks")
    expect(drinks).to_be_disabled()
    expect(panel.locator(".countdown-text")).to_contain_text(re.compile(r"in 0:5\d"))

    # The game master opens it early; the narration typed so far goes with the move.
    take.get_by_role("button", name="Game master: open now").click()
    expect(drinks).to_be_enabled()
    panel.locator("#narration").fill("Zed trips over the pie cart.")
    drinks.click()
    expect(panel.locator(".control-panel h2")).to_have_text("Yum (Bo) controls the story")
    story = panel.locator(".story")
    expect(story).to_contain_text("Zed trips over the pie cart.")
    expect(story).to_contain_text("Yum (Bo) takes 2 drinks and takes control of the story.")
    expect(panel.locator("#narration")).to_have_value("")
    assert reading.live_moves(table)[-1].text == "Zed trips over the pie cart."
