"""One full turn of Amnesia Stories played by clicking in Chromium, pass-the-laptop style:
the bard tells, each player gets the privacy screen and picks in secret, then the reveal."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.services import reading
from tests.browser.helpers import log_in, wait_for

PICKS = {"Ana": [1, 2, 3], "Bruno": [1, 2, 4], "Caio": [5, 2, 4]}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    # the card pictures are drawn on first use into a MEDIA_ROOT of the test's own
    settings.MEDIA_ROOT = tmp_path / "media"


def test_one_turn_pass_the_laptop(page, django_user_model) -> None:
    log_in(page, django_user_model)
    page.goto("/tables/new/?game=amnesia_stories")
    page.get_by_label("Table name").fill("Footprints")
    page.get_by_label(re.compile("Players, in seat order")).fill("Ana\nBruno\nCaio")
    # the draft 3 preset fills the options in place; back to the current draft
    page.get_by_role("link", name=re.compile("Draft 3")).click()
    expect(page.locator("[name=opt_choices]")).to_have_value("6")
    page.get_by_role("link", name="Current defaults").click()
    expect(page.locator("[name=opt_choices]")).to_have_value("5")
    page.get_by_role("button", name="Start the table").click()

    panel = page.locator("#table-panel")
    heading = panel.locator(".actions h2")
    expect(heading).to_have_text("Ana is the bard")
    slots = panel.locator(".slots img")
    expect(slots).to_have_count(5)
    wait_for(
        page,
        "() => [...document.querySelectorAll('.slots img')]"
        ".every(i => i.complete && i.naturalWidth > 0)",
    )

    # The bard clicks three footprints, in story order, and narrates.
    journey = panel.locator(".journey-card")
    for i in (3, 0, 4):
        journey.nth(i).click()
    table = Table.objects.get(name="Footprints")
    state = reading.state_of(table)
    story = [state["journey"][i] for i in (3, 0, 4)]
    selects = panel.locator("select[name=story]")
    for i, card in enumerate(story):
        expect(selects.nth(i)).to_have_value(card)
    page.locator("#narration").fill("The hero set out at night and never looked back.")
    panel.get_by_role("button", name=re.compile("Tell the story")).click()
    expect(heading).to_have_text("Everyone answers in secret")
    expect(panel.locator(".story-steps-list li")).to_have_count(3)

    # Pass the laptop: bard first, then clockwise.
    for name in ("Ana", "Bruno", "Caio"):
        page.get_by_role("link", name=f"Hand the laptop to {name}").click()
        expect(page.get_by_role("heading", name=f"Hand the laptop to {name}")).to_be_visible()
        expect(page.locator(".slots")).to_have_count(0)  # nothing to see on the privacy screen
        page.get_by_role("button", name=f"I am {name}").click()
        expect(page.get_by_role("heading", name=f"{name}, your secret answer")).to_be_visible()
        steps = page.locator("fieldset.answer-step")
        for step, pick in enumerate(PICKS[name]):
            steps.nth(step).get_by_role("radio", name=str(pick), exact=True).check()
        page.get_by_role("button", name=re.compile("Hide my answer")).click()
        if name != "Caio":
            expect(page.locator("input[type=radio]:checked")).to_have_count(0)
            page.get_by_role("link", name="Back to the table").click()
            expect(panel.locator(".answer-status .done")).to_contain_text([f"{name} ✓"])

    # The reveal, step by step, opened on the server: N opens the next step; clicks the rest.
    expect(page.locator("#reveal")).to_be_visible()
    steps = page.locator("#reveal .reveal-step")
    expect(steps).to_have_count(4)
    expect(page.locator("#reveal .outcome")).to_have_count(0)
    page.keyboard.press("n")
    expect(steps.nth(0).locator(".outcome")).to_have_text(
        "Some of the audience matched: Ana gets +2."
    )
    steps.nth(1).get_by_role("button", name=re.compile("Open step 2")).click()
    expect(steps.nth(1).locator(".outcome")).to_contain_text("Everyone matched")
    steps.nth(2).get_by_role("button", name=re.compile("Open step 3")).click()
    expect(steps.nth(2).locator(".outcome")).to_have_text("Nobody matched: Ana gets a red card.")
    expect(steps.nth(2).locator(".pick--bard")).to_have_text("3")
    steps.nth(3).get_by_role("button", name=re.compile("Open the points")).click()
    expect(steps.nth(3).locator(".gain-list li")).to_have_text(
        [re.compile(r"Ana\s+\+2 VP"), re.compile(r"Bruno\s+\+2 VP"), re.compile(r"Caio\s+\+1 VP")]
    )

    # The running scoreboard, the next bard, and the story so far.
    rows = page.locator("table.scoreboard tbody tr")
    expect(rows.nth(0).locator("td")).to_have_text(["2", "1"])
    expect(rows.nth(1).locator("td")).to_have_text(["2", "0"])
    expect(rows.nth(2).locator("td")).to_have_text(["1", "0"])
    expect(heading).to_have_text("Bruno is the bard")
    expect(page.locator(".story")).to_contain_text("The hero set out at night")
    table.refresh_from_db()
    state = reading.state_of(table)
    assert state["vp"] == {"Ana": 2, "Bruno": 2, "Caio": 1}
    assert state["history"][0]["picks"] == PICKS and state["history"][0]["story"] == story
