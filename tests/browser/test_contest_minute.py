"""The narrator's minute on a contest phone (issue 26, item 2), in Chromium with a laptop and
a phone: the phone shows the laptop's countdown, and before the minute is up a take of control
asks first; at a table that keeps the minute strictly the server refuses instead, saying how
long is left. Time is the moves' stored times (set in the test's database), never a wait."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import F
from django.utils import timezone
from playwright.sync_api import expect

from games.contest import minute
from games.models import Move, Table
from games.services import new_tables, reading, writing
from tests.browser.helpers import PASSWORD, log_in_as
from tests.browser.journeys2 import QUICK_POLLS

PHONE = {"width": 390, "height": 844}
# Round-robin deal of 4: Ana 4H 2C 7D AS, Bo 5H 9C 3D KS (a face card: Bo may take control).
DECK = ["4H", "5H", "2C", "9C", "7D", "3D", "AS", "KS", "8D", "6C", "10D", "JH"]


def contest_table(owner, extra=None) -> Table:
    """Ana and Bo have made their characters 8 seconds ago: Ana holds the story, 0:52 left."""
    table = new_tables.create_table(
        owner,
        "contest",
        ["Ana", "Bo"],
        options={"hand_size": 4},
        deck_mode="virtual",
        deck=DECK,
        extra=extra,
    )
    began = timezone.now() - timedelta(seconds=8)
    for by, name in (("Ana", "Zed"), ("Bo", "Yum")):
        move = {"by": by, "do": "character", "name": name}
        move |= {"brains": 3, "muscle": 3, "moves": 3, "coolness": 3}
        writing.play_many(table, [move], None, at=began)
    assert reading.state_of(table)["controller"] == "Ana"
    return table


def device(browser, live_server, **phone):
    context = browser.new_context(base_url=live_server.url, **phone)
    context.set_default_timeout(10_000)
    return context, context.new_page()


LEFT = re.compile(r"Others may take control in 0:[45]\d\.")


def test_a_phone_counts_the_minute_down_and_asks_before_an_early_take(
    browser, transactional_db, live_server
) -> None:
    gm = get_user_model().objects.create_user(username="gm", password=PASSWORD)
    table = contest_table(gm)
    laptop, page = device(browser, live_server)
    laptop.add_init_script(QUICK_POLLS)  # the laptop asks every 0.4 s, not 3 s: it follows sooner
    phone, bo = device(browser, live_server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        log_in_as(page, "gm")
        page.goto(table.get_absolute_url())
        expect(page.get_by_test_id("control-clock")).to_contain_text(LEFT)
        # The phone shows the same countdown as the laptop.
        bo.goto(f"/seat/{table.seats.get(name='Bo').token}/")
        expect(bo.get_by_test_id("control-clock")).to_contain_text(LEFT)
        take = bo.get_by_role("button", name="Play K♠ and take control")

        # Before the minute is up, the phone asks; "no" sends nothing.
        questions: list[str] = []

        def answer(dialog, accept: bool) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        bo.once("dialog", lambda dialog: answer(dialog, False))
        take.tap()
        assert re.fullmatch(
            r"The narrator’s minute is not up \(0:[45]\d left\)\. Take control anyway\?",
            questions[0],
        ), questions
        assert bo.evaluate("() => !document.querySelector('.htmx-request')")
        assert reading.state_of(Table.objects.get(pk=table.pk))["controller"] == "Ana"

        # "Yes": the table judges, the take goes through.
        bo.once("dialog", lambda dialog: answer(dialog, True))
        with bo.expect_response(lambda r: r.request.method == "POST"):
            take.tap()
        assert len(questions) == 2
        expect(bo.locator(".badge.narrator")).to_have_text("you control the story")
        assert reading.state_of(Table.objects.get(pk=table.pk))["controller"] == "Bo"
        # The laptop follows, its countdown started again for Bo.
        expect(page.get_by_test_id("control-clock")).to_contain_text(
            re.compile(r"Others may take control in 0:5\d\.")
        )
    finally:
        laptop.close()
        phone.close()


def test_a_strict_table_refuses_an_early_take_with_the_time_left(
    browser, transactional_db, live_server
) -> None:
    gm = get_user_model().objects.create_user(username="gm", password=PASSWORD)
    table = contest_table(gm, extra={minute.KEY: minute.STRICT})
    phone, bo = device(browser, live_server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        bo.goto(f"/seat/{table.seats.get(name='Bo').token}/")
        expect(bo.get_by_test_id("control-clock")).to_contain_text(LEFT)
        questions: list[str] = []
        bo.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
        take = bo.get_by_role("button", name="Play K♠ and take control")
        with bo.expect_response(lambda r: r.request.method == "POST"):
            take.tap()
        # No question: the server refuses, and says how long is left.
        expect(bo.get_by_role("alert")).to_contain_text(
            re.compile(r"The narrator’s minute is not up \(0:[45]\d left\)")
        )
        assert questions == []
        assert reading.state_of(Table.objects.get(pk=table.pk))["controller"] == "Ana"

        # A minute later (the moves' stored times moved back; the kept story, a cache of
        # the log, is dropped to be told again from them), the same take goes through.
        Move.objects.filter(table=table).update(at=F("at") - timedelta(minutes=1))
        Table.objects.filter(pk=table.pk).update(story_cursor=None)
        bo.reload()
        expect(bo.get_by_test_id("control-clock")).to_contain_text("Others may take control now.")
        with bo.expect_response(lambda r: r.request.method == "POST"):
            bo.get_by_role("button", name="Play K♠ and take control").tap()
        expect(bo.locator(".badge.narrator")).to_have_text("you control the story")
        assert questions == []
    finally:
        phone.close()
