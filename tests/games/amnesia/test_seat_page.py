"""An Amnesia player's own page on their phone: what they see (their tokens, the bank, the
discard, the last scenes), only their own legal moves as buttons, and every move posted from
it through the one write path in that seat's name (another seat's move refused, a wrong token
a 404)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.models import Table
from games.services import new_tables, reading, writing

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table) -> Table:
    return make_table("amnesia", ["Ana", "Bruno", "Caio"])


def page_of(client: Client, table: Table, name: str) -> str:
    seat = table.seats.get(name=name)
    response = client.get(reverse("amnesia:seat", args=[seat.token]))
    assert response.status_code == 200
    return response.content.decode()


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(fragment)).split())


def moves_section(page: str) -> str:
    return re.search(r'<section class="seat-moves".*?</section>', page, re.S).group(0)


def buttons(page: str) -> list[str]:
    found = re.findall(r"<button[^>]*>(.*?)</button>", moves_section(page), re.S)
    return [text_of(t) for t in found]


def submit(client: Client, page: str, label: str, **typed: str):
    """Press the button reading ``label``: post its form's hidden fields, the button's name
    and value and what was ``typed``, as a browser would."""
    for form in re.findall(r'<form method="post".*?</form>', moves_section(page), re.S):
        for attrs, text in re.findall(r"<button([^>]*)>(.*?)</button>", form, re.S):
            if text_of(text) != label:
                continue
            action = html.unescape(re.search(r'action="([^"]+)"', form).group(1))
            data = {
                k: html.unescape(v)
                for k, v in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
            }
            data[re.search(r'name="(\w+)"', attrs).group(1)] = re.search(
                r'value="([^"]*)"', attrs
            ).group(1)
            data.update(typed)
            return client.post(action, data)
    raise AssertionError(f"no button {label!r} on the page")


def test_the_kit_names_the_seat_page_and_the_join_screen_links_it(gm_client, table):
    assert registry.kit("amnesia").seat_page == "amnesia:seat"
    page = gm_client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert f'href="{reverse("games:join", args=[table.pk])}"' in page
    join = gm_client.get(reverse("games:join", args=[table.pk])).content.decode()
    for seat in table.seats.all():
        assert reverse("amnesia:seat", args=[seat.token]) in join


def test_the_player_on_turn_sees_their_tokens_and_their_turn_choices(table):
    client = Client()
    page = page_of(client, table, "Ana")
    assert "You have 10 tokens" in page
    assert "Bank" in page and "Discard" in page
    assert "Continue the story (pay 1 to the bank)" in buttons(page)
    # The others have nothing to press on Ana's turn.
    other = page_of(client, table, "Bruno")
    assert buttons(other) == []
    assert 'data-testid="nothing-to-do"' in other
    # The page follows the table through the seat's poll.
    token = table.seats.get(name="Bruno").token
    assert f'data-poll="{reverse("games:seat_poll", args=[token])}"' in other


def test_a_turn_and_its_narration_from_the_phone(table):
    client = Client()
    response = submit(
        client, page_of(client, table, "Ana"), "Continue the story (pay 1 to the bank)"
    )
    assert response.status_code == 302
    table.refresh_from_db()
    state = reading.state_of(table)
    assert state["phase"] == "scene" and state["narrator"] == "Ana"
    # Bruno suggests from his phone, against the scene (an independent move).
    response = submit(
        client, page_of(client, table, "Bruno"), "Suggest", text="A cat <b>meows</b>."
    )
    assert response.status_code == 302
    ana = page_of(client, table, "Ana")
    assert "Suggest" not in buttons(ana)  # the narrator does not suggest to herself
    response = submit(client, ana, "End the scene", text="She opens the <door>.")
    assert response.status_code == 302
    table.refresh_from_db()
    moves = list(table.moves.order_by("seq").values_list("payload", flat=True))
    assert [(m["by"], m["do"]) for m in moves] == [
        ("Ana", "continue"),
        ("Bruno", "suggest"),
        ("Ana", "end_scene"),
    ]
    assert table.moves.order_by("seq").last().text == "She opens the <door>."
    page = page_of(client, table, "Caio")
    # The story so far on the phone, escaped.
    assert "She opens the &lt;door&gt;." in page
    assert "A cat &lt;b&gt;meows&lt;/b&gt;." in page
    assert "<door>" not in page


def test_a_seat_moves_only_in_its_own_name(table):
    client = Client()
    bruno = table.seats.get(name="Bruno")
    # Bruno's phone posts Ana's turn, naming Ana: the move is Bruno's, and the rules refuse it.
    response = client.post(
        reverse("amnesia:seat_move", args=[bruno.token]),
        {"by": "Ana", "do": "continue", "expected_seq": table.last_seq},
    )
    # Refused by the referee (not Bruno's turn), and the page says so.
    assert response.status_code == 400
    assert "Continue the story" not in " ".join(buttons(response.content.decode()))
    table.refresh_from_db()
    assert table.last_seq == 0
    assert reading.state_of(table)["phase"] == "turn"


def test_a_wrong_token_or_another_games_seat_is_not_found(gm, table):
    client = Client()
    assert client.get(reverse("amnesia:seat", args=["not-a-token"])).status_code == 404
    response = client.post(
        reverse("amnesia:seat_move", args=["not-a-token"]), {"do": "continue", "expected_seq": 0}
    )
    assert response.status_code == 404
    contest = new_tables.create_table(gm, "contest", ["Ada", "Bea"], seed=7)
    token = contest.seats.first().token
    assert client.get(reverse("amnesia:seat", args=[token])).status_code == 404


def test_a_resent_suggestion_counts_once(table):
    client = Client()
    submit(client, page_of(client, table, "Ana"), "Continue the story (pay 1 to the bank)")
    page = page_of(client, table, "Bruno")
    first = submit(client, page, "Suggest", text="Once.")
    again = submit(client, page, "Suggest", text="Once.")  # the same form, the same client id
    assert first.status_code == again.status_code == 302
    table.refresh_from_db()
    assert table.last_seq == 2


def test_a_stake_left_unsaid_reads_as_a_side_with_nothing_after_its_colon(table):
    # A side may state its stakes aloud and only press the button: the story so far names
    # the side, with no colon left hanging, as the book does ("Bruno stakes —").
    moves = [
        {"by": "Ana", "do": "continue"},
        {"by": "Bruno", "do": "insist", "text": "The window."},
        {"by": "Ana", "do": "refuse"},
        {"by": "Bruno", "do": "stake"},
        {"by": "Ana", "do": "stake", "text": "She stays."},
    ]
    writing.play_many(table, moves, table.last_seq)
    story = text_of(
        re.search(
            r'<div class="challenge-box">.*?</div>', page_of(Client(), table, "Caio"), re.S
        ).group(0)
    )
    assert "Bruno stakes Ana stakes: She stays." in story, story
