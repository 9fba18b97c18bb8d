"""The contest's whole evening, in English, in Chromium: a laptop and three phones, each in a
browser of its own, seated through the join screen's links; a virtual deck stacked by the
imported script; played until one player is left.

On the way: a refusal on the laptop (a character whose points do not add up) and one on a
phone (two phones taking control at the same moment: one is refused); two contestants playing
their cards at the same moment, both kept; narration typed on the laptop while the phones
move; an undo; a reload on every device; the impressions sent from the phones; the report read;
the book downloaded and read."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games.models import Table
from games.services import reading
from tests.browser.helpers import log_in, wait_for
from tests.browser.journeys import at_once, download_book, intact, phone, seat_links
from tests.browser.journeys2 import QUICK_POLLS

PLAYERS = ["Ana", "Bo", "Cy"]
CHARACTERS = {"Ana": "Zed", "Bo": "Yum", "Cy": "Wix"}
# Dealt round-robin from the first seat, four each: Ana 9♥ K♠ 4♠ 5♠, Bo 2♦ Q♦ 3♠ 6♠,
# Cy 7♠ 8♠ A♠ 10♠; the rest is drawn in order.
DECK = [
    "9H", "2D", "7S", "KS", "QD", "8S", "4S", "3S", "AS", "5S", "6S", "10S",
    "7H", "8H", "9D", "10D", "4H", "5H", "6H", "7D",
]  # fmt: skip
SCRIPT = {
    "game": "contest",
    "players": PLAYERS,
    # The smallest hands, one pretzel puts a narrator out, and no narrator's minute: the
    # fewest moves to an end.
    "options": {"hand_size": 4, "pretzel_limit": 1, "control_seconds": 0},
    "deck": DECK,
    "moves": [],
}
TITLE = "Contest: Ana, Bo, Cy"  # an imported table is named after its game and players
TOLD = "The county fair opens; Zed eyes the pies."
WHILE_PHONES_MOVE = "Yum rolls up his sleeves and the crowd leans in."


@pytest.fixture(autouse=True)
def book_folder(settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")


def spans(note, box) -> bool:
    """``note`` is as wide as ``box`` (a grid it sits in), give or take a pixel."""
    expect(note).to_be_visible()
    inner, outer = note.bounding_box(), box.bounding_box()
    assert inner and outer
    return abs(inner["width"] - outer["width"]) <= 1


def seq_of(page, panel: str) -> str:
    return page.locator(panel).get_attribute("data-seq")


@pytest.mark.long
def test_a_contest_evening_with_a_laptop_and_three_phones(
    browser, page, django_user_model, live_server, settings
) -> None:
    settings.PUBLIC_URL = live_server.url
    # Served as `make run` serves it (DEBUG=1): django-htmx adds its debug script to every
    # page, which must leave the refusals to the pages they belong to.
    settings.DEBUG = True
    settings.LAN_ADDRESSES = []
    laptop = page
    # Every screen follows the table by asking every 0.4 s, not 3 s (journeys2's QUICK_POLLS,
    # as in the other two evenings): the same live.js, only more often.
    laptop.add_init_script(QUICK_POLLS)
    laptop.on("dialog", lambda dialog: dialog.accept())  # the undo asks first
    log_in(laptop, django_user_model)

    # The game master brings the stacked deck in as a script.
    laptop.goto("/tables/import/")
    laptop.get_by_label("…or paste it").fill(json.dumps(SCRIPT))
    laptop.get_by_role("button", name="Import").click()
    expect(laptop.get_by_role("heading", name=TITLE)).to_be_visible()
    table_path = urlsplit(laptop.url).path
    table = Table.objects.get(name=TITLE)
    panel = laptop.locator("#table-panel")

    # Each player is seated from the join screen: their own link in a phone of their own.
    laptop.get_by_test_id("join-screen").click()
    links = seat_links(laptop)
    assert len(links) == len(PLAYERS)
    phones = {}
    try:
        for name, url in zip(PLAYERS, links, strict=True):
            assert url.startswith(f"{live_server.url}/seat/"), url
            context, seat = phone(browser, live_server)
            phones[name] = (context, seat)
            seat.goto(url)
            expect(seat.get_by_role("heading", level=1)).to_contain_text(name)
            # A seat's page is that player's alone: no site navigation on it.
            expect(seat.get_by_role("link", name="Log in")).to_have_count(0)
            expect(seat.get_by_role("navigation", name="Main")).to_have_count(0)
        ana, bo, cy = (phones[name][1] for name in PLAYERS)
        laptop.goto(table_path)

        # Characters are made at the laptop. One whose points do not add up is refused in
        # the page, with what was typed kept.
        card = panel.locator(".character-seat", has=laptop.get_by_role("heading", name="Ana"))
        # The form's note spans the form, not one attribute's cell (a column of a word a line).
        assert spans(card.locator(".character-form > .hint"), card.locator(".character-form"))
        card.get_by_label("Character name").fill("Zed")
        card.get_by_label("Muscle").fill("4")
        card.get_by_role("button", name="Play this character").click()
        intact(laptop, TITLE)
        expect(laptop.get_by_role("alert")).to_contain_text("12")
        card = panel.locator(".character-seat", has=laptop.get_by_role("heading", name="Ana"))
        expect(card.get_by_label("Character name")).to_have_value("Zed")
        expect(card.get_by_label("Muscle")).to_have_value("4")
        card.get_by_label("Muscle").fill("3")
        for name in PLAYERS:
            card = panel.locator(".character-seat", has=laptop.get_by_role("heading", name=name))
            card.get_by_label("Character name").fill(CHARACTERS[name])
            seq = seq_of(laptop, "#table-panel")
            card.get_by_role("button", name="Play this character").click()
            expect(panel).not_to_have_attribute("data-seq", seq)

        # Zed controls the story: the laptop tells it and challenges Yum.
        expect(panel.locator(".control-panel h2")).to_have_text("Zed (Ana) controls the story")
        panel.locator("#narration").fill(TOLD)
        challenge = panel.locator("#challenge-form")
        challenge.locator(".pill", has_text="Yum").click()
        challenge.get_by_label("What is the contest?").fill("a pie-eating contest")
        challenge.locator(".pill", has_text="Muscle").click()
        panel.get_by_role("button", name=re.compile("Challenge!")).click()
        expect(panel.locator(".actions h2")).to_have_text("Zed (Ana) challenges Yum (Bo)")

        # The laptop types the narration while the phones move: it keeps the keyboard and
        # what it typed, and follows the table.
        box = panel.locator("#narration")
        box.click()
        box.press_sequentially(WHILE_PHONES_MOVE[:20])
        expect(bo.get_by_role("heading", name="You are challenged: your answer")).to_be_visible()
        bo.locator('[data-decision="accept"]').get_by_role(
            "button", name=re.compile("Muscle")
        ).tap()
        expect(panel.locator(".actions h2")).to_have_text("Contest: Zed (Ana) against Yum (Bo)")
        box.press_sequentially(WHILE_PHONES_MOVE[20:])
        expect(box).to_have_value(WHILE_PHONES_MOVE)
        expect(box).to_be_focused()

        # Both contestants play at the same moment, each from their phone, both drawn at the
        # same version: both cards count.
        ana.locator('.hand-choice [data-hand-card="9H"]').tap()
        bo.locator('.hand-choice [data-hand-card="2D"]').tap()
        expect(ana.locator(".confirm-card")).to_have_text("Play 9♥")
        expect(bo.locator(".confirm-card")).to_have_text("Play 2♦")
        seq = seq_of(ana, "#seat-panel")
        assert seq_of(bo, "#seat-panel") == seq
        answers = at_once(
            (ana, lambda: ana.locator(".confirm-card").tap()),
            (bo, lambda: bo.locator(".confirm-card").tap()),
        )
        assert [a.status for a in answers] == [200, 200], answers
        for seat in (ana, bo):
            expect(seat.locator("#seat-panel")).not_to_have_attribute("data-seq", seq)
            expect(seat.get_by_text("The table has moved on")).to_have_count(0)
        # Zed 3 + 9 = 12 against Yum 3 + 2 = 5: Yum owes a penalty, from his phone.
        expect(panel.locator(".actions h2")).to_have_text("Penalties")
        expect(box).to_have_value(WHILE_PHONES_MOVE)
        decide = bo.locator('[data-decision="penalty"]')
        decide.get_by_role("button", name="Lose the highest card").tap()
        expect(laptop.locator(".cplayer", has_text="Yum")).to_contain_text("6♠")

        # He meant a drink: the laptop takes the lost card back, the phone pays a drink.
        panel.get_by_role("button", name=re.compile("Undo last move")).click()
        expect(panel.locator(".actions h2")).to_have_text("Penalties")
        expect(laptop.locator(".cplayer", has_text="Yum")).not_to_contain_text("6♠")
        bo.locator('[data-decision="penalty"]').get_by_role("button", name="Drink").tap()
        expect(panel.locator(".control-panel h2")).to_have_text("Zed (Ana) controls the story")
        expect(box).to_have_value(WHILE_PHONES_MOVE)

        # Wix takes the story with two drinks at the laptop; the narration typed meanwhile
        # goes with that move, as Zed's telling.
        take = panel.locator(".take-control li", has_text="Wix")
        take.get_by_role("button", name="2 drinks").click()
        expect(panel.locator(".control-panel h2")).to_have_text("Wix (Cy) controls the story")
        expect(box).to_have_value("")

        # Ana and Bo both take the story with a face card at the same moment: one of them has
        # it, the other's phone is refused inside its page.
        plays = {
            "Ana": ana.get_by_role("button", name="Play K♠ and take control"),
            "Bo": bo.get_by_role("button", name="Play Q♦ and take control"),
        }
        for button in plays.values():
            expect(button).to_be_visible()
        answers = at_once(
            (ana, lambda: plays["Ana"].tap()),
            (bo, lambda: plays["Bo"].tap()),
        )
        statuses = sorted(a.status for a in answers)
        assert statuses == [200, 409], statuses
        state = reading.state_of(Table.objects.get(pk=table.pk))
        holder = state["controller"]
        other = "Bo" if holder == "Ana" else "Ana"
        refused = phones[other][1]
        intact(refused, TITLE)
        expect(refused.get_by_role("alert")).to_contain_text("The table has moved on")
        expect(refused.get_by_role("alert")).not_to_contain_text("take_control")
        who = {name: f"{CHARACTERS[name]} ({name})" for name in PLAYERS}

        # Every device reloads and shows the table as it is.
        laptop.reload()
        expect(panel.locator(".control-panel h2")).to_have_text(f"{who[holder]} controls the story")
        for name in PLAYERS:
            seat = phones[name][1]
            seat.reload()
            expect(seat.get_by_role("heading", level=1)).to_contain_text(CHARACTERS[name])
            expect(seat.get_by_role("alert")).to_have_count(0)
        expect(phones[holder][1].locator(".seat-head")).to_contain_text("you control the story")

        # Pretzels (one puts a narrator out): the one refused hits the new narrator, then the
        # one left beside the next narrator hits them.
        throws = panel.locator("form.pretzels")
        throws.get_by_role("button", name=who[other]).click()
        expect(panel.locator(".cplayer", has_text=CHARACTERS[holder])).to_contain_text("out")
        state = reading.state_of(Table.objects.get(pk=table.pk))
        narrator = state["controller"]
        winner = next(n for n in PLAYERS if n not in (holder, narrator))
        throws.get_by_role("button", name=who[winner]).click()
        expect(panel.locator(".winner-banner")).to_have_text(f"{who[winner]} wins the game!")

        # The phones at the end: the winner's says so (and no longer that they narrate),
        # every one links to its impressions, sent from the phone.
        winner_phone = phones[winner][1]
        expect(winner_phone.locator(".winner-banner")).to_have_text(f"{who[winner]} wins the game!")
        expect(winner_phone.get_by_text("you control the story")).to_have_count(0)
        # The phones of those who went out say who won too, not "Stay for the story!".
        for name in PLAYERS:
            seat = phones[name][1]
            expect(seat.locator(".winner-banner")).to_have_text(f"{who[winner]} wins the game!")
            expect(seat.get_by_text("Stay for the story")).to_have_count(0)
            if name != winner:  # out, with no card left: the note is a line, not a card's cell
                assert spans(seat.locator(".hand-cards > .hint"), seat.locator(".hand-cards"))
        sayings = {"Ana": "The pies.", "Bo": "Taking the story at once.", "Cy": "Two drinks!"}
        for name in PLAYERS:
            seat = phones[name][1]
            seat.get_by_role("link", name=re.compile("impressions", re.I)).click()
            expect(seat.get_by_role("heading", level=1)).to_contain_text(name)
            # The ratings are optional: one, and what stayed with them.
            seat.get_by_role("group", name="Fun").get_by_label("5").check()
            seat.get_by_label("Best moment").fill(sayings[name])
            seat.get_by_role("button", name="Send my impressions").click()
            expect(seat.get_by_text(f"Thank you, {name}")).to_be_visible()

        # The report: each seat's impressions, and a code per seat's impressions link.
        laptop.get_by_role("link", name="Collect impressions").click()
        expect(laptop.get_by_role("heading", name=re.compile("Playtest report"))).to_be_visible()
        impressions = laptop.locator("section[aria-labelledby=imp-h]")
        expect(impressions.locator("tbody tr")).to_have_count(3)
        expect(impressions).not_to_contain_text("not answered yet")
        for saying in sayings.values():
            expect(laptop.locator("body")).to_contain_text(saying)
        impressions.get_by_text("The players’ private links").click()
        for name in PLAYERS:
            code = impressions.get_by_role("img", name=f"QR code of {name}’s impressions form")
            expect(code).to_be_visible()
        wait_for(
            laptop,
            "() => [...document.querySelectorAll('.pt-seat-links img')]"
            ".every(i => i.complete && i.naturalWidth > 0)",
        )

        # The book, in English, tells the evening.
        laptop.goto(table_path)
        laptop.get_by_role("button", name="Make the book").click()
        text = " ".join(download_book(laptop).split())
        for said in (
            TOLD,
            WHILE_PHONES_MOVE,
            "a pie-eating contest",
            "Zed (Ana)",
            "Yum (Bo)",
            f"{who[winner]} is the last one standing",
        ):
            assert said in text, (said, text)
        # The take-over paid with drinks is told once in its part (the contents may name the
        # part by it).
        taken = re.search(r"part 2 told by Cy(.*?)part 3 told by", text, re.IGNORECASE)
        assert taken and taken.group(1).count("takes 2 drinks") == 1, text
        for part in range(1, 5):  # every part has a title in the contents
            assert re.search(rf"Part {part} [^.\s]", text), (part, text)
        # What the laptop typed while the phones played is Zed's telling, in Zed's part.
        part = re.search(r"part 1 told by Ana(.*?)part 2 told by Cy", text, re.IGNORECASE)
        assert part and WHILE_PHONES_MOVE in part.group(1), text
        fresh = Table.objects.get(pk=table.pk)
        told = [m for m in reading.live_moves(fresh) if m.text == WHILE_PHONES_MOVE]
        assert [m.payload["do"] for m in told] == ["take_control"]
    finally:
        for context, _seat in phones.values():
            context.close()
