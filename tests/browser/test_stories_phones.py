"""An Amnesia Stories player answering on their own phone (issue 26, items 8 and 4), in
Chromium: the numbers chosen survive a refusal and a reload on that phone, are forgotten once
sent, and are never kept by the shared pass-the-laptop screen; the phone shows the answer
timer the laptop and the projector show."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.amnesia_stories.modes import PHONES
from games.services import new_tables, reading, writing
from tests.browser.helpers import log_in, wait_for

PHONE = {"width": 390, "height": 844}
PICKS_IN_STORAGE = (
    "() => Object.keys(localStorage).filter(k => k.startsWith('stories-picks-')).length"
)
NO_PICKS_STORED = "() => !Object.keys(localStorage).some(k => k.startsWith('stories-picks-'))"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def told(owner, **extra):
    table = new_tables.create_table(
        owner,
        "amnesia_stories",
        ["Ana", "Bruno", "Caio"],
        options={"choices": 3, "questions": 2, "rounds": 1},
        seed=7,
        extra=extra,
    )
    state = reading.state_of(table)
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    writing.play_many(table, [tell], table.last_seq)
    player = next(name for name in state["seats"] if name != state["bard"])
    return table, player


def chosen(page) -> list[str]:
    return [
        page.locator(f'input[name="pick-{step}"]:checked').get_attribute("value") for step in (1, 2)
    ]


def choose(page, *numbers: int) -> None:
    for step, number in enumerate(numbers, start=1):
        page.locator(f'input[name="pick-{step}"][value="{number}"]').check()


def test_a_phones_picks_survive_a_refusal_and_a_reload_and_stay_on_it(
    browser, page, django_user_model, live_server
) -> None:
    gm = log_in(page, django_user_model)
    table, player = told(gm, answer_mode=PHONES)
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    phone = context.new_page()
    try:
        phone.goto(f"/seat/{table.seats.get(name=player).token}/stories/")
        send = phone.get_by_role("button", name="Send my secret answer")
        # Two steps on one number: the referee refuses, and the numbers stay chosen.
        choose(phone, 2, 2)
        with phone.expect_response(lambda r: r.request.method == "POST" and r.status == 400):
            send.click()
        expect(phone.get_by_role("alert")).to_be_visible()
        assert chosen(phone) == ["2", "2"]
        # A reload mid-answer keeps them too.
        choose(phone, 3, 2)
        phone.reload()
        expect(send).to_be_visible()
        assert chosen(phone) == ["3", "2"]
        # Sent: the answer is in, and the phone forgets the numbers.
        send.click()
        expect(phone.get_by_test_id("answer-sent")).to_be_visible()
        wait_for(phone, NO_PICKS_STORED)  # once the new panel has settled
        answers = [m.payload for m in table.moves.filter(payload__do="answer")]
        assert answers == [{"by": player, "do": "answer", "picks": [3, 2]}]

        # The shared pass-the-laptop screen (here on the same browser, the worst case) keeps
        # nothing: a refused answer there comes back empty, and nothing is stored.
        laptop_table, name = told(gm)
        log_in(phone, django_user_model, username="gm2")
        laptop_table.owner = type(gm).objects.get(username="gm2")
        laptop_table.save(update_fields=["owner"])
        position = laptop_table.seats.get(name=name).position
        phone.goto(f"/tables/{laptop_table.pk}/pass/{position}/answer/")
        choose(phone, 1, 1)
        with phone.expect_response(lambda r: r.request.method == "POST" and r.status == 400):
            phone.get_by_role("button", name=re.compile("answer", re.I)).last.click()
        expect(phone.get_by_role("alert")).to_be_visible()
        assert phone.locator("input[type=radio]:checked").count() == 0
        assert phone.evaluate(PICKS_IN_STORAGE) == 0
    finally:
        context.close()


def test_a_phone_shows_the_answer_timer(page, django_user_model) -> None:
    gm = django_user_model.objects.create_user(username="gm", password="x-long-passphrase")
    table, player = told(gm, answer_mode=PHONES)
    page.set_viewport_size(PHONE)
    page.clock.install()
    page.goto(f"/seat/{table.seats.get(name=player).token}/stories/")
    timer = page.get_by_test_id("answer-timer").locator(".answer-timer-text")
    expect(timer).to_have_text(re.compile(r"Time to answer: (0:5\d|1:00)"))
    page.clock.fast_forward("00:30")  # the same end time as the laptop's and the projector's
    expect(timer).to_have_text(re.compile(r"Time to answer: 0:[23]\d"))
