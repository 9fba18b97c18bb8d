"""Amnesia Stories "each on their own phone": every player answers at the same time and in
secret on their own seat page, through the one write path; answers of one turn never refuse
each other (``expected_turn``); no pick is on any page before the turn is judged; a seat
answers only in its own name, and a wrong token finds nothing."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.amnesia_stories.modes import PHONES, answers_on_phones
from games.models import Table
from games.services import new_tables, reading, writing

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Bruno", "Caio"]


def small_table(gm, **extra) -> Table:
    """A one-round table of two-step stories, before its first story is told."""
    return new_tables.create_table(
        gm,
        "amnesia_stories",
        PLAYERS,
        options={"choices": 3, "questions": 2, "rounds": 1},
        seed=7,
        extra=extra,
    )


def told(gm, **extra) -> Table:
    """A table in the answer phase: the bard has told a two-step story."""
    table = small_table(gm, **extra)
    state = reading.state_of(table)
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    writing.play_many(table, [tell], table.last_seq)
    table.refresh_from_db()
    return table


@pytest.fixture
def table(gm) -> Table:
    return told(gm, answer_mode=PHONES)


def seat_url(table: Table, name: str) -> str:
    return reverse("amnesia_stories:seat", args=[table.seats.get(name=name).token])


def hidden_fields(page: str) -> dict[str, str]:
    form = re.search(r'<form method="post"[^>]*class="answer-form".*?</form>', page, re.S)
    assert form, "no answer form on the page"
    found = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(0))
    return {k: html.unescape(v) for k, v in found}


def answer(client: Client, table: Table, name: str, picks: tuple[int, int], page: str = ""):
    page = page or client.get(seat_url(table, name)).content.decode()
    data = {**hidden_fields(page), "pick-1": picks[0], "pick-2": picks[1]}
    token = table.seats.get(name=name).token
    return client.post(reverse("amnesia_stories:seat_move", args=[token]), data)


def picks_on(page: str) -> list[str]:
    """Anything on a page that would give a pick away: a checked number chip, or a pick
    written out."""
    return re.findall(r"checked|&quot;picks&quot;|\"picks\"|_picks", page)


def test_the_new_table_form_offers_phones_and_the_kit_names_the_seat_page(gm_client):
    assert registry.kit("amnesia_stories").seat_page == "amnesia_stories:seat"
    form = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    assert 'name="answer_mode"' in form and f'value="{PHONES}"' in form


def test_everyone_answers_at_once_from_pages_drawn_before_any_answer(table, gm_client):
    clients = {name: Client() for name in PLAYERS}
    # Every phone draws its page first, then they all send: the same turn, no conflict.
    pages = {name: clients[name].get(seat_url(table, name)).content.decode() for name in PLAYERS}
    for name in PLAYERS:
        assert "Send my secret answer" in pages[name]
    first, second = PLAYERS[0], PLAYERS[1]
    assert answer(clients[first], table, first, (1, 2), pages[first]).status_code == 302
    assert answer(clients[second], table, second, (2, 3), pages[second]).status_code == 302
    table.refresh_from_db()
    assert reading.state_of(table)["phase"] == "answer"
    # Before judging: no pick on any seat's page, nor on the table page or the projector;
    # they say who has answered.
    for name in PLAYERS:
        page = clients[name].get(seat_url(table, name)).content.decode()
        assert picks_on(page) == [], name
        assert f"{first} ✓" in page and f"{second} ✓" in page
    done = clients[first].get(seat_url(table, first)).content.decode()
    assert 'data-testid="answer-sent"' in done and "Send my secret answer" not in done
    table_page = gm_client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-testid="phones-box"' in table_page and "Hand the laptop" not in table_page
    assert f"{first} ✓" in table_page
    assert "_picks" not in table_page and "&quot;picks&quot;" not in table_page
    projector = gm_client.get(reverse("amnesia_stories:projector", args=[table.pk])).content
    assert f"{first} ✓".encode() in projector and b"picks" not in projector
    # The last answer, from a page drawn before the other two: the turn is judged.
    last = PLAYERS[2]
    assert answer(clients[last], table, last, (3, 1), pages[last]).status_code == 302
    table.refresh_from_db()
    state = reading.state_of(table)
    assert state["phase"] != "answer" or state["turn_number"] > 1
    moves = list(table.moves.order_by("seq").values_list("payload", flat=True))
    assert [(m["by"], m["picks"]) for m in moves if m["do"] == "answer"] == [
        (first, [1, 2]),
        (second, [2, 3]),
        (last, [3, 1]),
    ]


def test_a_seat_answers_only_in_its_own_name(table):
    client = Client()
    ana = table.seats.get(name="Ana")
    page = client.get(seat_url(table, "Ana")).content.decode()
    data = {**hidden_fields(page), "by": "Bruno", "pick-1": 1, "pick-2": 2}
    assert (
        client.post(reverse("amnesia_stories:seat_move", args=[ana.token]), data).status_code == 302
    )
    table.refresh_from_db()
    assert table.moves.order_by("seq").last().payload["by"] == "Ana"
    # Ana again: she has answered, the referee refuses a second answer.
    again = {**hidden_fields(page), "pick-1": 2, "pick-2": 1, "client_id": "another-id"}
    response = client.post(reverse("amnesia_stories:seat_move", args=[ana.token]), again)
    assert response.status_code == 400
    table.refresh_from_db()
    assert [m.payload["by"] for m in table.moves.filter(payload__do="answer")] == ["Ana"]


def test_a_wrong_token_or_another_games_seat_is_not_found(gm, table):
    client = Client()
    assert client.get(reverse("amnesia_stories:seat", args=["nope"])).status_code == 404
    response = client.post(reverse("amnesia_stories:seat_move", args=["nope"]), {"pick-1": 1})
    assert response.status_code == 404
    amnesia = new_tables.create_table(gm, "amnesia", ["Ada", "Bea"], seed=7)
    token = amnesia.seats.first().token
    assert client.get(reverse("amnesia_stories:seat", args=[token])).status_code == 404


def test_the_mode_is_kept_in_the_set_up_and_the_laptop_stays_the_default(gm, gm_client):
    laptop = told(gm)
    assert not answers_on_phones(laptop)
    page = gm_client.get(reverse("games:table", args=[laptop.pk])).content.decode()
    assert "Hand the laptop" in page and 'data-testid="phones-box"' not in page
    url = reverse("games:table_new") + "?game=amnesia_stories"
    form = gm_client.get(url).content.decode()
    # The form as it comes (its defaults), with the players and the phones chosen.
    data = {
        name: html.unescape(value)
        for name, value in re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', form)
    }
    for name, body in re.findall(r'<select[^>]*name="(\w+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        if chosen:
            data[name] = chosen.group(1)
    data.update({"game": "amnesia_stories", "players": "Ana\nBruno\nCaio"})
    data.update({"deck_mode": "virtual", "answer_mode": PHONES})
    data.pop("csrfmiddlewaretoken", None)
    response = gm_client.post(reverse("games:table_new"), data)
    assert response.status_code == 302, re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())
    )[:3000]
    created = Table.objects.filter(game="amnesia_stories").order_by("-pk").first()
    assert answers_on_phones(created)


def test_an_answer_to_a_story_taken_back_does_not_count_for_the_story_told_again(table, gm):
    """A phone drew the bard's story; the game master took the story back and the bard told
    another in the same turn. The phone's answer (to the story it shows) is refused with the
    table as it is now, never counted as an answer to a story its player has not seen."""
    page = Client().get(seat_url(table, "Bruno")).content.decode()
    story = reading.state_of(table)["story"]
    writing.undo(table, table.last_seq, gm)
    table.refresh_from_db()
    state = reading.state_of(table)
    other = [state["journey"][2], state["journey"][0]]
    assert other != story
    tell = {"by": state["bard"], "do": "tell", "story": other, "text": "Near."}
    writing.play_many(table, [tell], table.last_seq)
    table.refresh_from_db()

    response = answer(Client(), table, "Bruno", (1, 2), page=page)
    assert response.status_code == 409
    assert not table.moves.filter(payload__do="answer").exists()
    # The answer drawn anew, for the story told again, is counted.
    assert answer(Client(), table, "Bruno", (1, 2)).status_code == 302
    table.refresh_from_db()
    assert reading.state_of(table)["answered"] == ["Bruno"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You are the bard: tell your story at the laptop."),
        ("pt-br", "É a sua vez de ser o bardo: conte a sua história no notebook."),
        ("ja", "あなたが吟遊詩人です。ノートPCで物語を語ってください。"),
    ],
    ids=["en", "pt-br", "ja"],
)
def test_the_bards_phone_says_they_tell_at_the_laptop(gm, language, words):
    """Before the story is told, the bard's phone sends them to the laptop; the others have
    nothing to do but watch the table. Once it is told, every phone answers."""
    table = small_table(gm, answer_mode=PHONES)
    Table.objects.filter(pk=table.pk).update(language=language)
    state = reading.state_of(table)
    assert state["phase"] == "tell"
    for name in PLAYERS:
        page = Client().get(seat_url(table, name)).content.decode()
        bard = name == state["bard"]
        assert ('data-testid="seat-bard"' in page) == bard, name
        assert (words in page) == bard, name
        assert ('data-testid="seat-wait"' in page) != bard, name
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    writing.play_many(table, [tell], table.last_seq)
    page = Client().get(seat_url(table, state["bard"])).content.decode()
    assert 'data-testid="seat-bard"' not in page and "answer-form" in page
