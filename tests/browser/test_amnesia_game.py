"""A short Amnesia game played by clicking in Chromium: continue, flashback, a paid
suggestion refused into a challenge played to its end, a pass."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import Table
from games.services import new_tables, reading, writing
from tests.browser.helpers import log_in


def test_play_a_short_game_by_clicking(page, django_user_model) -> None:
    log_in(page, django_user_model)
    page.goto("/tables/new/?game=amnesia")
    page.get_by_label("Table name").fill("Room 714")
    page.get_by_label(re.compile("Players, in seat order")).fill("Ana\nBruno\nCaio")
    # A cap of 20: whatever the challenge leaves Ana with, she may still pass at the end.
    page.get_by_label("A pass may take tokens only while you end below").fill("20")
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", name="Room 714")).to_be_visible()
    panel = page.locator("#table-panel")
    moves_heading = panel.locator(".actions h2")
    expect(moves_heading).to_have_text("Ana’s turn")

    # Ana continues the story and narrates it.
    panel.get_by_role("button", name=re.compile("Continue the story")).click()
    expect(moves_heading).to_have_text("Ana narrates")
    page.locator("#narration").fill("She wakes with blood on her hands.")
    panel.get_by_role("button", name=re.compile("End the scene")).click()
    expect(moves_heading).to_have_text("Bruno’s turn")

    # Bruno tells a memory that awakens an ability.
    panel.get_by_label(re.compile("Abilities it awakens")).fill("surgery")
    panel.get_by_role("button", name=re.compile("Flashback")).click()
    expect(moves_heading).to_have_text("Bruno tells a memory")
    expect(panel.locator(".memory")).to_contain_text("surgery")
    page.locator("#narration").fill("An operating theatre, bright as noon.")
    page.keyboard.press("Escape")
    page.keyboard.press("e")  # the keyboard shortcut for "End the scene"
    expect(moves_heading).to_have_text("Caio’s turn")

    # Caio narrates; Ana pays to insist; Caio refuses: a challenge.
    panel.get_by_role("button", name=re.compile("Continue the story")).click()
    panel.get_by_label("Who").select_option("Ana")
    panel.get_by_label("Suggestion").fill("She jumps out of the window.")
    panel.get_by_role("button", name=re.compile("Insist")).click()
    expect(moves_heading).to_have_text("Ana pays 1 token to insist")
    expect(panel.locator("blockquote")).to_have_text("She jumps out of the window.")
    panel.get_by_role("button", name=re.compile("Refuse")).click()
    expect(moves_heading).to_have_text("Challenge: Caio against Ana")
    panel.get_by_role("button", name=re.compile("turns the first card")).click()
    expect(panel.get_by_text("Card to beat")).to_be_visible()

    # Played to its end: guesses and quits until one is left (the seeded deck decides).
    for _ in range(30):
        if panel.get_by_text("Card to beat").count() == 0:
            break
        seq = int(panel.get_attribute("data-seq"))
        goes = panel.get_by_role("button", name=re.compile("Higher"))
        if goes.count() and seq % 3:
            goes.click()
        else:
            panel.get_by_role("button", name=re.compile("Quit")).click()
        expect(panel).not_to_have_attribute("data-seq", str(seq))
    expect(panel.locator(".result")).to_contain_text("won the challenge")
    panel.get_by_role("button", name=re.compile("End the scene")).click()

    # Ana passes.
    expect(moves_heading).to_have_text("Ana’s turn")
    panel.get_by_label("Take from the bank").fill("0")
    panel.get_by_role("button", name=re.compile("^Pass")).click()
    expect(moves_heading).to_have_text("Bruno’s turn")

    table = Table.objects.get(name="Room 714")
    state = reading.state_of(table)
    assert state["challenges"] == 1 and state["scenes"] == 2 and state["flashbacks"] == 1
    assert state["abilities"] == ["surgery"]
    assert sum(state["tokens"].values()) + state["bank"] + state["discard"] + state["pot"] == 30
    story = panel.locator(".story")
    expect(story).to_contain_text("She wakes with blood on her hands.")
    expect(story).to_contain_text("An operating theatre, bright as noon.")
    expect(story).to_contain_text("Ana passed")


def test_the_narration_draft_survives_a_reload_and_a_dropped_connection(
    page, django_user_model
) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=4)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    page.goto(f"/tables/{table.pk}/")
    box = page.locator("#narration")

    # Typed while connected: saved to the server too, so another laptop would see it.
    with page.expect_response(lambda r: r.url.endswith("/draft/") and r.ok):
        box.fill("She counts the bodies: two.")
    table.refresh_from_db()
    assert table.draft == "She counts the bodies: two."
    page.reload()
    expect(page.locator("#narration")).to_have_value("She counts the bodies: two.")

    # Typed with the connection down: the browser keeps it until the page comes back.
    page.context.set_offline(True)
    page.locator("#narration").fill("She counts the bodies: two. Then a third, in the bath.")
    # The save was tried and failed: the page says the draft stays in the browser.
    expect(page.locator(".draft-status")).to_contain_text("Offline")
    page.context.set_offline(False)
    table.refresh_from_db()
    assert table.draft == "She counts the bodies: two."  # the server never heard of it
    page.reload()
    expect(page.locator("#narration")).to_have_value(
        "She counts the bodies: two. Then a third, in the bath."
    )
    # Ending the scene files the narration with the move and clears the draft.
    page.get_by_role("button", name=re.compile("End the scene")).click()
    expect(page.locator(".story")).to_contain_text("Then a third, in the bath.")
    table.refresh_from_db()
    assert table.draft == ""
