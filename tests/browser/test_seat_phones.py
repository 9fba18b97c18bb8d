"""Seat pages on phones, in Chromium: three players answer one Amnesia Stories turn at the
same time, each in their own browser, and no pick shows in any other browser before the turn
is judged; an Amnesia player makes their turn's choice and narrates from a phone-sized
screen."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.amnesia_stories.modes import PHONES
from games.models import Table
from games.rules import get_game
from games.services import new_tables, reading, writing
from tests.browser.journeys2 import QUICK_POLLS

PHONE = {"width": 390, "height": 844}


def phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    # Asking every 0.4 s, not 3 s (the journeys' QUICK_POLLS): the same poll, only sooner.
    context.add_init_script(QUICK_POLLS)
    return context, context.new_page()


def owner():
    return get_user_model().objects.create_user(username="gm", password="x-long-passphrase")


def test_three_phones_answer_one_turn_at_once_and_in_secret(browser, transactional_db, live_server):
    players = ["Ana", "Bruno", "Caio"]
    table = new_tables.create_table(
        owner(),
        "amnesia_stories",
        players,
        options={"choices": 3, "questions": 2, "rounds": 1},
        seed=7,
        extra={"answer_mode": PHONES},
    )
    state = reading.state_of(table)
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    writing.play_many(table, [tell], table.last_seq)
    picks = {"Ana": ("1", "2"), "Bruno": ("2", "3"), "Caio": ("3", "1")}
    phones = {}
    try:
        # All three open their page before anyone answers.
        for name in players:
            context, page = phone(browser, live_server)
            phones[name] = (context, page)
            page.goto(f"/seat/{table.seats.get(name=name).token}/stories/")
            expect(page.get_by_role("button", name="Send my secret answer")).to_be_visible()
        # Each chooses their numbers (none sent yet), then the first two send.
        for name in players:
            page = phones[name][1]
            for step, number in enumerate(picks[name], start=1):
                page.locator(f'input[name="pick-{step}"][value="{number}"]').check()
        for name in players[:2]:
            page = phones[name][1]
            page.get_by_role("button", name="Send my secret answer").click()
            expect(page.get_by_test_id("answer-sent")).to_be_visible()
        # Caio's page, drawn before the others answered, follows the table by itself and
        # says who has answered; no other pick is on any page.
        caio = phones["Caio"][1]
        expect(caio.get_by_test_id("who-answered")).to_contain_text("Bruno ✓")
        for name in players:
            page = phones[name][1]
            html = page.content()
            assert "_picks" not in html and '"picks"' not in html
            if name != "Caio":
                assert page.locator("input[type=radio]:checked").count() == 0
        # The refresh kept Caio's half-made choice: he only sends it.
        for step, number in enumerate(picks["Caio"], start=1):
            expect(caio.locator(f'input[name="pick-{step}"][value="{number}"]')).to_be_checked()
        caio.get_by_role("button", name="Send my secret answer").click()
        # The last answer judges the turn: the next bard tells, nobody has anything to answer.
        expect(caio.get_by_test_id("seat-wait")).to_be_visible()
        fresh = Table.objects.get(pk=table.pk)
        answers = [
            (m.payload["by"], m.payload["picks"]) for m in fresh.moves.filter(payload__do="answer")
        ]
        assert sorted(answers) == [("Ana", [1, 2]), ("Bruno", [2, 3]), ("Caio", [3, 1])]
        assert reading.state_of(fresh)["phase"] != "answer"
    finally:
        for context, _page in phones.values():
            context.close()


def test_an_amnesia_turn_from_a_phone(browser, transactional_db, live_server):
    table = new_tables.create_table(owner(), "amnesia", ["Ana", "Bruno"], seed=7)
    ana = table.seats.get(name="Ana").token
    context, page = phone(browser, live_server)
    try:
        page.goto(f"/seat/{ana}/amnesia/")
        expect(page.get_by_test_id("my-tokens")).to_have_text("You have 10 tokens")
        # Keyboard-friendly: the turn's choice is a real button, reached and pressed by keys.
        button = page.get_by_role("button", name="Continue the story (pay 1 to the bank)")
        button.focus()
        page.keyboard.press("Enter")
        narration = page.get_by_label("Narration of this scene")
        expect(narration).to_be_visible()
        expect(page.get_by_test_id("my-tokens")).to_have_text("You have 9 tokens")
        # Nothing overflows the phone's width.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        narration.fill("She looks at her hands.")
        # Bruno suggests from his phone meanwhile: Ana's page follows the table by itself and
        # what she was typing stays.
        fresh = Table.objects.get(pk=table.pk)
        marker = get_game("amnesia").turn_marker(reading.state_of(fresh))
        suggestion = {"by": "Bruno", "do": "suggest", "text": "A knock at the door."}
        writing.play_many(fresh, [suggestion], 0, expected_turn=marker)
        expect(page.locator(".seat-story")).to_contain_text("A knock at the door.")
        expect(narration).to_have_value("She looks at her hands.")
        # Bruno pays to insist: Ana's page shows her answer, with no narration box. Once she
        # accepts, the box is back with what she had typed (the panels between had no box to
        # carry it in), and a reload keeps it too.
        fresh = Table.objects.get(pk=table.pk)
        insist = {"by": "Bruno", "do": "insist", "text": "The door opens."}
        writing.play_many(fresh, [insist], fresh.last_seq)
        accept = page.get_by_role("button", name="Accept (take the token)")
        expect(accept).to_be_visible()
        expect(narration).to_have_count(0)
        accept.tap()
        expect(narration).to_have_value("She looks at her hands.")
        page.reload()
        expect(narration).to_have_value("She looks at her hands.")
        narration.press("End")
        narration.type(" She opens the door.")
        page.get_by_role("button", name="End the scene").tap()
        expect(page.locator(".seat-story")).to_contain_text(
            "She looks at her hands. She opens the door."
        )
        fresh = Table.objects.get(pk=table.pk)
        assert [(m.payload["by"], m.payload["do"]) for m in fresh.moves.order_by("seq")] == [
            ("Ana", "continue"),
            ("Bruno", "suggest"),
            ("Bruno", "insist"),
            ("Ana", "accept"),
            ("Ana", "end_scene"),
        ]
        # What the page sends is kept no longer: Ana's suggestion, sent, leaves her box empty.
        writing.play_many(fresh, [{"by": "Bruno", "do": "continue"}], fresh.last_seq)
        box = page.get_by_label("Suggestion")
        box.fill("A cat in the hall.")
        page.get_by_role("button", name="Suggest", exact=True).tap()
        expect(page.locator(".seat-story")).to_contain_text("A cat in the hall.")
        page.reload()
        expect(box).to_have_value("")
    finally:
        context.close()
