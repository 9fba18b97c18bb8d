"""A phone after the last move, for every game with seat pages (from the registry), on a
phone-sized screen in the table's language (Japanese): its seat page follows the last move to
the way to the player's impressions, shows no way into the rest of the site, and the
impressions go in with no rating given."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import registry
from games.models import Table
from games.playtests.models import RATINGS, Impression
from games.services import new_tables, writing
from tests.browser.helpers import end_revealed, log_in
from tests.browser.journeys2 import QUICK_POLLS
from tests.games.long_games import ended_game

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits() if kit.seat_page])
def test_a_phone_goes_from_the_last_move_to_its_impressions(
    slug, browser, transactional_db, live_server, django_user_model
) -> None:
    gm = django_user_model.objects.create_user(username="gm", password="unused-here-1")
    script = next(
        script
        for _name, script in registry.kit(slug).demos(datetime.now(UTC))
        if new_tables.import_script(script, gm).status == Table.Status.FINISHED
    )
    *moves, last = [{k: v for k, v in m.items() if k != "at"} for m in script["moves"]]
    table = new_tables.import_script({**script, "moves": moves}, gm)
    table.language = "ja"
    table.save(update_fields=["language"])
    seat = table.seats.order_by("position").first()

    phone = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    phone.set_default_timeout(10_000)
    # The phone asks every 0.4 s, not 3 s (the journeys' QUICK_POLLS): the same poll that
    # brings the last move, only sooner.
    phone.add_init_script(QUICK_POLLS)
    try:
        page = phone.new_page()
        page.goto(reverse(registry.kit(slug).seat_page, args=[seat.token]))
        header = page.locator(".site-header")
        expect(header).to_contain_text("Amnesia Table")  # the site's name, in every language
        expect(header.get_by_role("link")).to_have_count(0)
        expect(header).not_to_contain_text("ログイン")
        impressions = page.get_by_role("link", name="あなたの感想")
        expect(impressions).to_have_count(0)

        writing.play_many(table, [last], None, gm)  # the game's last move, made at the laptop
        if slug == "amnesia_stories":
            # Amnesia Stories shows the room its end step by step (the last story's reveal):
            # the phone follows the last move, and leads on only once the laptop has opened
            # the reveal's last step.
            expect(page.get_by_test_id("seat-wait")).to_be_visible()
            expect(impressions).to_have_count(0)
            end_revealed(table)
        impressions.click(timeout=10_000)  # once the page has followed it by itself

        expect(page.get_by_role("heading", level=1)).to_contain_text("ゲームはいかがでしたか")
        expect(header.get_by_role("link")).to_have_count(0)
        page.locator("textarea[name=change]").fill("もっと長く遊びたい")
        page.get_by_role("button", name="感想を送信").click()
        expect(page.locator(".flash").first).to_contain_text("感想を保存しました")
        impression = Impression.objects.get(report__table=table)
        assert impression.player == seat.name and impression.change == "もっと長く遊びたい"
        assert impression.ratings() == dict.fromkeys(dict(RATINGS))
    finally:
        phone.close()


MOVE_FORMS = "form:has(input[name=expected_seq])"  # a move form ({% moveform %}), no other


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits() if kit.seat_page])
def test_every_phone_follows_an_undo_after_the_end(
    slug, browser, transactional_db, live_server, django_user_model
) -> None:
    """The game master takes the last move back on the finished table's page: every phone
    leaves the end by itself (no way to its player's impressions any more), and a move is
    offered again on the phones, without a reload."""
    laptop = browser.new_context(base_url=live_server.url)
    laptop.set_default_timeout(10_000)
    phones = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    phones.set_default_timeout(10_000)
    phones.add_init_script(QUICK_POLLS)  # the same poll that brings the undo, only sooner
    try:
        gm_page = laptop.new_page()
        gm = log_in(gm_page, django_user_model)
        # A game played to its end by the game's bots, imported as played (no browser).
        table = new_tables.import_script(ended_game(slug), gm)
        assert table.status == Table.Status.FINISHED
        end_revealed(table)
        seat_page = registry.kit(slug).seat_page
        pages = []
        for seat in table.seats.order_by("position"):
            page = phones.new_page()
            page.goto(reverse(seat_page, args=[seat.token]))
            expect(page.get_by_test_id("seat-impressions")).to_be_visible()
            expect(page.locator(MOVE_FORMS)).to_have_count(0)
            pages.append(page)

        gm_page.goto(table.get_absolute_url())
        gm_page.once("dialog", lambda dialog: dialog.accept())
        gm_page.locator("details.undo-after-end summary").click()
        gm_page.locator('form[action$="/undo/"] button').click()
        expect(gm_page.locator("details.undo-after-end")).to_have_count(0)

        # Every phone, by itself, is back in the game; the move taken back is offered again.
        for page in pages:
            expect(page.get_by_test_id("seat-impressions")).to_have_count(0)
        assert sum(page.locator(MOVE_FORMS).count() for page in pages) > 0
    finally:
        phones.close()
        laptop.close()
