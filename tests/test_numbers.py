"""Every number read from a request goes through one bounded reader (``amnesia_site.numbers``):
ASCII digits only, at most 15 of them, within the caller's bounds. "²" (``str.isdigit`` says
yes, ``int`` raises) and 5,000 nines (``int`` raises past 4,300 digits) were a 500 on both
engines on a phone's answer; now they are refused in words like any wrong pick."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from amnesia_site.numbers import MAX_DIGITS, number_or_text, whole_number
from games.amnesia_stories import timer as answer_timer
from games.amnesia_stories.models import AnswerTimer
from games.amnesia_stories.modes import PHONES
from games.models import Move, Table
from games.services import new_tables
from stories import services as story_services
from tests.games.amnesia_stories.test_seat_answers import told
from tests.stories.conftest import make_story

NOT_NUMBERS = ["²", "٣", "１", "9" * 5000, "9" * (MAX_DIGITS + 1), "1_000", "+7", "1.5", "", "-"]


@pytest.mark.parametrize("raw", NOT_NUMBERS + [None, 7, ["1"]])
def test_what_is_no_bounded_number_reads_as_none(raw):
    assert whole_number(raw) is None


def test_numbers_are_read_within_their_bounds():
    assert whole_number(" 42 ") == 42 and whole_number("-3") == -3
    assert whole_number("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    assert whole_number("0", low=1) is None and whole_number("11", high=10) is None
    assert whole_number("10", low=1, high=10) == 10
    assert number_or_text(" 12 ") == 12 and number_or_text(" ² ") == "²"
    assert number_or_text("9" * 5000) == "9" * 5000


@pytest.mark.django_db
@pytest.mark.parametrize("pick", ["9" * 5000, "²", "٣", "9" * 16])
def test_a_phones_answer_with_no_number_in_it_is_a_400_in_words(gm, pick):
    table = told(gm, answer_mode=PHONES)
    token = table.seats.get(name="Ana").token
    url = reverse("amnesia_stories:seat_move", args=[token])
    data = {"pick-1": pick, "pick-2": "2", "expected_seq": table.last_seq}
    response = Client().post(url, data)
    assert response.status_code == 400
    assert 'class="alert error"' in response.content.decode()
    assert table.moves.count() == 1  # the story told, and nothing after it


@pytest.mark.django_db
@pytest.mark.parametrize("pick", ["9" * 5000, "²", "٣"])
def test_the_pass_the_laptop_answer_refuses_the_same_values(gm, gm_client, pick):
    table = told(gm)
    url = reverse("amnesia_stories:answer", args=[table.pk, 0])
    data = {"pick-1": pick, "pick-2": "2", "expected_seq": table.last_seq}
    assert gm_client.post(url, data).status_code == 400
    assert table.moves.count() == 1


@pytest.mark.django_db
def test_a_version_to_restore_that_is_no_number_is_404(gm, gm_client):
    story = make_story(gm, "en")
    seq = story_services.make_book(story).chapters[0].passages[0].seq
    url = reverse("stories:revert", args=[story.pk, seq])
    for version in ("²", "9" * 5000, "9" * 15, "-1", "0"):
        assert gm_client.post(url, {"version": version}).status_code == 404, version
    assert not story.edits.exists()


@pytest.mark.django_db
def test_a_start_seat_that_is_no_number_is_a_form_error(gm_client):
    tables = Table.objects.count()
    for start in ("²", "9" * 5000):
        data = {"game": "amnesia", "players": "Ana\nBruno", "deck_mode": "physical"}
        response = gm_client.post(reverse("games:table_new"), {**data, "start": start})
        assert response.status_code == 400, start
        assert 'name="start"' in response.content.decode()  # the form again, with its errors
    assert Table.objects.count() == tables


@pytest.mark.django_db
def test_the_timer_the_names_and_the_draft_read_bounded_numbers(gm, gm_client):
    table = told(gm)
    timer = reverse("amnesia_stories:timer", args=[table.pk])
    assert gm_client.post(timer, {"seconds": "30"}).status_code == 302
    for seconds in ("²", "9" * 5000, str(answer_timer.MAX_SECONDS + 1), "-1"):
        assert gm_client.post(timer, {"seconds": seconds}).status_code == 302
        assert AnswerTimer.objects.get(table=table).seconds == 30, seconds
    names = reverse("games:names", args=[table.pk])
    for position in ("²", "9" * 5000, "-1"):
        assert gm_client.post(names, {"position": position, "label": "Ab"}).status_code == 400
    other = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=1)
    draft = reverse("games:draft", args=[other.pk])
    assert gm_client.post(draft, {"text": "half", "seq": "²"}).status_code == 204
    assert not Move.objects.filter(table=other).exists()
