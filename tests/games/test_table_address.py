"""The address a table page shows is always one that answers a GET with the page.

A write URL (a move, an undo, the draft, each game's own) opened with GET is sent on to its
page; an htmx answer names the page's address (``HX-Replace-Url``), so the bar never holds
the URL a form posted to and moves add no history entries; the pages are never cached, so
Back shows the table as it is now.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.contest.models import Character
from games.services import new_tables, writing
from tests.tables import contest_in_play

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def amnesia(gm):
    return new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=1)


@pytest.fixture
def contest(gm):
    return contest_in_play(gm, seed=3, deck_mode="physical")


@pytest.mark.parametrize("name", ["games:move", "games:undo", "games:draft"])
def test_a_write_url_opened_with_get_shows_its_table(gm_client, amnesia, name):
    response = gm_client.get(reverse(name, args=[amnesia.pk]))
    assert response.status_code == 302
    assert response["Location"] == amnesia.get_absolute_url()
    assert gm_client.get(response["Location"]).status_code == 200


def test_each_games_write_urls_send_a_get_to_their_page(gm, gm_client, contest):
    stories = new_tables.create_table(gm, "amnesia_stories", ["Ana", "Bo", "Cy"], seed=2)
    for name, table in [
        ("amnesia_stories:revealed", stories),
        ("contest:table_character", contest),
        ("contest:bring", contest),
        ("contest:display", contest),
    ]:
        response = gm_client.get(reverse(name, args=[table.pk]))
        assert response["Location"] == table.get_absolute_url(), name
    token = contest.seats.get(name="Ana").token
    response = gm_client.get(reverse("contest:seat_move", args=[token]))
    assert response["Location"] == reverse("contest:seat", args=[token])
    character = Character.objects.create(owner=gm, name="Kim")
    response = gm_client.get(reverse("contest:character_spend", args=[character.pk]))
    assert response["Location"] == reverse("contest:character", args=[character.pk])


def test_only_get_and_post_are_taken(gm_client, amnesia):
    response = gm_client.put(reverse("games:move", args=[amnesia.pk]))
    assert response.status_code == 405
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD", "POST"}


def test_htmx_answers_keep_the_tables_address_played_or_refused(gm_client, amnesia):
    url = reverse("games:move", args=[amnesia.pk])
    played = gm_client.post(url, {"by": "Ana", "do": "continue", "expected_seq": 0}, **HTMX)
    assert played.status_code == 200
    assert played["HX-Replace-Url"] == amnesia.get_absolute_url()
    stale = gm_client.post(url, {"by": "Ana", "do": "end_scene", "expected_seq": 0}, **HTMX)
    assert stale.status_code == 409
    assert stale["HX-Replace-Url"] == amnesia.get_absolute_url()
    # The message's way on is the table's own address, which answers a GET.
    assert f'<a href="{amnesia.get_absolute_url()}" hx-boost="false">' in stale.content.decode()
    refused = gm_client.post(url, {"by": "Bruno", "do": "end_scene", "expected_seq": 1}, **HTMX)
    assert refused.status_code == 400
    assert refused["HX-Replace-Url"] == amnesia.get_absolute_url()
    undone = gm_client.post(reverse("games:undo", args=[amnesia.pk]), {"expected_seq": 1}, **HTMX)
    assert undone["HX-Replace-Url"] == amnesia.get_absolute_url()


def test_a_plain_post_still_redirects_to_the_table(gm_client, amnesia):
    url = reverse("games:move", args=[amnesia.pk])
    response = gm_client.post(url, {"by": "Ana", "do": "continue", "expected_seq": 0})
    assert response.status_code == 302
    assert response["Location"] == amnesia.get_absolute_url()


def test_a_seats_answers_keep_the_seats_address(client, contest):
    token = contest.seats.get(name="Bo").token
    seat_url = reverse("contest:seat", args=[token])
    response = client.post(
        reverse("contest:seat_move", args=[token]),
        {"do": "take_control", "with": "drinks", "expected_seq": contest.last_seq},
        **HTMX,
    )
    assert response["HX-Replace-Url"] == seat_url
    assert client.get(seat_url, **HTMX)["HX-Replace-Url"] == seat_url


def test_a_move_being_tapped_in_keeps_its_own_address(gm_client, contest):
    move = {"by": "Bo", "do": "take_control", "with": "face_card"}
    response = gm_client.post(
        reverse("contest:build", args=[contest.pk]),
        {"move": json.dumps(move), "expected_seq": contest.last_seq},
        **HTMX,
    )
    assert response.status_code == 200
    address = response["HX-Replace-Url"]
    assert address.startswith(reverse("contest:build", args=[contest.pk]) + "?move=")
    assert gm_client.get(address).status_code == 200  # a reload shows the grid again


def test_the_table_page_is_never_cached(gm_client, amnesia):
    response = gm_client.get(amnesia.get_absolute_url())
    assert "no-store" in response["Cache-Control"]


def test_every_page_names_its_icon_and_the_old_address_finds_it(client):
    assert 'rel="icon"' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_a_reload_of_a_move_being_tapped_in_shows_the_table_even_when_moved_past(
    gm, gm_client, contest
):
    build = reverse("contest:build", args=[contest.pk])
    move = json.dumps({"by": "Bo", "do": "take_control", "with": "face_card"})
    # Ana challenged meanwhile: taking control is no longer a move; the page still answers.
    challenge = {"do": "challenge", "target": "Bo", "contest": "pies", "attribute": "muscle"}
    writing.play_many(contest, [{"by": "Ana", **challenge, "named": True}], None, gm)
    assert gm_client.get(build, {"move": move}).status_code == 200
    response = gm_client.get(build)  # the address cut short
    assert response.status_code == 302 and response["Location"] == contest.get_absolute_url()
