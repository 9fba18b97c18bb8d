"""Amnesia Stories' answer timer in Chromium on a fake clock: it counts down on the table page
and the projector alike, keeps its time across a reload, and at zero only says so."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.services import new_tables, reading, writing
from tests.browser.helpers import log_in


def test_the_answer_timer_counts_down_everywhere_and_never_answers(page, django_user_model):
    log_in(page, django_user_model)
    user = django_user_model.objects.get(username="gm")
    table = new_tables.create_table(user, "amnesia_stories", ["Ana", "Bruno", "Caio"])
    state = reading.state_of(table)
    writing.play_many(
        table, [{"by": state["bard"], "do": "tell", "story": state["journey"][:3]}], None, user
    )

    page.clock.install()
    page.goto(table.get_absolute_url())
    timer = page.get_by_test_id("answer-timer").locator(".answer-timer-text")
    expect(timer).to_have_text(re.compile(r"Time to answer: 0:5\d|Time to answer: 1:00"))
    page.clock.fast_forward("00:30")
    expect(timer).to_have_text(re.compile(r"Time to answer: 0:[23]\d"))
    # a reload (another screen) shows the same time left: the start is the server's
    page.reload()
    timer = page.get_by_test_id("answer-timer").locator(".answer-timer-text")
    expect(timer).to_have_text(re.compile(r"Time to answer: 0:[23]\d"))
    projector = page.context.new_page()
    projector.clock.install()
    projector.goto(f"/tables/{table.pk}/projector/")
    shown = projector.get_by_test_id("answer-timer").locator(".answer-timer-text")
    expect(shown).to_have_text(re.compile(r"Time to answer: 0:5\d|Time to answer: 1:00"))
    projector.clock.fast_forward("00:30")  # the projector's own clock, 30 s on as well
    expect(shown).to_have_text(re.compile(r"Time to answer: 0:[23]\d"))

    page.clock.fast_forward("00:40")
    expect(timer).to_have_text("Time is up: finish your answers (no answer is sent for anyone).")
    expect(page.get_by_test_id("answer-timer")).to_have_class(re.compile(r"\bdone\b"))
    page.clock.fast_forward("02:00")
    table.refresh_from_db()
    after = reading.state_of(table)
    assert after["phase"] == "answer" and after["answered"] == []
