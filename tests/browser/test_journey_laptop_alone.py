"""The game master's most common evening, in Chromium: a laptop alone, the real cards on the
table, no phones and no network. One game of each played to its end, each as small as its
options allow: Amnesia (its challenge's cards entered by tapping them), Amnesia Stories (the
cards dealt entered, the secret answers through its pass-the-laptop screen), the contest (its
cards tapped, a pretzel ends it).

No network: the site has no address a phone could reach (the join screen says so), the pages
ask nothing of any other host, and a narration typed while the connection is down stays in the
browser and goes with the move once it is back."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from amnesia_site import addresses
from games.models import Table
from games.services import reading
from tests.browser.helpers import click_and_wait_for_swap, log_in


@pytest.fixture(autouse=True)
def no_network(settings, tmp_path, monkeypatch):
    settings.PUBLIC_URL = ""
    settings.LAN_ADDRESSES = []
    monkeypatch.setattr(addresses, "_detected", lambda: ())  # no interface but the loopback
    settings.MEDIA_ROOT = tmp_path / "media"  # the area cards' pictures, drawn on first use


def new_table(page, game: str, name: str, players: list[str], options: dict[str, str]) -> None:
    """The new-table form, physical cards, the given options; on to the table's page."""
    page.goto(f"/tables/new/?game={game}")
    page.get_by_label("Table name").fill(name)
    page.get_by_label(re.compile("Players, in seat order")).fill("\n".join(players))
    page.get_by_label(re.compile("Physical deck")).check()
    for key, value in options.items():
        page.locator(f"[name=opt_{key}]").fill(value)
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()


def says_there_is_no_network(page) -> None:
    """The join screen, on a laptop that reaches no phone, says so instead of showing codes."""
    table_path = urlsplit(page.url).path
    page.goto(f"{table_path}join/")
    expect(page.get_by_role("alert")).to_contain_text("no network the phones could reach")
    expect(page.locator("code.join-url")).to_have_count(0)
    page.goto(table_path)


def play_amnesia(page) -> None:
    new_table(page, "amnesia", "Room 714", ["Ana", "Bruno"], {"finale_factor": "0"})
    says_there_is_no_network(page)
    panel = page.locator("#table-panel")
    heading = panel.locator(".actions h2")
    story = panel.locator(".story")

    # Ana continues; the connection drops while she is being written down: the browser keeps
    # the narration, and it goes with the scene's end once the connection is back.
    expect(heading).to_have_text("Ana’s turn")
    panel.get_by_role("button", name=re.compile("Continue the story")).click()
    expect(heading).to_have_text("Ana narrates")
    # (once the page has set the box up to keep its draft)
    expect(page.locator("#narration")).to_have_attribute("data-draft-ready", "1")
    page.context.set_offline(True)
    page.locator("#narration").fill("She wakes with blood on her hands.")
    expect(page.locator(".draft-status")).to_contain_text("Offline")
    page.context.set_offline(False)
    panel.get_by_role("button", name=re.compile("End the scene")).click()
    expect(heading).to_have_text("Bruno’s turn")
    expect(story).to_contain_text("She wakes with blood on her hands.")

    # Bruno remembers; Ana insists on a turn of events, Bruno refuses: the challenge is
    # played with the real cards, each one tapped as it is turned.
    panel.get_by_label(re.compile("Abilities it awakens")).fill("surgery")
    panel.get_by_role("button", name=re.compile("Flashback")).click()
    expect(heading).to_have_text("Bruno tells a memory")
    panel.get_by_label("Who").select_option("Ana")
    panel.get_by_label("Suggestion").fill("The surgeon was her.")
    panel.get_by_role("button", name=re.compile("Insist")).click()
    expect(heading).to_have_text("Ana pays 1 token to insist")
    panel.get_by_role("button", name=re.compile("Refuse")).click()
    expect(heading).to_have_text("Challenge: Bruno against Ana")
    click_and_wait_for_swap(panel.locator(".card-grid").get_by_role("button", name="7♥"))
    expect(panel.locator(".reference")).to_contain_text("7")
    expect(panel.locator(".actions h3")).to_have_text("Ana’s go")
    click_and_wait_for_swap(panel.locator(".card-grid").get_by_role("button", name="K♠"))
    expect(panel.locator(".actions h3")).to_have_text("Bruno’s go")
    panel.get_by_role("button", name=re.compile("Quit")).click()
    expect(panel.locator(".result")).to_contain_text("Ana won the challenge")
    page.locator("#narration").fill("An operating theatre; her own hands on the scalpel.")
    panel.get_by_role("button", name=re.compile("End the scene")).click()

    # The discard is enough (finale factor 0): Ana remembers the room, then both agree the
    # story is over.
    expect(heading).to_have_text("Ana’s turn")
    panel.get_by_role("button", name=re.compile("Remember the room")).click()
    expect(heading).to_have_text("Ana tells the memory of the room")
    page.locator("#narration").fill("The room: she let them in herself.")
    panel.get_by_role("button", name=re.compile("End the scene")).click()
    expect(heading).to_have_text("Bruno’s turn")
    ending = panel.locator(".end-story")
    for name in ("Ana", "Bruno"):
        ending.get_by_label(name).check()
    ending.get_by_role("button", name="End the story").click()
    expect(heading).to_have_text("The story is over")
    for told in (
        "An operating theatre; her own hands on the scalpel.",
        "The room: she let them in herself.",
    ):
        expect(story).to_contain_text(told)
    state = reading.state_of(Table.objects.get(name="Room 714"))
    assert state["finished"] and state["abilities"] == ["surgery"]
    assert state["last_challenge"]["winner"] == "Ana"


