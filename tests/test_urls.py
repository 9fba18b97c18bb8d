"""What a URL carries is checked before any query: a seat's token, a story's secret and a key
each have their own alphabet and length (``amnesia_site.converters``), so a NUL, a space or
an overlong link is a 404 on every engine (PostgreSQL used to answer 500: it refuses a NUL in
a query parameter, where SQLite looks the text up and finds nothing)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from stories.models import Story
from tests.stories.conftest import make_story

# Converters of the site's own routes: numbers, slugs and the kinds of amnesia_site.converters.
CHECKED = {"IntConverter", "SlugConverter", "Token", "Secret", "Key"}


def routes(resolver: URLResolver | None = None, prefix: str = ""):
    """(route, its converters, the module of its view) for every URL of the site."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from routes(entry, route)
        else:
            assert isinstance(entry, URLPattern)
            module = getattr(entry.callback, "__module__", "")
            yield route, entry.pattern.converters, module


def test_every_text_a_url_of_the_site_carries_has_its_own_alphabet_and_length():
    """Django's own pages (admin, password reset) parse what they take before any query."""
    own = [
        (route, {name: type(c).__name__ for name, c in converters.items()})
        for route, converters, module in routes()
        if not module.startswith("django.")
    ]
    assert len(own) > 80
    loose = [(route, kinds) for route, kinds in own if set(kinds.values()) - CHECKED]
    assert not loose, loose


BROKEN = ["%00", "ab%00cd", "a" * 65, "has%20space", "%C3%A9t%C3%A9"]


@pytest.mark.django_db
@pytest.mark.parametrize("token", BROKEN)
def test_a_broken_seat_link_is_404_on_every_seat_route(make_table, token):
    table = make_table("amnesia_stories", ["Ana", "Bo", "Cy"])
    client = Client(REMOTE_ADDR="198.51.100.20")
    gets = [
        "/seat/{}/",
        "/seat/{}/stories/",
        "/seat/{}/amnesia/",
        "/seat/{}/poll/",
        "/seat/{}/rules/",
        "/seat/{}/pictures/1/large/",
        "/playtests/seat/{}/impression/",
    ]
    posts = [
        "/seat/{}/move/",
        "/seat/{}/stories/answer/",
        "/seat/{}/amnesia/move/",
        "/playtests/seat/{}/impression/",
    ]
    client.raise_request_exception = False
    for url in gets:
        assert client.get(url.format(token)).status_code == 404, url
    for url in posts:
        assert client.post(url.format(token), {"pick-1": "1"}).status_code == 404, url
    assert table.moves.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("secret", BROKEN)
def test_a_broken_story_link_is_404_on_every_secret_route(gm, secret):
    make_story(gm, visibility=Story.Visibility.UNLISTED, published=True)
    client = Client(REMOTE_ADDR="198.51.100.21")
    client.raise_request_exception = False
    for tail in ("", "pdf/", "pdf/status/", "cover/", "epub/", "html/", "pictures/1/large/"):
        url = f"/stories/s/{secret}/{tail}"
        assert client.get(url).status_code == 404, url


@pytest.mark.django_db
def test_a_broken_key_is_404(gm_client):
    gm_client.raise_request_exception = False
    for url in ("/areas/A01/%00/", "/areas/A%0001/large/", "/decks/1/cards/1/%00/"):
        assert gm_client.get(url).status_code == 404, url


@pytest.mark.django_db
def test_djangos_own_pages_with_a_nul_in_the_link_are_no_500(gm, gm_client, settings):
    """Password reset and the admin parse what they take before any query."""
    gm.is_staff = gm.is_superuser = True
    gm.save()
    client = Client(REMOTE_ADDR="198.51.100.22")
    for sender in (client, gm_client):
        sender.raise_request_exception = False
    admin = "/" + settings.ADMIN_URL
    for sender, url in (
        (client, "/accounts/reset/%00/%00/"),
        (client, "/accounts/reset/MQ/set-%00/"),
        (gm_client, f"{admin}games/table/%00/change/"),
        (gm_client, f"{admin}auth/user/%00/change/"),
        (gm_client, f"{admin}games/table/?q=%00"),
    ):
        assert sender.get(url).status_code in (200, 302, 400, 404), url
