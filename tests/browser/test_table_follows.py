"""The laptop and the phones at one table (issue 26), in two browser contexts: the laptop of
every registered game keeps following the table while its narration box (the frame's) has the
keyboard, and an undone Amnesia "End the scene" brings its narration back into the box."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from games import registry
from games.models import Table
from games.services import new_tables, writing
from tests.browser.helpers import PASSWORD, click_and_wait_for_swap, log_in_as
from tests.browser.journeys2 import QUICK_POLLS

PHONE = {"width": 390, "height": 844}


def laptop_and_phone(browser, live_server):
    gm = get_user_model().objects.create_user(username="gm", password=PASSWORD)
    laptop = browser.new_context(base_url=live_server.url)
    laptop.set_default_timeout(10_000)
    # The laptop asks every 0.4 s, not 3 s (the journeys' QUICK_POLLS): the same poll and
    # refresh around the box that has the keyboard, only sooner.
    laptop.add_init_script(QUICK_POLLS)
    page = laptop.new_page()
    log_in_as(page, "gm")
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
        table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=3)
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
        table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=3)
        writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
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


BOX_KEY = re.compile(r'<textarea id="narration"[^>]*data-draft-key="([^"]*)"')


def box_key(client: Client, table) -> str | None:
    """The key of the narration box the laptop's page shows (None: it shows none)."""
    found = BOX_KEY.search(client.get(table.get_absolute_url()).content.decode())
    return found.group(1) if found else None


def narration_point(gm, slug: str) -> tuple[dict, dict | None]:
    """A point of the game's demos where the laptop shows its narration box: the script up
    to there, and the next move when a seat's page offers it and the same box is still there
    after it (a phone's move while the narrator types), else None (the game has no such move: a
    change outside the log stands in for it). Found by drawing the laptop's page move by
    move, so the test names no game."""
    client = Client()
    client.force_login(gm)
    kit = registry.kit(slug)
    first: dict | None = None
    for _name, script in kit.demos(datetime.now(UTC)):
        moves = [{k: v for k, v in m.items() if k != "at"} for m in script["moves"]]
        table = new_tables.import_script({**script, "moves": []}, gm)
        seats = {s.name: s for s in table.seats.all()} if kit.seat_page else {}
        for i, move in enumerate(moves):
            box = box_key(client, table)
            if box is not None and first is None:
                first = {**script, "moves": moves[:i]}
            seat = seats.get(move.get("by"))
            # The seat's page offers the move: its verb on a button or in a move form.
            offered = (
                box is not None
                and seat is not None
                and f'name="do" value="{move["do"]}"' in client.get(seat_url(seat)).content.decode()
            )
            writing.play_many(table, [move], None, gm)
            if offered and box_key(client, table) == box:
                return {**script, "moves": moves[:i]}, move
    assert first is not None, f"no demo of {slug} shows the laptop its narration box"
    return first, None


def seat_url(seat) -> str:
    return reverse(registry.kit(seat.table.game).seat_page, args=[seat.token])


# The phone sends its move as the seat page's own form would, to the same address (the seat
# panel's move form), with the page's CSRF token: a JSON body, so the test needs no knowledge
# of the game's buttons.
PHONE_MOVE = """async (move) => {
    const form = document.querySelector('#seat-panel input[name=expected_seq]').form;
    const token = document.querySelector('[name=csrfmiddlewaretoken]').value;
    const seq = Number(document.getElementById('seat-panel').dataset.seq);
    const r = await fetch(form.action, {method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
        body: JSON.stringify({move: move, expected_seq: seq})});
    return r.status;
}"""


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_every_laptop_follows_the_phones_while_its_narration_box_has_the_keyboard(
    slug, browser, transactional_db, live_server
) -> None:
    gm, laptop, page, phone, seat_page = laptop_and_phone(browser, live_server)
    try:
        script, move = narration_point(gm, slug)
        table = new_tables.import_script(script, gm)
        page.goto(f"/tables/{table.pk}/")
        box = page.locator("#narration")
        box.click()
        page.keyboard.type("Rain on the window.")
        page.evaluate("() => document.getElementById('narration').setSelectionRange(5, 7)")
        assert page.evaluate(CARET) == [True, 5, 7]

        if move is not None:
            seat = table.seats.get(name=move["by"])
            seat_page.goto(seat_url(seat))
            sent = {k: v for k, v in move.items() if k != "by"}
            assert seat_page.evaluate(PHONE_MOVE, sent) == 200
        else:
            writing.bump_version(table)
        version = Table.objects.get(pk=table.pk).version

        # The laptop draws the table as it now is, by itself, the box keeping the keyboard,
        # what was typed and where the caret was.
        expect(page.locator("[data-poll]")).to_have_attribute(
            "data-version", str(version), timeout=10_000
        )
        expect(box).to_have_value("Rain on the window.")
        assert page.evaluate(CARET) == [True, 5, 7]
        page.keyboard.type("in")
        expect(box).to_have_value("Rain in the window.")
    finally:
        laptop.close()
        phone.close()
