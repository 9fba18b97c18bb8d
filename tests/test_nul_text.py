"""No text a person sends holds a NUL character: on every form, JSON body and query string it
is a 400 and a sentence (in the reader's language), on both engines, and nothing is written.
PostgreSQL cannot store a NUL in a text (it answered 500), SQLite stored it
(``amnesia_site.middleware.NulCharacterMiddleware``)."""

from __future__ import annotations

import json

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.contest.models import Character
from games.models import Move, Seat, Table
from games.services import new_tables
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SAYS = {
    "en": "holds a NUL character",
    "pt-br": "contém um caractere NUL",
    "ja": "NUL文字",
}


@pytest.fixture
def table(gm):
    return new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=1)


def assert_refused(response, language: str = "en") -> None:
    body = response.content.decode()
    assert response.status_code == 400, (response.status_code, body[:300])
    assert SAYS[language] in body and "Traceback" not in body


@pytest.mark.parametrize("language", ["en", "pt-br", "ja"])
def test_a_nul_in_a_players_label_is_refused_in_words_and_not_stored(gm_client, table, language):
    url = reverse("games:names", args=[table.pk])
    response = gm_client.post(
        url, {"position": 0, "label": "Ab\x00cd"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert_refused(response, language)
    assert not Seat.objects.exclude(alias="").exists()
    # the same label without it is taken
    assert gm_client.post(url, {"position": 0, "label": "Abcd"}).status_code == 302
    assert Seat.objects.get(position=0, table=table).alias == "Abcd"


def test_an_htmx_request_gets_the_sentence_alone(gm_client, table):
    url = reverse("games:names", args=[table.pk])
    response = gm_client.post(url, {"position": 0, "label": "\x00"}, HTTP_HX_REQUEST="true")
    assert_refused(response)
    assert response.content.decode().startswith('<p class="flash flash--error" role="alert"')


def test_every_form_refuses_it_before_anything_is_written(gm, gm_client, table):
    tables, characters = Table.objects.count(), Character.objects.count()
    posts = {
        reverse("games:table_new"): {"game": "amnesia", "players": "Ana\nB\x00", "name": "T"},
        reverse("games:draft", args=[table.pk]): {"text": "half\x00", "seq": "0"},
        reverse("contest:character_new"): {"name": "Z\x00", "brains": 3, "muscle": 3},
        reverse("profile"): {"display_name": "G\x00M"},
        reverse("games:move", args=[table.pk]): {"by": "Ana", "do": "continue", "x\x00": "1"},
    }
    for url, data in posts.items():
        assert_refused(gm_client.post(url, data))
    assert Table.objects.count() == tables and Character.objects.count() == characters
    gm.refresh_from_db()
    table.refresh_from_db()
    assert table.draft == "" and not Move.objects.exists()


def test_the_pages_without_an_account_refuse_it_too():
    attempts = AccessAttempt.objects.count()
    client = Client(REMOTE_ADDR="198.51.100.30")
    assert_refused(client.post(reverse("login"), {"username": "g\x00m", "password": PASSWORD}))
    signup = {"username": "new\x00", "password1": PASSWORD, "password2": PASSWORD}
    assert_refused(client.post(reverse("signup"), signup))
    assert AccessAttempt.objects.count() == attempts
    assert not get_user_model().objects.filter(username__startswith="new").exists()


def test_a_query_string_with_a_nul_is_refused(gm_client, table):
    assert_refused(gm_client.get(reverse("stories:archive") + "?q=%00"))
    assert_refused(gm_client.get(reverse("games:narrative", args=[table.pk]) + "?be%00fore=1"))
    assert gm_client.get(reverse("stories:archive") + "?q=sirens").status_code == 200


def test_a_json_body_with_a_nul_gets_the_json_error(gm_client, table):
    url = reverse("games:move", args=[table.pk])
    for body in (
        '{"move": {"by": "Ana", "do": "continue", "text": "a\\u0000"}}',
        '{"move": {"by": "Ana", "do": "continue", "text": "a\\\\\\u0000"}}',
        b'{"move": {"by": "Ana", "do": "continue", "text": "a\x00"}}',
    ):
        response = gm_client.post(url, body, content_type="application/json")
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "bad_argument" and "NUL" in error["message"]
    # A backslash typed before "u0000" is no NUL: that move is played.
    move = {"move": {"by": "Ana", "do": "continue", "text": "C:\\u0000"}, "expected_seq": 0}
    response = gm_client.post(url, json.dumps(move), content_type="application/json")
    assert response.status_code == 200, response.content[:300]
    assert Move.objects.get().text == "C:\\u0000"


def test_a_file_may_hold_nul_bytes(gm_client):
    """Files keep their bytes: a script file with a NUL byte is judged by the import."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("script.json", b'{"game": "amnesia"}\x00', "application/json")
    response = gm_client.post(reverse("games:table_import"), {"script": upload})
    assert response.status_code == 400 and "not valid JSON" in response.content.decode()
