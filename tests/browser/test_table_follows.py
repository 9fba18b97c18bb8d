"""The laptop and the phones at one table (issue 26), in two browser contexts: the Amnesia
laptop keeps following the table while its narration box has the keyboard, and an undone
"End the scene" brings its narration back into the box."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from tests.browser.helpers import PASSWORD, click_and_wait_for_swap

PHONE = {"width": 390, "height": 844}


def laptop_and_phone(browser, live_server):
    gm = get_user_model().objects.create_user(username="gm", password=PASSWORD)
    laptop = browser.new_context(base_url=live_server.url)
    laptop.set_default_timeout(10_000)
    page = laptop.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("gm")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("current-user")).to_have_text("gm")
    phone = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    phone.set_default_timeout(10_000)
    return gm, laptop, page, phone, phone.new_page()


CARET = (
    "() => { const b = document.getElementById('narration');"
    " return [document.activeElement === b, b.selectionStart, b.selectionEnd]; }"
)


def test_a_phone_suggestion_reaches_the_laptop_while_the_narrator_types(
    browser, transactional_db, live_server
) -> None:
    gm, laptop, page, phone, bruno = laptop_and_phone(browser, live_server)
    try:
        table = services.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=3)
        page.goto(f"/tables/{table.pk}/")
        panel = page.locator("#table-panel")
        panel.get_by_role("button", name=re.compile("Continue the story")).click()
        box = page.locator("#narration")
        # The app puts the keyboard in the box after the move; the narrator types, then puts
        # the caret back inside the sentence to fix a word.
        expect(box).to_be_focused()
        page.keyboard.type("She opens the door. Rain.")
        page.evaluate("() => document.getElementById('narration').setSelectionRange(4, 9)")
        assert page.evaluate(CARET) == [True, 4, 9]

        bruno.goto(f"/seat/{table.seats.get(name='Bruno').token}/amnesia/")
        bruno.locator("#seat-suggestion").fill("A knock at the door.")
        with bruno.expect_response(lambda r: r.request.method == "POST"):
            bruno.get_by_role("button", name="Suggest", exact=True).click()

        # The laptop follows by itself (its poll), the box still holding the keyboard.
        expect(page.locator(".story")).to_contain_text("A knock at the door.")
        expect(box).to_have_value("She opens the door. Rain.")
        assert page.evaluate(CARET) == [True, 4, 9]
        # Typing goes on where it was: the selected word is replaced.
        page.keyboard.type("shuts")
        expect(box).to_have_value("She shuts the door. Rain.")
        # And what is typed reaches the server's draft from the new box: the save that carries
        # it (on a slow machine the pause after "shuts" may pass first, and its own save,
        # without " Thunder.", is not the one to wait for).
        page.keyboard.press("Control+End")
        with page.expect_response(
            lambda r: (
                r.url.endswith("/draft/") and r.ok and " Thunder." in (r.request.post_data or "")
            )
        ):
            page.keyboard.type(" Thunder.")
        table.refresh_from_db()
        assert table.draft == "She shuts the door. Rain. Thunder."
    finally:
        laptop.close()
        phone.close()


def test_undoing_end_the_scene_brings_its_narration_back(
    browser, transactional_db, live_server
) -> None:
    gm, laptop, page, phone, _ = laptop_and_phone(browser, live_server)
    phone.close()
    try:
        table = services.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=3)
        services.play(table, {"by": "Ana", "do": "continue"}, 0, gm)
        page.goto(f"/tables/{table.pk}/")
        page.locator("#narration").fill("Blood on the tiles, none of it hers.")
        click_and_wait_for_swap(page.get_by_role("button", name=re.compile("End the scene")))
        expect(page.locator(".story")).to_contain_text("Blood on the tiles")
        expect(page.locator("#narration")).to_have_count(0)
        page.once("dialog", lambda dialog: dialog.accept())  # "Undo the last move?"
        click_and_wait_for_swap(page.get_by_role("button", name=re.compile("Undo")))
        expect(page.locator("#narration")).to_have_value("Blood on the tiles, none of it hers.")
        page.reload()
        expect(page.locator("#narration")).to_have_value("Blood on the tiles, none of it hers.")
    finally:
        laptop.close()
