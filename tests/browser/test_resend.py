"""A move whose answer is lost on the way back: the page keeps the move's id, and the second
click is a resend that the server answers with what it stored (static/js/moves.js)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import Move
from games.services import new_tables
from tests.browser.helpers import log_in, wait_for

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def test_a_move_whose_answer_was_lost_is_sent_again_and_stored_once(page, django_user_model):
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno", "Caio"], seed=7)
    page.goto(table.get_absolute_url())
    panel = page.locator("#table-panel")
    lost = []

    def drop_the_answer(route) -> None:
        route.fetch()  # the server gets the move and answers...
        lost.append(route.request.post_data)
        route.abort("connectionreset")  # ...but the answer never reaches the page

    page.route("**/move/", drop_the_answer, times=1)
    continue_button = panel.get_by_role("button", name=re.compile("Continue the story"))
    with page.expect_event("requestfailed", lambda r: r.url.endswith("/move/")):
        continue_button.click()
    # and htmx hears of the dropped connection: the request's mark leaves the page
    wait_for(page, "() => !document.querySelector('.htmx-request')")
    assert len(lost) == 1 and Move.objects.count() == 1
    first_id = Move.objects.get().client_id
    assert UUID.fullmatch(first_id), "the page's script names each submission"
    # The page still shows the old position; the player clicks again.
    continue_button.click()
    expect(panel.locator(".actions h2")).to_have_text("Ana narrates")
    # the stored answer, not "the table has moved on" (a new id would have been a 409)
    expect(page.get_by_role("alert")).to_have_count(0)
    assert Move.objects.count() == 1 and Move.objects.get().client_id == first_id
    # A new move from the fresh panel gets an id of its own.
    panel.get_by_role("button", name=re.compile("End the scene")).click()
    expect(panel.locator(".actions h2")).to_have_text("Bruno’s turn")
    ids = list(Move.objects.order_by("seq").values_list("client_id", flat=True))
    assert len(ids) == 2 and ids[0] == first_id and UUID.fullmatch(ids[1]) and ids[1] != first_id
