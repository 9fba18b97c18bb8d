"""What the page says a move did: the live region's sentence, the undo's question, and cards
written as cards (6♣), never as their codes (6C)."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from games import presenters
from games.amnesia.page import describe_move
from games.services import new_tables, writing
from games.snapshot import Snapshot
from tests.games.toy.kit import KIT as TOY

pytestmark = pytest.mark.django_db


def test_the_page_says_what_the_last_move_did_and_what_an_undo_takes_back(gm, gm_client):
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=1)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    said = "Ana continues the story and narrates a scene."
    assert f"data-announce>{said}</p>" in page
    assert f"It takes back: {said}" in page
    writing.undo(table, 1, gm)
    snap = Snapshot(table)
    assert presenters.announce(snap) == "Move 1 was taken back."
    assert presenters.undo_names(snap) == ""


def test_a_game_without_words_for_a_move_gets_a_generic_sentence(gm, game_for_tests):
    assert TOY.describe_move is None  # the test-only game says nothing of its moves
    game_for_tests(TOY)
    table = new_tables.create_table(gm, "toy", ["Ana", "Bo"], seed=3)
    writing.play_many(table, [{"by": "Ana", "do": "say"}], None)
    assert presenters.announce(Snapshot(table)) == "Move 1, by Ana."


def test_cards_are_written_as_cards():
    assert describe_move({"by": "Ana", "do": "open", "card": "6C"}).endswith("Card: 6♣.")
    assert presenters.shown_value("card", "10H") == "10♥"
    assert presenters.shown_value("cards", ["6C", "X1"]) == "6♣,Joker"
    assert presenters.shown_value("text", "6C") == "6C"  # only card fields
    assert presenters.shown_value("card", "Z9") == "Z9"  # not a card: as it is
    rendered = Template('{% load playing_cards %}{{ "QS"|card_label }}').render(Context())
    assert rendered == "Q♠"
