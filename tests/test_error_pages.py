"""The 400, 403, 404 and 500 pages (and a refused form's 403) with DEBUG off: each sits in the
site's frame, says in words what went wrong, and offers the way on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.services import new_tables

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.error_urls")]


@pytest.fixture(autouse=True)
def debug_off(settings) -> None:
    settings.DEBUG = False


def in_the_frame(html: str) -> None:
    assert 'class="site-header"' in html and 'class="skip-link"' in html
    assert 'href="/stories/"' in html  # the site's menu
    assert 'class="panel panel--narrow error-page"' in html
    assert "Traceback" not in html and "a fault on purpose" not in html


def test_404_for_a_table_that_is_not_yours_says_why_and_offers_the_way_on(
    gm, other_client: Client
) -> None:
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=7)
    response = other_client.get(reverse("games:table", args=[table.pk]))
    html = response.content.decode()
    assert response.status_code == 404
    in_the_frame(html)
    assert "There is nothing to see at this address" in html
    assert "not yours to see" in html
    assert 'href="/"' in html and "Back to your tables" in html


def test_404_for_a_visitor_offers_the_login_that_comes_back() -> None:
    response = Client().get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    in_the_frame(html)
    assert "log in first" in html
    assert 'href="/accounts/login/?next=/no/such/page/"' in html


def test_403_of_the_dashboard_says_why_in_the_sites_frame(other_client: Client) -> None:
    response = other_client.get(reverse("playtests:dashboard", args=["amnesia"]))
    html = response.content.decode()
    assert response.status_code == 403
    in_the_frame(html)
    assert "This page is not open to you" in html
    assert "The dashboard is for the game&#x27;s designers." in html
    assert "You are logged in as other" in html
    assert "Back to your tables" in html


def test_403_shows_the_reason_it_was_given(client: Client) -> None:
    response = client.get("/test-errors/forbidden/")
    html = response.content.decode()
    assert response.status_code == 403
    in_the_frame(html)
    assert "Only the keeper of the keys may open this door." in html
    assert "Log in" in html


def test_a_form_without_its_csrf_token_is_a_403_in_words(gm) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "gm", "password": "x"})
    html = response.content.decode()
    assert response.status_code == 403
    in_the_frame(html)
    assert "That form could not be accepted" in html
    assert "Nothing you sent was applied" in html


def test_400_says_the_request_could_not_be_read(client: Client) -> None:
    response = client.get("/test-errors/malformed/")
    html = response.content.decode()
    assert response.status_code == 400
    in_the_frame(html)
    assert "The site could not read that request" in html
    assert "Go back to the page you came from" in html


def test_500_is_in_the_frame_without_reading_the_session(gm) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(gm)
    response = client.get("/test-errors/boom/")
    html = response.content.decode()
    assert response.status_code == 500
    in_the_frame(html)
    assert "Something went wrong on our side" in html
    assert "It is not something you did" in html
    assert 'href="/"' in html and 'href="/accounts/login/"' in html
    # Rendered with no request: it names nobody and reads nothing of the session.
    assert 'data-testid="current-user"' not in html
