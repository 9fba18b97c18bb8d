"""The languages: the person's (the switcher, kept on a logged-in person's profile), the
table's (set on the new-table form; its projector, seat pages and pass-the-laptop screens
speak it) and the story's (its table's by default; its book and PDF speak it).

These check which language each page *speaks* (Django's active language, shown as the page's
``lang`` and ``Content-Language``), so they hold with any catalogue; the translated words are
the catalogue tests' business (tests/test_catalogues.py).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from amnesia_site.accounts.models import Profile
from games import languages, registry
from games.models import Table
from stories.books import story_language
from stories.models import story_for
from stories.services import make_book
from tests.conftest import PASSWORD
from tests.games.contest.pages import new_table
from tests.games.test_views import new_table as amnesia_table

pytestmark = pytest.mark.django_db


def spoken(response) -> str:
    """The language a page was drawn in: its Content-Language, which must match its lang."""
    assert response.status_code == 200, response.status_code
    page = response.content.decode()
    found = re.search(r'<html lang="([^"]+)"', page)
    if found:
        assert found.group(1) == response["Content-Language"]
    return response["Content-Language"]


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("en", "en"),
        ("EN", "en"),
        ("pt-br", "pt-br"),
        ("pt-BR", "pt-br"),
        ("PT-BR", "pt-br"),
        ("pt_BR", "pt-br"),
        ("ja", "ja"),
        ("JA", "ja"),
        (" ja ", "ja"),
        ("fr", None),
        ("pt", None),
        ("", None),
        (None, None),
    ],
)
def test_codes_are_read_in_any_case_and_as_locale_names(given, code) -> None:
    assert languages.normalise(given) == code


def test_the_switcher_offers_exactly_the_three_languages(client: Client) -> None:
    page = client.get(reverse("games:home")).content.decode()
    select = re.search(r'<select id="language-select".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)"', select) == ["en", "pt-br", "ja"]


def test_an_anonymous_choice_is_a_cookie(client: Client, settings) -> None:
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    assert spoken(client.get(reverse("games:home"))) == "ja"


def test_a_logged_in_choice_is_kept_on_the_profile_for_every_device(gm, gm_client) -> None:
    response = gm_client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})
    assert response.status_code == 302
    assert Profile.objects.get(user=gm).language == "pt-br"
    assert spoken(gm_client.get(reverse("games:home"))) == "pt-br"
    # Another browser, no cookie, a browser asking for English: the profile wins at login.
    phone = Client(headers={"accept-language": "en"})
    assert phone.post(reverse("login"), {"username": "gm", "password": PASSWORD}).status_code in (
        302,
        303,
    )
    assert settings_cookie_absent(phone)
    assert spoken(phone.get(reverse("games:home"))) == "pt-br"
    # Logged out, the browser's own language again.
    phone.post(reverse("logout"))
    assert spoken(phone.get(reverse("games:home"))) == "en"


def settings_cookie_absent(client: Client) -> bool:
    from django.conf import settings

    return settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_an_unknown_language_is_not_kept(gm, gm_client) -> None:
    gm_client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert not Profile.objects.filter(user=gm, language="fr").exists()


# -- the table's language ----------------------------------------------------------------------
def test_the_new_table_form_sets_the_tables_language(gm_client) -> None:
    page = gm_client.get(reverse("games:table_new") + "?game=contest").content.decode()
    assert 'name="language"' in page
    table = new_table(gm_client, language="ja")
    assert table.language == "ja"


def test_a_table_left_unnamed_is_named_in_its_makers_language(gm_client) -> None:
    """The name the form gives a table is the game's name and the players in the language the
    table was made in: a Japanese game master's contest is 「コンテスト：…」, not "Contest"."""
    gm_client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    table = new_table(gm_client, players="さくら\nけんた", name="", language="ja")
    assert table.name == "コンテスト：さくら、けんた"


def test_a_table_made_without_a_choice_speaks_its_makers_language(gm_client) -> None:
    gm_client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})
    assert new_table(gm_client).language == "pt-br"
    page = gm_client.get(reverse("games:table_new") + "?game=contest").content.decode()
    assert re.search(r'<option value="pt-br" selected>', page)


def test_a_table_left_unnamed_is_named_in_its_own_language(gm_client) -> None:
    # Named after its game and players, in the table's language (its seat pages and book
    # speak it): not the referee's English title.
    pt = amnesia_table(gm_client, name="", players="Ana\nBento", language="pt-br")
    ja = amnesia_table(gm_client, name="", players="Ana\nBento", language="ja")
    assert pt.name.startswith("Amnésia: "), pt.name
    with translation.override("ja"):
        assert ja.name.startswith(str(registry.title("amnesia"))), ja.name
    assert "Amnesia" not in ja.name, ja.name


def test_the_seat_pages_speak_the_tables_language(gm_client) -> None:
    table = new_table(gm_client, language="ja")
    seat = table.seats.get(name="Ana")
    reader = Client(headers={"accept-language": "en"})  # the player's phone, in English
    assert spoken(reader.get(reverse("contest:seat", args=[seat.token]))) == "ja"
    assert spoken(reader.get(reverse("games:seat_rules", args=[seat.token]))) == "ja"
    # The owner's own table page stays in the owner's language.
    assert spoken(gm_client.get(table.get_absolute_url())) == "en"


def test_the_projector_and_the_laptop_screens_speak_the_tables_language(
    make_table, gm_client
) -> None:
    table = make_table("amnesia_stories", ("Ana", "Bruno", "Caio"))
    Table.objects.filter(pk=table.pk).update(language="pt-br")
    projector = reverse("amnesia_stories:projector", args=[table.pk])
    page = gm_client.get(projector)
    assert spoken(page) == "pt-br"
    # Whoever reads it: so it offers no language switcher, which would change nothing there
    # (a seat's page does: its player's choice wins on their phone).
    assert 'id="language-select"' not in page.content.decode()
    seat = table.seats.get(name="Ana")
    seat_page = Client().get(reverse("amnesia_stories:seat", args=[seat.token]))
    assert 'id="language-select"' in seat_page.content.decode()
    # The next page the owner opens elsewhere speaks their own language again.
    assert spoken(gm_client.get(reverse("games:home"))) == "en"


# -- the story's language ----------------------------------------------------------------------
def test_a_story_starts_in_its_tables_language(make_table) -> None:
    table = make_table("amnesia", ("Ana", "Bruno"))
    Table.objects.filter(pk=table.pk).update(language="ja")
    table.refresh_from_db()
    story = story_for(table)
    assert story.language == "ja"
    assert story_language(story) == "ja"
    # The authors may change it; the book follows the story, not the table.
    story.language = "pt-br"
    story.save()
    assert story_language(story) == "pt-br"
    assert make_book(story).language == "pt-br"
    assert make_book(story, "JA").language == "ja"


def test_the_story_page_made_from_a_table_speaks_the_tables_language(make_table, gm_client):
    table = make_table("amnesia", ("Ana", "Bruno"))
    Table.objects.filter(pk=table.pk).update(language="ja")
    response = gm_client.post(reverse("stories:for_table", args=[table.pk]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.story.language == "ja"
    page = gm_client.get(response["Location"]).content.decode()
    # The book's part of the page is marked as Japanese, whatever the reader speaks.
    assert 'lang="ja"' in page


def test_the_book_headings_are_made_in_the_books_language(make_table) -> None:
    table = make_table("amnesia", ("Ana", "Bruno"))
    story = story_for(table, "ja")
    with translation.override("en"):
        book = make_book(story)
    assert book.language == "ja"
    assert translation.get_language() == "en"  # the reader's language is left as it was
