"""The narrator's countdown in Chromium, on a fake clock (Playwright's ``page.clock``): it
stands still while a contest is played, and runs on from where it stopped once it is over."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from games.services import writing
from tests.browser.helpers import log_in
from tests.tables import contest_in_play


def test_the_countdown_stands_still_during_a_contest(page, django_user_model) -> None:
    log_in(page, django_user_model)
    user = django_user_model.objects.get(username="gm")
    began = timezone.now() - timedelta(seconds=20)
    table = contest_in_play(user, deck_mode="physical", at=began)
    challenge = {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "darts"}
    writing.play_many(table, [{**challenge, "attribute": "moves", "named": True}], None)

    page.clock.install()
    page.goto(table.get_absolute_url())
    clock = page.get_by_test_id("control-clock")
    expect(clock).to_contain_text(
        re.compile(r"stands still while the contest is played: 0:4\d left")
    )
    shown = clock.inner_text()
    page.clock.fast_forward("05:00")  # a long contest: nothing moves
    page.wait_for_timeout(300)  # timing: the countdown's next ticks, which must change nothing
    assert clock.inner_text() == shown
    # another screen (a reload) shows the same
    page.reload()
    expect(page.get_by_test_id("control-clock")).to_have_text(shown)

    # The contest ends: the clock runs again from the 40-odd seconds it had left.
    writing.play_many(table, [{"by": "Bo", "do": "forfeit", "penalty": "drink"}], None)
    page.reload()
    panel = page.locator("#table-panel")
    drinks = panel.locator(".take-control").get_by_role("button", name="2 drinks")
    expect(panel.locator(".countdown-text")).to_contain_text(re.compile(r"in 0:[34]\d"))
    expect(drinks).to_be_disabled()
    page.clock.fast_forward("00:30")
    expect(panel.locator(".countdown-text")).to_contain_text(re.compile(r"in 0:[01]\d"))
    expect(drinks).to_be_disabled()
    page.clock.fast_forward("00:20")
    expect(panel.locator(".countdown-text")).to_have_text("Others may take control now.")
    expect(drinks).to_be_enabled()