STORIES_PLAYERS = ["Ana", "Bruno", "Caio"]


def play_amnesia_stories(page) -> None:
    new_table(
        page,
        "amnesia_stories",
        "Footprints",
        STORIES_PLAYERS,
        {"choices": "3", "questions": "2", "rounds": "1"},
    )
    panel = page.locator("#table-panel")
    heading = panel.locator(".actions h2")
    cards = iter(f"A{n:02d}" for n in range(1, 49))
    for turn, bard in enumerate(STORIES_PLAYERS):
        # The bard lays the cards out and enters them (the slots only on the first turn).
        expect(heading).to_have_text(f"{bard} is the bard: deal the cards")
        deal = panel.locator(".deal-form")
        for name in ("slots", "journey") if turn == 0 else ("journey",):
            for select in deal.locator(f"select[name={name}]").all():
                select.select_option(next(cards))
        deal.get_by_role("button", name="Deal these cards").click()

        # The bard chooses two footprints and tells them.
        expect(heading).to_have_text(f"{bard} is the bard")
        journey = panel.locator(".journey-card")
        journey.nth(2).click()
        journey.nth(0).click()
        page.locator("#narration").fill(f"{bard}’s hero walks on.")
        panel.get_by_role("button", name=re.compile("Tell the story")).click()
        expect(heading).to_have_text("Everyone answers in secret")

        # Pass the laptop: each player alone with it, the bard first, then clockwise.
        for position, name in enumerate(STORIES_PLAYERS[turn:] + STORIES_PLAYERS[:turn]):
            page.get_by_role("link", name=f"Hand the laptop to {name}").click()
            expect(page.get_by_role("heading", name=f"Hand the laptop to {name}")).to_be_visible()
            page.get_by_role("button", name=f"I am {name}").click()
            expect(page.get_by_role("heading", name=f"{name}, your secret answer")).to_be_visible()
            steps = page.locator("fieldset.answer-step")
            for step in range(2):
                pick = str((position + step) % 3 + 1)
                steps.nth(step).get_by_role("radio", name=pick, exact=True).check()
            page.get_by_role("button", name=re.compile("Hide my answer")).click()
            if position < 2:
                expect(page.locator("input[type=radio]:checked")).to_have_count(0)
                page.get_by_role("link", name="Back to the table").click()
                expect(panel.locator(".answer-status .done")).to_contain_text([f"{name} ✓"])

        # Everyone has answered: the whole reveal at once.
        expect(page.locator("#reveal")).to_be_visible()
        page.get_by_role("button", name="Skip the reveal: open every step").click()

    expect(heading).to_have_text("The game is over")
    expect(panel.locator(".final-result")).to_contain_text(re.compile("wins!|A draw"))
    state = reading.state_of(Table.objects.get(name="Footprints"))
    assert state["finished"]
    assert len(state["history"]) == 3
    assert [turn["story"] for turn in state["history"]] == [
        ["A06", "A04"],
        ["A09", "A07"],
        ["A12", "A10"],
    ]


