"""Whatever a table page shows in the address bar answers a reload, for every kind of move.

A boosted form used to push the URL it posted to (``/tables/N/move/``, which answered a GET
with 405), one history entry per move. Now the bar keeps the page's own address, a reload
shows the table as it is, and Back leaves the table for the page before it (Forward brings
it back as it is now). One game per test, each move followed by a reload.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.contest.models import Character
from games.models import Table
from games.services import new_tables, reading, writing
from tests.browser.helpers import back_and_forward, log_in, reload_shows
from tests.tables import contest_in_play


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"  # Amnesia Stories draws its cards on first use


def accept_dialogs(page) -> None:
    page.on("dialog", lambda dialog: dialog.accept())


def draft_saves(page) -> list:
    """The page's draft saves (table.js's POSTs to a draft URL), as they are sent. With the
    page's clock installed first (``page.clock.install()``, time still flowing), a test can
    then pass table.js's 800 ms autosave pause at once (``past_the_autosave``)."""
    page.clock.install()
    sent: list = []
    page.on("request", lambda request: sent.append(request) if "/draft/" in request.url else None)
    return sent


def past_the_autosave(page, sent: list, since: int) -> None:
    """Past table.js's autosave pause without waiting it out: the page's clock is moved on a
    second, which fires a save still pending from the typing now (a move should have cancelled
    it); any save sent since the move (``sent[since:]``) is let land before the page is read
    or reloaded, so that what it would bring back shows."""
    page.clock.run_for(1000)
    page.evaluate("0")  # one round trip: a request the timers just sent has been reported
    for request in sent[since:]:
        request.response()


