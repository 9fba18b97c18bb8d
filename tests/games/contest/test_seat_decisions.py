"""A contest seat's own page on a phone: the hand sorted by suit then rank, a card played in
two steps (choose, then confirm), and the decisions the rules leave to the player (accept,
refuse, forfeit, pay a penalty) taken from their own page, each button one of the referee's
legal moves for that seat, posted through the page's own form and the one write path."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.contest.seat import hand_order
from games.models import Table
from games.rules import cards as C
from tests.games.contest.pages import hands, move, state, virtual_game

pytestmark = pytest.mark.django_db


def seat_page(client: Client, table: Table, name: str) -> str:
    seat = table.seats.get(name=name)
    response = client.get(reverse("contest:seat", args=[seat.token]))
    assert response.status_code == 200
    return response.content.decode()


def forms_of(page: str) -> list[str]:
    return re.findall(r"<form method=\"post\".*?</form>", page, re.S)


def submit(client: Client, page: str, label: str, **chosen: str):
    """Press the button reading ``label`` on ``page``: post its form's hidden fields, the
    button's own name and value, and ``chosen`` (a radio picked), as a browser would."""
    for form in forms_of(page):
        for attrs, text in re.findall(r"<button([^>]*)>(.*?)</button>", form, re.S):
            if re.sub(r"<[^>]+>|\s+", " ", text).strip() != label:
                continue
            action = html.unescape(re.search(r'action="([^"]+)"', form).group(1))
            data = {
                k: html.unescape(v)
                for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
            }
            name = re.search(r'name="(\w+)"', attrs)
            if name:
                data[name.group(1)] = html.unescape(re.search(r'value="([^"]*)"', attrs).group(1))
            data.update(chosen)
            return client.post(action, data)
    raise AssertionError(f"no button {label!r} on the page")


def labels(page: str, decision: str) -> list[str]:
    row = re.search(rf'data-decision="{decision}".*?</div>', page, re.S)
    if not row:
        return []
    return [
        re.sub(r"<[^>]+>|\s+", " ", t).strip()
        for t in re.findall(r"<button[^>]*>(.*?)</button>", row.group(0), re.S)
    ]


def challenged(client) -> Table:
    """Ana (Zed), the narrator, challenges Bo (Yum) with muscle."""
    table = virtual_game(client)
    response = move(
        client, table, by="Ana", do="challenge", target="Bo", contest="a duel", attribute="muscle"
    )
    assert response.status_code == 302
    assert state(table)["phase"] == "response"
    return table


# -- the hand ------------------------------------------------------------------------------------
def test_the_hand_is_sorted_by_suit_then_rank(gm_client):
    table = virtual_game(gm_client)
    for name, hand in hands(table).items():
        shown = re.findall(r'data-hand-card="([^"]+)"', seat_page(Client(), table, name))
        assert sorted(shown) == sorted(hand)
        assert shown == sorted(hand, key=hand_order), name
        suits = [C.suit(c) for c in shown]
        assert suits == sorted(suits, key="SHDC".index)  # ♠ ♥ ♦ ♣, each suit together
    assert sorted(["KS", "AS", "10H", "2S", "X1", "M3", "JC", "9C"], key=hand_order) == [
        "AS",
        "2S",
        "KS",
        "10H",
        "9C",
        "JC",
        "M3",
        "X1",
    ]


def test_a_card_is_chosen_then_confirmed(gm_client):
    table = challenged(gm_client)
    move(gm_client, table, by="Bo", do="accept", attribute="moves")
    phone = Client()
    page = seat_page(phone, table, "Ana")
    # no card is a button that plays at once: they are choices, and one button confirms
    assert not re.search(r'<button[^>]*name="card"', page)
    choices = re.findall(r'<input type="radio" name="card" value="([^"]+)"', page)
    assert choices == sorted(hands(table)["Ana"], key=hand_order)
    assert "Play the chosen card" in page and "data-confirm-card" in page
    # the button alone plays nothing: the referee is asked and says a card is needed
    refused = submit(phone, page, "Play the chosen card")
    assert refused.status_code == 400
    assert state(table)["contest"]["played"] == []
    card = choices[0]
    response = submit(phone, seat_page(phone, table, "Ana"), "Play the chosen card", card=card)
    assert response.status_code == 302
    s = state(table)
    assert s["contest"]["played"] == ["Ana"] and s["contest"]["cards"]["Ana"][0] == card


# -- answering a challenge -----------------------------------------------------------------------
def test_the_challenged_player_accepts_from_their_own_page(gm_client):
    table = challenged(gm_client)
    phone = Client()
    page = seat_page(phone, table, "Bo")
    assert "You are challenged: your answer" in page
    accept = labels(page, "accept")
    assert [label.split(" ", 1)[0] for label in accept] == ["♠", "♣", "♦", "♥"]
    assert [label.split()[1] for label in accept] == ["Brains", "Muscle", "Moves", "Coolness"]
    # the narrator and the third player have nothing to answer
    for name in ("Ana", "Cy"):
        other = seat_page(Client(), table, name)
        assert 'data-decision="accept"' not in other and 'data-decision="refuse"' not in other
    label = next(label for label in accept if "Moves" in label)
    assert submit(phone, page, label).status_code == 302
    s = state(table)
    assert s["phase"] == "contest" and s["contest"]["attributes"]["Bo"] == "moves"
    # once answered, the decision is gone from the page
    assert 'data-decision="accept"' not in seat_page(phone, table, "Bo")


