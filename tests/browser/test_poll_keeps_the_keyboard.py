"""A table page that follows moves made elsewhere (the phones) leaves the keyboard where it is,
in Chromium. It used to hand it to the first move of each panel the poll brought, as if the
game master had played: in an Amnesia challenge that is the stakes' "Side" select, and a page
whose select has the keyboard waits for it before refreshing (live.js), so the laptop stopped
following the phones for the rest of the challenge (found by the whole-evening journey)."""

from __future__ import annotations

from playwright.sync_api import expect

from games.services import new_tables, writing

from .journeys2 import caught_up, laptop


def test_the_laptop_follows_a_challenge_played_on_the_phones(
    browser, transactional_db, live_server, django_user_model
) -> None:
    context, page, gm = laptop(browser, live_server, django_user_model, "en")
    try:
        table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno", "Caio"], seed=3)
        writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
        page.goto(f"/tables/{table.pk}/")
        heading = page.locator("#table-panel .actions h2")
        expect(heading).to_have_text("Ana narrates")
        page.locator("#table-panel").click(position={"x": 2, "y": 2})  # the keyboard on nothing

        # Bruno insists and Ana refuses, on their phones: the laptop follows into the challenge
        # and the keyboard stays where the game master left it.
        for move in ({"by": "Bruno", "do": "insist"}, {"by": "Ana", "do": "refuse"}):
            writing.play_many(table, [move], table.last_seq, gm)
            table.refresh_from_db()
        expect(heading).to_have_text("Challenge: Ana against Bruno")
        caught_up(page, table)
        assert page.evaluate("() => document.activeElement.tagName") != "SELECT"

        # Caio joins from his phone: the laptop follows that too.
        writing.play_many(table, [{"by": "Caio", "do": "join"}], table.last_seq, gm)
        caught_up(page, table)
        expect(page.locator("#table-panel .pot")).to_contain_text("Caio")
    finally:
        context.close()