def tap(panel, label: str) -> None:
    click_and_wait_for_swap(panel.locator(".cgrid").get_by_role("button", name=label, exact=True))


def play_contest(page) -> None:
    new_table(
        page,
        "contest",
        "The county fair",
        ["Ana", "Bo"],
        {"hand_size": "4", "pretzel_limit": "1", "control_seconds": "0"},
    )
    panel = page.locator("#table-panel")
    for seat, name in (("Ana", "Zed"), ("Bo", "Yum")):
        card = panel.locator(".character-seat", has=page.get_by_role("heading", name=seat))
        card.get_by_label("Character name").fill(name)
        seq = panel.get_attribute("data-seq")
        card.get_by_role("button", name="Play this character").click()
        expect(panel).not_to_have_attribute("data-seq", seq)

    # Zed challenges Yum; the cards played are tapped as they come off the real deck.
    expect(panel.locator(".control-panel h2")).to_have_text("Zed (Ana) controls the story")
    panel.locator("#narration").fill("The pies are on the long table.")
    panel.get_by_label("What is the contest?").fill("a pie-eating contest")
    panel.locator(".pill", has_text="Muscle").click()
    panel.get_by_role("button", name=re.compile("Challenge!")).click()
    expect(panel.locator(".actions h2")).to_have_text("Zed (Ana) challenges Yum (Bo)")
    panel.get_by_role("button", name=re.compile("Coolness")).click()
    expect(panel.locator(".actions h2")).to_have_text("Contest: Zed (Ana) against Yum (Bo)")
    tap(panel, "7♥")  # Muscle 3 + 7: no club, no chain
    tap(panel, "4♠")  # Coolness 3 + 4: no heart, no chain
    expect(panel.locator(".actions h2")).to_have_text("Penalties")
    panel.get_by_role("button", name="Drink").click()
    expect(panel.locator(".control-panel h2")).to_have_text("Zed (Ana) controls the story")

    # A pretzel lands on the narrator: one is enough here, and Yum is the last one in.
    panel.locator("form.pretzels").get_by_role("button", name="Yum (Bo)").click()
    expect(panel.locator(".winner-banner")).to_have_text("Yum (Bo) wins the game!")
    expect(panel.locator(".story")).to_contain_text("The pies are on the long table.")
    state = reading.state_of(Table.objects.get(name="The county fair"))
    assert state["phase"] == "ended"
    assert state["last_contest"]["totals"] == {"Ana": 10, "Bo": 7}


@pytest.mark.long
def test_a_laptop_alone_plays_one_game_of_each_with_real_cards(
    page, django_user_model, live_server
) -> None:
    elsewhere: list[str] = []
    here = urlsplit(live_server.url).netloc
    page.on(
        "request",
        lambda r: elsewhere.append(r.url) if urlsplit(r.url).netloc not in ("", here) else None,
    )
    log_in(page, django_user_model)
    play_amnesia(page)
    play_amnesia_stories(page)
    play_contest(page)
    assert elsewhere == [], elsewhere  # nothing was asked of any other host