def test_the_challenged_player_refuses_paying_two_penalties(gm_client):
    table = challenged(gm_client)
    phone = Client()
    page = seat_page(phone, table, "Bo")
    assert labels(page, "refuse") == ["2 drinks", "a drink + a card", "2 cards"]
    # In the table's language each count is one phrase: 「2杯」, not 「2 杯」 glued in English order.
    Table.objects.filter(pk=table.pk).update(language="ja")
    assert labels(seat_page(Client(), table, "Bo"), "refuse") == [
        "2杯",
        "一杯 + カード1枚",
        "カード2枚",
    ]
    Table.objects.filter(pk=table.pk).update(language="en")
    assert submit(phone, page, "2 drinks").status_code == 302
    s = state(table)
    assert s["phase"] == "story" and s["players"]["Bo"]["drinks"] == 2


def test_the_challenged_player_forfeits_paying_one(gm_client):
    table = challenged(gm_client)
    phone = Client()
    page = seat_page(phone, table, "Bo")
    assert labels(page, "forfeit") == ["a drink", "a card"]
    before = hands(table)["Bo"]
    assert submit(phone, page, "a card").status_code == 302
    s = state(table)
    assert s["phase"] == "story" and len(s["players"]["Bo"]["lost"]) == 1
    assert s["players"]["Bo"]["lost"][0] in before
    assert s["last_contest"]["loser"] == "Bo"


def test_a_contestant_forfeits_before_playing_a_card(gm_client):
    table = challenged(gm_client)
    move(gm_client, table, by="Bo", do="accept", attribute="moves")
    phone = Client()
    page = seat_page(phone, table, "Ana")
    assert labels(page, "forfeit") == ["a drink", "a card"]  # what the referee allows now
    assert submit(phone, page, "a drink").status_code == 302
    s = state(table)
    assert s["players"]["Ana"]["drinks"] == 1 and s["last_contest"]["loser"] == "Ana"


# -- the loser pays ------------------------------------------------------------------------------
def played_out(client) -> tuple[Table, str, str]:
    """A contest played to its end from the two phones; returns the table, loser, winner."""
    table = challenged(client)
    move(client, table, by="Bo", do="accept", attribute="moves")
    phones = {name: Client() for name in ("Ana", "Bo")}
    while state(table)["phase"] == "contest":  # a tie plays again
        for name, phone in phones.items():
            s = state(table)
            if s["phase"] != "contest" or name in s["contest"]["played"]:
                continue
            page = seat_page(phone, table, name)
            card = re.findall(r'<input type="radio" name="card" value="([^"]+)"', page)[0]
            response = submit(phone, page, "Play the chosen card", card=card)
            assert response.status_code == 302
    s = state(table)
    assert s["phase"] == "penalty"
    loser = s["last_contest"]["loser"]
    return table, loser, s["last_contest"]["winner"]


@pytest.mark.parametrize("pay", ["drink", "card"])
def test_the_loser_pays_the_penalty_from_their_own_page(gm_client, pay):
    table, loser, winner = played_out(gm_client)
    phone = Client()
    page = seat_page(phone, table, loser)
    assert "You owe a penalty" in page
    assert labels(page, "penalty") == ["Drink", "Lose the highest card"]
    assert 'data-decision="penalty"' not in seat_page(Client(), table, winner)
    before = state(table)["players"][loser]
    response = submit(phone, page, "Drink" if pay == "drink" else "Lose the highest card")
    assert response.status_code == 302
    after = state(table)["players"][loser]
    if pay == "drink":
        assert after["drinks"] == before["drinks"] + 1
    else:
        assert len(after["lost"]) == len(before["lost"]) + 1
    assert state(table)["phase"] != "penalty"


def test_a_seat_cannot_take_another_players_decision(gm_client):
    """The seat only offers what legal_moves gives that player, and a post in its name is
    judged by the referee: Cy's page answering Ana's challenge of Bo changes nothing."""
    table = challenged(gm_client)
    cy = table.seats.get(name="Cy")
    table.refresh_from_db()
    for fields in (
        {"do": "accept", "attribute": "moves"},
        {"move": '{"by": "Bo", "do": "refuse", "penalty": ["drink", "drink"]}'},
    ):
        response = Client().post(
            reverse("contest:seat_move", args=[cy.token]),
            {"expected_seq": table.last_seq, **fields},
        )
        assert response.status_code == 400
    s = state(table)
    assert s["phase"] == "response" and s["players"]["Bo"]["drinks"] == 0
    assert s["players"]["Cy"]["drinks"] == 0
