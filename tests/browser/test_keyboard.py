"""The table by keyboard and screen reader: after a move the keyboard is on the first legal
move (or the narration box), never back on <body>; a live region says what just happened;
each shortcut shown does what its label says."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.services import new_tables
from tests.browser.helpers import log_in, wait_for
from tests.tables import contest_in_play


def press(page, key: str) -> None:
    """A key that plays a move; back once the new panel has settled (htmx made its forms
    live) and the keyboard has left <body>."""
    seq = page.locator("#table-panel").get_attribute("data-seq")
    page.keyboard.press(key)
    wait_for(
        page,
        "(seq) => { const p = document.getElementById('table-panel');"
        " return p && p.dataset.seq !== seq && !document.querySelector("
        "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
        " && document.activeElement !== document.body; }",
        arg=seq,
    )


def focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e === document.body ? 'BODY' : (e.id || e.textContent.trim()); }"
    )


def test_amnesia_by_keyboard_alone(page, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(
        gm, "amnesia", ["Ana", "Bruno"], seed=4, options={"finale_factor": 0}
    )
    page.goto(table.get_absolute_url())
    panel = page.locator("#table-panel")
    heading = panel.locator(".actions h2")
    live = page.locator("#move-announcer")
    expect(live).to_have_attribute("aria-live", "polite")

    press(page, "c")  # "Continue the story  C"
    expect(heading).to_have_text("Ana narrates")
    expect(live).to_have_text("Ana continues the story and narrates a scene.")
    assert focused(page) == "narration"  # the box to type the scene in
    page.keyboard.type("She wakes.")
    page.keyboard.press("Escape")
    press(page, "e")  # "End the scene  E"
    expect(heading).to_have_text("Bruno’s turn")
    expect(live).to_have_text("Ana ends the scene.")
    assert re.match("Continue the story", focused(page))  # Bruno's first move

    press(page, "f")  # "Flashback  F": the room can be remembered after it
    expect(heading).to_have_text("Bruno tells a memory")
    page.keyboard.press("Escape")
    press(page, "e")
    expect(heading).to_have_text("Ana’s turn")
    press(page, "r")  # "Remember the room  R"
    expect(live).to_have_text("Ana remembers the room: the finale opens.")
    page.keyboard.press("Escape")
    press(page, "e")
    expect(heading).to_have_text("Bruno’s turn")

    # "End the story  E": everyone agrees (ticked from the keyboard too), E ends it.
    for name in ("Ana", "Bruno"):
        panel.locator(".end-story").get_by_label(name).check()
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    press(page, "e")
    expect(heading).to_have_text("The story is over")
    # Over: the keyboard is on the way on, the book, not on an undo.
    assert focused(page) == "Make the book"

    # "Undo  U" names the move it takes back before it does.
    page.locator(".undo-after-end summary").click()
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.keyboard.press("u")
    expect(heading).to_have_text("Bruno’s turn")
    assert asked == ["Undo the last move? It takes back: The story ends."]
    expect(live).to_have_text(re.compile(r"^Move \d+ was taken back\.$"))


def test_a_live_region_in_the_other_games(page, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    contest = contest_in_play(gm, seed=3)
    page.goto(contest.get_absolute_url())
    page.get_by_role("button", name="Game master: open now").click()
    page.get_by_role("button", name="2 drinks").click()
    expect(page.locator("#move-announcer")).to_contain_text("takes control of the story")
    assert focused(page) == "narration"  # Yum's turn to tell
