"""Three Cards, a game with a deck and hidden hands written from docs/adding-a-game.md
and the check's messages, registered for these tests only (``game_for_tests``): the contract's
check passes it, and it plays through the write path, its table page, its seat page, its book
and its playtest figures, none of them showing a hand to anyone but its player."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import checks
from games.models import Table
from games.rules import IllegalMove
from games.services import new_tables, reading, writing
from stories import services as story_services
from stories.models import story_for
from tests.games.three_cards.kit import KIT
from tests.games.three_cards.rules import value

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(game_for_tests):
    return game_for_tests(KIT)


@pytest.fixture
def table(game, gm) -> Table:
    return new_tables.create_table(gm, "three_cards", ["Ana", "Bruno"], name="Cards", seed=9)


def state(table: Table) -> dict:
    table.refresh_from_db()
    return reading.state_of(table)


def hands(table: Table) -> dict[str, list[str]]:
    return state(table)["hands"]


def shown(card: str, text: str) -> bool:
    """Whether a page or an answer shows ``card`` as a word of its own. A code like k01 can
    also turn up inside a random token (the CSRF token, a nonce, a seat link: letters,
    digits, ``-`` and ``_``), which shows nothing; a bare substring test failed on one."""
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text) is not None


def play_out(table: Table, gm) -> None:
    """Every remaining turn, each player playing their lowest card, with a line of text."""
    while not (now := state(table))["finished"]:
        by = now["turn"]
        card = min(now["hands"][by], key=value)
        move = {"by": by, "do": "play", "card": card, "text": f"{by} lays down {card}."}
        writing.play_many(table, [move], table.last_seq, gm)


def test_the_contract_check_passes_it(game):
    assert checks.check_kit(game) == []


def test_the_write_path_plays_refuses_and_undoes(table, gm):
    ana = hands(table)["Ana"]
    with pytest.raises(IllegalMove) as refused:
        writing.play_many(
            table, [{"by": "Ana", "do": "play", "card": hands(table)["Bruno"][0]}], 0, gm
        )
    assert refused.value.code == "rule_violation"
    played = writing.play_many(table, [{"by": "Ana", "do": "play", "card": ana[0]}], 0, gm)[0]
    assert played.state["scores"]["Ana"] == value(ana[0])
    assert played.state["left"] == 15 - 6 - 1
    writing.undo(table, 1, gm)
    assert state(table) == reading.rebuild_state(table)
    assert hands(table)["Ana"] == ana
    play_out(table, gm)
    assert state(table)["played"][-1]["by"] in ("Ana", "Bruno")
    assert table.status == Table.Status.FINISHED


def test_the_table_page_shows_no_hand_and_no_deck(table, gm, gm_client):
    now = state(table)
    secret = [*now["deck"], *now["hands"]["Ana"], *now["hands"]["Bruno"]]
    html = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Cards left in the deck: 9" in html and "Ana plays next" in html
    assert not [card for card in secret if shown(card, html)]
    # A move's JSON answer carries the spectator's view: no deck, no hand.
    card = now["hands"]["Ana"][0]
    seat = table.seats.get(name="Ana")
    answer = Client().post(
        reverse("three_cards:seat_move", args=[seat.token]),
        {"expected_seq": 0, "do": "play", "card": card},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content[:500]
    said = json.dumps(answer.json())
    assert "deck" not in answer.json()["state"] and '"rng"' not in said
    assert answer.json()["state"]["hands"] == {}
    assert not [c for c in hands(table)["Bruno"] if shown(c, said)]


def test_the_seat_page_shows_its_own_hand_and_plays_in_its_name(table):
    ana, bruno = hands(table)["Ana"], hands(table)["Bruno"]
    seat = table.seats.get(name="Ana")
    url = reverse("three_cards:seat", args=[seat.token])
    html = Client().get(url).content.decode()
    assert all(f"Play {card}" in html for card in ana)
    assert '<input type="hidden" name="do" value="play">' in html  # the buttons post the card
    assert all(shown(card, html) for card in ana)  # the check sees a card the page shows
    assert not [card for card in bruno if shown(card, html)]
    # Whatever the form says, the move is made in the seat's name.
    response = Client().post(
        reverse("three_cards:seat_move", args=[seat.token]),
        {"expected_seq": 0, "do": "play", "card": ana[1], "by": "Bruno", "text": "Mine."},
    )
    assert response.status_code == 302 and response["Location"] == url
    after = state(table)
    assert after["played"] == [{"by": "Ana", "card": ana[1]}] and after["turn"] == "Bruno"
    # Bruno's page shows his hand and his button; Ana's, none now.
    bruno_html = (
        Client()
        .get(reverse("three_cards:seat", args=[table.seats.get(name="Bruno").token]))
        .content.decode()
    )
    assert f"Play {bruno[0]}" in bruno_html
    assert "Play " not in Client().get(url).content.decode()
    # A card from another hand is the referee's refusal, on the page.
    refused = Client().post(
        reverse("three_cards:seat_move", args=[seat.token]),
        {"expected_seq": 1, "do": "play", "card": bruno[0]},
    )
    assert refused.status_code in (400, 409)


def test_the_book_is_the_chronicle_of_the_plays(table, gm):
    play_out(table, gm)
    story = story_for(table, "en")
    book = story_services.make_book(story)
    assert book.game_title == "Three Cards"
    [chapter] = book.chapters
    texts = [p.text for p in chapter.passages]
    assert len(texts) == 15 and texts[0].startswith("Ana lays down k")
    from stories import pdf as story_pdf
    from tests.stories.conftest import pdf_text, squeeze

    data = story_pdf.pdf_for(story)
    assert squeeze(texts[-1]) in squeeze(pdf_text(data, {story.title}))


def test_the_playtest_figures(table, gm, gm_client):
    play_out(table, gm)
    response = gm_client.get(reverse("playtests:table_report", args=[table.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<dt>Cards played</dt><dd>15</dd>" in html
    top = max(state(table)["scores"].values())
    assert f"<dt>Top score</dt><dd>{top}</dd>" in html


def test_the_rules_page_and_the_printed_cards(game, gm_client):
    html = gm_client.get(reverse("games:rules", args=["three_cards"])).content.decode()
    assert "deal 3 to each player" in html
    from games.components import print_request, render_pdf

    assert render_pdf(game, print_request(game)).startswith(b"%PDF")
