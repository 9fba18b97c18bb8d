"""A contest seat's page on a phone-sized screen in Chromium: tapping a card chooses it (and
plays nothing), the button then names it ("Play 7♦") and a second tap plays it; the
challenged player answers from their own phone; both contestants play at once, each from
their own phone, and both cards count."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Table
from games.services import new_tables, reading

PHONE = {"width": 390, "height": 844}
# A stacked deck: Ana is dealt 4H 2C 7D KS, Bo 5H 9C 3D AS (round-robin from the first seat).
SCRIPT = {
    "game": "contest",
    "players": ["Ana", "Bo"],
    "options": {"hand_size": 4},
    "deck": ["4H", "5H", "2C", "9C", "7D", "3D", "KS", "AS", "8D", "6C", "10D", "JH"],
    "moves": [
        {"by": "Ana", "do": "character", "name": "Zed", "brains": 3, "muscle": 3, "moves": 3,
         "coolness": 3},
        {"by": "Bo", "do": "character", "name": "Yum", "brains": 2, "muscle": 4, "moves": 3,
         "coolness": 3},
        {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "chess match",
         "attribute": "brains"},
    ],
}  # fmt: skip


def phone_page(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    return context, context.new_page()


def test_a_card_is_tapped_then_confirmed_on_a_phone(browser, transactional_db, live_server):
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    table = new_tables.import_script(SCRIPT, owner, name="Chess")
    bo_token = table.seats.get(name="Bo").token
    ana_token = table.seats.get(name="Ana").token
    context, page = phone_page(browser, live_server)
    try:
        # Bo, challenged, accepts from his own phone.
        page.goto(f"/seat/{bo_token}/")
        expect(page.get_by_role("heading", name="You are challenged: your answer")).to_be_visible()
        page.locator('[data-decision="accept"]').get_by_role(
            "button", name=re.compile("Brains")
        ).tap()
        expect(page.locator('[data-decision="accept"]')).to_have_count(0)
        assert reading.state_of(Table.objects.get(pk=table.pk))["phase"] == "contest"

        # Ana's hand, sorted by suit then rank: ♠ K, ♥ 4, ♦ 7, ♣ 2.
        page.goto(f"/seat/{ana_token}/")
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        cards = page.locator(".hand-choice .playing-card")
        expect(cards).to_have_count(4)
        assert [c.get_attribute("data-hand-card") for c in cards.all()] == ["KS", "4H", "7D", "2C"]
        confirm = page.locator(".confirm-card")
        expect(confirm).to_be_disabled()  # nothing chosen yet
        # One tap chooses: nothing is played, the button names the card.
        cards.nth(2).tap()
        expect(confirm).to_have_text("Play 7♦")
        expect(confirm).to_be_enabled()
        expect(confirm).to_be_focused()
        fresh = Table.objects.get(pk=table.pk)
        assert reading.state_of(fresh)["contest"]["played"] == []
        # Another card instead: the button follows.
        cards.nth(3).tap()
        expect(confirm).to_have_text("Play 2♣")
        cards.nth(2).tap()
        expect(confirm).to_have_text("Play 7♦")
        seq = page.locator("#seat-panel").get_attribute("data-seq")
        confirm.tap()
        expect(page.locator("#seat-panel")).not_to_have_attribute("data-seq", seq)
        state = reading.state_of(Table.objects.get(pk=table.pk))
        assert state["contest"]["played"] == ["Ana"] and state["contest"]["cards"]["Ana"][0] == "7D"
        assert len(posts) == 1, posts  # the confirming tap's move; the choosing taps sent none
    finally:
        context.close()


def test_both_contestants_play_at_once_from_their_phones(browser, transactional_db, live_server):
    """The contestants play in any order: two phones drawn at the same version both choose a
    card and confirm it, the second before its page has heard of the first; both are kept."""
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    accepted = {
        **SCRIPT,
        "moves": [*SCRIPT["moves"], {"by": "Bo", "do": "accept", "attribute": "brains"}],
    }
    table = new_tables.import_script(accepted, owner, name="Chess")
    phones = {}
    try:
        for name, card in (("Ana", "7D"), ("Bo", "9C")):
            context, page = phone_page(browser, live_server)
            phones[name] = (context, page)
            page.goto(f"/seat/{table.seats.get(name=name).token}/")
            page.locator(f'.hand-choice [data-hand-card="{card}"]').tap()
            expect(page.locator(".confirm-card")).to_be_enabled()
        seq = phones["Ana"][1].locator("#seat-panel").get_attribute("data-seq")
        assert phones["Bo"][1].locator("#seat-panel").get_attribute("data-seq") == seq
        for name in ("Ana", "Bo"):
            phones[name][1].locator(".confirm-card").tap()
        for name in ("Ana", "Bo"):
            page = phones[name][1]
            expect(page.locator("#seat-panel")).not_to_have_attribute("data-seq", seq)
            expect(page.get_by_text("The table has moved on")).to_have_count(0)
        fresh = Table.objects.get(pk=table.pk)
        plays = {m.payload["by"]: m.payload["card"] for m in fresh.moves.filter(payload__do="play")}
        assert plays == {"Ana": "7D", "Bo": "9C"}
        assert reading.state_of(fresh)["last_contest"]["winner"] == "Bo"  # 2 + 9 against 3 + 7
    finally:
        for context, _page in phones.values():
            context.close()


def test_a_player_reads_their_phone_in_the_language_they_choose(
    browser, transactional_db, live_server
):
    """A seat's page speaks its table's language (Japanese here) until its player picks
    another with the footer's switcher: the choice is posted (not refused as a forged form) and
    the seat's page and its rules then speak Portuguese, on that phone only."""
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    table = new_tables.import_script({**SCRIPT, "language": "ja"}, owner, name="Chess")
    seat = f"/seat/{table.seats.get(name='Ana').token}/"
    context, page = phone_page(browser, live_server)
    other, elsewhere = phone_page(browser, live_server)
    try:
        page.goto(seat)
        expect(page.locator("html")).to_have_attribute("lang", "ja")
        switcher = page.locator(".language-form")
        switcher.locator("select").select_option("pt-br")
        with page.expect_navigation() as sent:
            switcher.locator("button[type=submit]").tap()
        assert sent.value is not None and sent.value.status == 200, sent.value
        assert page.url.endswith(seat), page.url
        expect(page.locator("html")).to_have_attribute("lang", "pt-br")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Ana")
        page.get_by_role("link", name="Regras desta mesa").click()
        expect(page.locator("html")).to_have_attribute("lang", "pt-br")
        # Another phone at the same table still reads it in the table's language.
        elsewhere.goto(seat)
        expect(elsewhere.locator("html")).to_have_attribute("lang", "ja")
    finally:
        context.close()
        other.close()