def test_amnesia_every_move_reloads(page, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(
        gm,
        "amnesia",
        ["Ana", "Bruno", "Caio"],
        seed=11,
        # the room may be remembered once a token is discarded: the story can end in the test
        options={"token_cap": 20, "finale_factor": 0},
    )
    path = table.get_absolute_url()
    page.goto("/")
    page.goto(path)
    entries = page.evaluate("history.length")
    accept_dialogs(page)
    panel = page.locator("#table-panel")
    heading = panel.locator(".actions h2")

    def now(text: str, *more: str):
        def check() -> None:
            expect(heading).to_have_text(text)
            for line in more:
                expect(panel).to_contain_text(line)

        return check

    def step(click, text: str, *more: str) -> None:
        # Wait for the move's own answer and the new panel (its move number), not only for
        # text: the page before the click can already show it ("Bruno" is still in before he
        # joins), and a reload or the next click would then race the answer still coming.
        seq = panel.get_attribute("data-seq")
        with page.expect_response(lambda r: r.request.method == "POST"):
            click()
        expect(panel).not_to_have_attribute("data-seq", seq)
        now(text, *more)()
        reload_shows(page, path, now(text, *more))

    step(
        lambda: panel.get_by_role("button", name=re.compile("Continue the story")).click(),
        "Ana narrates",
    )
    page.locator("#narration").fill("She wakes with blood on her hands.")
    step(
        lambda: panel.get_by_role("button", name=re.compile("End the scene")).click(),
        "Bruno’s turn",
        "She wakes with blood on her hands.",
    )
    back_and_forward(page, "/", path, now("Bruno’s turn"))

    panel.get_by_label(re.compile("Abilities it awakens")).fill("surgery")
    step(
        lambda: panel.get_by_role("button", name=re.compile("Flashback")).click(),
        "Bruno tells a memory",
        "surgery",
    )
    step(
        lambda: panel.get_by_role("button", name=re.compile("End the scene")).click(), "Caio’s turn"
    )
    step(
        lambda: panel.get_by_role("button", name=re.compile("Continue the story")).click(),
        "Caio narrates",
    )

    # A free suggestion, then a paid one that Caio refuses: a challenge.
    panel.get_by_label("Who").select_option("Bruno")
    panel.get_by_label(re.compile("^Suggestion")).fill("A key under the mat.")
    step(
        lambda: panel.get_by_role("button", name="Suggest", exact=True).click(),
        "Caio narrates",
        "A key under the mat.",
    )
    panel.get_by_label("Who").select_option("Ana")
    panel.get_by_label(re.compile("^Suggestion")).fill("She jumps out of the window.")
    step(
        lambda: panel.get_by_role("button", name=re.compile("Insist")).click(),
        "Ana pays 1 token to insist",
    )
    step(
        lambda: panel.get_by_role("button", name=re.compile("Refuse")).click(),
        "Challenge: Caio against Ana",
    )
    stakes = panel.locator("form", has=page.get_by_role("button", name="State the stakes"))
    stakes.locator("select[name=by]").select_option("Ana")
    stakes.get_by_label("What is at stake for this side").fill("Her freedom.")
    step(
        lambda: panel.get_by_role("button", name="State the stakes").click(),
        "Challenge: Caio against Ana",
        "Her freedom.",
    )
    panel.locator("form", has=page.get_by_role("button", name=re.compile("Join"))).locator(
        "select[name=by]"
    ).select_option("Bruno")
    panel.get_by_label("The direction they defend").fill("The window.")
    step(
        lambda: panel.get_by_role("button", name=re.compile("Join")).click(),
        "Challenge: Caio against Ana",
        "Bruno joined",
    )
    step(
        lambda: panel.get_by_role("button", name=re.compile("turns the first card")).click(),
        "Challenge: Caio against Ana",
        "Card to beat",
    )

    # Guesses and quits until one is left: each kind once followed by a reload.
    reloaded = set()
    for _ in range(30):
        if panel.get_by_text("Card to beat").count() == 0:
            break
        seq = panel.get_attribute("data-seq")
        higher = panel.get_by_role("button", name=re.compile("Higher"))
        kind = "higher" if higher.count() and "higher" not in reloaded else "quit"
        if kind == "higher":
            higher.click()
        else:
            panel.get_by_role("button", name=re.compile("Quit")).click()
        expect(panel).not_to_have_attribute("data-seq", seq)
        if kind not in reloaded:
            reloaded.add(kind)
            seq = panel.get_attribute("data-seq")
            reload_shows(
                page, path, lambda seq=seq: expect(panel).to_have_attribute("data-seq", seq)
            )
    expect(panel.locator(".result")).to_contain_text("won the challenge")
    step(
        lambda: panel.get_by_role("button", name=re.compile("End the scene")).click(), "Ana’s turn"
    )

    panel.get_by_label("Take from the bank").fill("0")
    step(lambda: panel.get_by_role("button", name=re.compile("^Pass")).click(), "Bruno’s turn")
    step(
        lambda: panel.get_by_role("button", name=re.compile("Undo last move")).click(), "Ana’s turn"
    )

    # A move the page did not see (another laptop): the refusal keeps the address too. The
    # page's own poll (every 3 s) would bring that move in before the click if it ran between
    # the two: its requests fail until the refusal is shown (a failed poll says nothing, and
    # the next one tries again).
    polls = re.compile(r"/poll/")
    page.route(polls, lambda route: route.abort("internetdisconnected"))
    table.refresh_from_db()
    writing.play_many(table, [{"by": "Ana", "do": "pass", "take": 0}], table.last_seq, gm)
    panel.get_by_role("button", name=re.compile("Continue the story")).click()
    expect(panel.locator(".alert")).to_contain_text("The table has moved on")
    page.unroute(polls)
    reload_shows(page, path, now("Bruno’s turn"))

    step(
        lambda: panel.get_by_role("button", name=re.compile("Remember the room")).click(),
        "Bruno tells the memory of the room",
    )
    step(
        lambda: panel.get_by_role("button", name=re.compile("End the scene")).click(), "Caio’s turn"
    )
    for box in panel.locator(".end-story input[type=checkbox]").all():
        box.check()
    step(
        lambda: panel.get_by_role("button", name=re.compile("End the story")).click(),
        "The story is over",
    )

    back_and_forward(page, "/", path, now("The story is over"))
    assert page.evaluate("history.length") == entries, "moves added history entries"
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


@pytest.mark.long
def test_contest_every_move_reloads_and_the_narration_box_empties(page, django_user_model):
    """A virtual-deck contest, the table's moves and a seat's; before each narrated move a
    line of narration is typed: the move takes it, the box is empty after it (and after the
    reload), and no two stored moves carry the same narration."""
    gm = log_in(page, django_user_model)
    saves = draft_saves(page)
    Character.objects.create(owner=gm, name="Yum", brains=2, muscle=3, moves=3, coolness=4)
    table = new_tables.create_table(gm, "contest", ["Ana", "Bo"], name="Fair", seed=5)
    path = table.get_absolute_url()
    page.goto("/")
    page.goto(path)
    entries = page.evaluate("history.length")
    accept_dialogs(page)
    panel = page.locator("#table-panel")
    box = panel.locator("#narration")
    told: list[str] = []

    def now(*lines: str):
        def check() -> None:
            for line in lines:
                expect(panel).to_contain_text(line)
            if box.count():
                expect(box).to_have_value("")

        return check

    def step(click, *lines: str, tell: str = "", move: bool = True) -> None:
        if tell:
            box.fill(tell)
            told.append(tell)
        seq = panel.get_attribute("data-seq")
        since = len(saves)
        with page.expect_response(lambda r: r.request.method == "POST"):
            click()
        if move:
            expect(panel).not_to_have_attribute("data-seq", seq)
        if tell:
            # Past the draft autosave's pause: a save still pending from the typing would
            # land now and bring the narration back (to the reload, to the next move).
            past_the_autosave(page, saves, since)
        now(*lines)()
        reload_shows(page, path, now(*lines))

    # Characters: one made at the table, one brought from the saved ones.
    ana = panel.locator(".character-seat", has=page.get_by_role("heading", name="Ana"))
    ana.locator("summary").click()
    ana.get_by_label("Character name").fill("Zed")
    ana.get_by_label("Muscle").fill("4")
    ana.get_by_label("Coolness").fill("2")
    step(lambda: ana.get_by_role("button", name="Play this character").click(), "plays Zed")
    bo = panel.locator(".character-seat", has=page.get_by_role("heading", name="Bo"))
    step(lambda: bo.get_by_role("button", name="Bring").click(), "Zed (Ana) controls the story")
    back_and_forward(page, "/", path, now("Zed (Ana) controls the story"))

    # Bo takes control, paying drinks, as Zed's narration goes with the move.
    panel.get_by_role("button", name="Game master: open now").click()
    step(
        lambda: panel.get_by_role("button", name="2 drinks").click(),
        "Yum (Bo) controls the story",
        tell="Zed trips over the pie cart.",
    )
    # Yum challenges Zed.
    panel.locator(".pill", has_text="Zed").first.click()
    panel.get_by_label("What is the contest?").fill("a pie-eating contest")
    panel.locator(".pill", has_text="Muscle").click()
    step(
        lambda: panel.get_by_role("button", name=re.compile("Challenge!")).click(),
        "Yum (Bo) challenges Zed (Ana)",
        tell="Yum eyes the pies.",
    )
    step(
        lambda: panel.get_by_role("button", name=re.compile("Coolness")).click(),
        "Contest: Yum (Bo) against Zed (Ana)",
        tell="Zed shrugs: bring it.",
    )

    # Each plays a card from their own page (a seat's page keeps its address too); a tied
    # contest is played again, so the sides play until one of them wins (a few rounds).
    for _round in range(4):
        for name in ("Bo", "Ana"):
            seat_path = reverse("contest:seat", args=[table.seats.get(name=name).token])
            page.goto(seat_path)
            seat = page.locator("#seat-panel")
            seq = seat.get_attribute("data-seq")
            # choose the first card that may be played, then confirm (a tap alone plays nothing)
            seat.locator(".hand-choice .playing-card:not(.is-disabled)").first.click()
            seat.locator(".confirm-card").click()
            expect(seat).not_to_have_attribute("data-seq", seq)
            seq = seat.get_attribute("data-seq")
            reload_shows(
                page, seat_path, lambda s=seat, n=seq: expect(s).to_have_attribute("data-seq", n)
            )
        page.goto(path)
        if not panel.locator(".actions h2").inner_text().startswith("Contest:"):
            break
    entries = page.evaluate("history.length")
    expect(panel.locator(".actions h2")).to_have_text("Penalties")

    step(
        lambda: panel.get_by_role("button", name=re.compile("^Drink")).click(),
        "controls the story",
        tell="Yum drinks to the dregs.",
    )
    pretzels = panel.locator(".pretzels button")
    if pretzels.count():  # someone may throw a pretzel at the narrator now
        step(lambda: pretzels.first.click(), "controls the story")
    panel.get_by_label("Show drinks as").select_option("penalty_points")
    step(
        lambda: panel.locator(".display-form").get_by_role("button", name="Save").click(),
        "controls the story",
        move=False,
    )
    expect(panel.get_by_label("Show drinks as")).to_have_value("penalty_points")
    step(
        lambda: panel.get_by_role("button", name=re.compile("Undo last move")).click(),
        "controls the story",
    )

    back_and_forward(page, seat_path, path, now("controls the story"))
    assert page.evaluate("history.length") == entries, "moves added history entries"
    texts = [m.text for m in reading.live_moves(table) if m.text]
    assert sorted(texts) == sorted(told), "each line typed is stored once, with its move"


def test_amnesia_stories_every_move_and_screen_reloads(page, django_user_model) -> None:
    """The bard's tale on the table page, then the pass-the-laptop screens: each answers a
    reload as it stands (a screen whose player has answered moves on to the next one)."""
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia_stories", ["Ana", "Bruno", "Caio"], seed=3)
    path = table.get_absolute_url()
    page.goto("/")
    page.goto(path)
    entries = page.evaluate("history.length")
    accept_dialogs(page)
    panel = page.locator("#table-panel")
    heading = panel.locator(".actions h2")

    journey = panel.locator(".journey-card")
    for i in (0, 1, 2):
        journey.nth(i).click()
    page.locator("#narration").fill("The hero set out at night.")
    panel.get_by_role("button", name=re.compile("Tell the story")).click()
    expect(heading).to_have_text("Everyone answers in secret")
    reload_shows(page, path, lambda: expect(heading).to_have_text("Everyone answers in secret"))
    back_and_forward(page, "/", path, lambda: expect(panel).to_contain_text("The hero set out"))
    assert page.evaluate("history.length") == entries, "the tale added a history entry"

    for name in ("Ana", "Bruno", "Caio"):
        position = table.seats.get(name=name).position
        page.get_by_role("link", name=f"Hand the laptop to {name}").click()
        privacy = page.get_by_role("heading", name=f"Hand the laptop to {name}")
        reload_shows(page, f"{path}pass/{position}/", lambda h=privacy: expect(h).to_be_visible())
        page.get_by_role("button", name=f"I am {name}").click()
        mine = page.get_by_role("heading", name=f"{name}, your secret answer")
        reload_shows(
            page, f"{path}pass/{position}/answer/", lambda h=mine: expect(h).to_be_visible()
        )
        steps = page.locator("fieldset.answer-step")
        for step in range(steps.count()):
            steps.nth(step).get_by_role("radio").nth(step).check()
        page.get_by_role("button", name=re.compile("Hide my answer")).click()
        expect(page.locator("input[type=radio]:checked")).to_have_count(0)
        # Back to the answer form: it is answered, so the screen moves on, showing nothing.
        page.go_back()
        expect(mine).to_have_count(0)
        expect(page.locator("input[type=radio]:checked")).to_have_count(0)
        if name != "Caio":
            page.goto(path)

    # Everyone answered: the table (its reveal) answers a reload; so does an undo.
    expect(panel).to_be_visible()
    table.refresh_from_db()
    expect(panel).to_have_attribute("data-seq", str(table.last_seq))
    reload_shows(
        page, path, lambda: expect(panel).to_have_attribute("data-seq", str(table.last_seq))
    )
    panel.get_by_role("button", name=re.compile("Undo last move")).click()
    expect(heading).to_have_text("Everyone answers in secret")
    reload_shows(page, path, lambda: expect(heading).to_have_text("Everyone answers in secret"))


def test_contest_refuse_and_forfeit_take_the_narration_once(page, django_user_model) -> None:
    """The challenged player's other answers (refuse, forfeit) take the narration typed before
    them too, and leave the box empty; each line is stored once."""
    gm = log_in(page, django_user_model)
    saves = draft_saves(page)
    table = contest_in_play(gm, seed=5)
    challenge = {"do": "challenge", "target": "Bo", "contest": "pies", "attribute": "muscle"}
    panel = page.locator("#table-panel")
    box = panel.locator("#narration")
    told = []
    for answer, label in (("refuse", "2 drinks"), ("forfeit", "a drink")):
        table.refresh_from_db()
        writing.play_many(table, [{"by": "Ana", **challenge, "named": True}], table.last_seq)
        page.goto(table.get_absolute_url())
        line = f"Yum answers the challenge: {answer}."
        box.fill(line)
        told.append(line)
        row = panel.locator(".move-row", has_text=re.compile(answer.capitalize()))
        seq = panel.get_attribute("data-seq")
        since = len(saves)
        row.get_by_role("button", name=label, exact=True).click()
        expect(panel).not_to_have_attribute("data-seq", seq)
        past_the_autosave(page, saves, since)  # saving nothing
        if box.count():
            expect(box).to_have_value("")
        page.reload()
        if box.count():
            expect(box).to_have_value("")
    texts = [m.text for m in reading.live_moves(table) if m.text]
    assert texts == told
