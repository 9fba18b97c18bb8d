"""Guessing, refused in words: failed logins (django-axes) per account and address and per
address, and wrong seat and story links per address; the client's address behind proxies."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse

from amnesia_site.clients import client_ip, client_key
from stories.models import Story
from tests.conftest import PASSWORD
from tests.stories.conftest import make_story

GM_ADDRESS = "203.0.113.5"
GUESSER = "198.51.100.9"


# ---- The client's address ------------------------------------------------------------------


def request_from(remote: str, forwarded: str | None = None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


def test_without_proxies_the_address_is_the_connections_whatever_the_headers_say(
    settings,
) -> None:
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request_from("198.51.100.9", "203.0.113.77")) == "198.51.100.9"


@pytest.mark.parametrize(
    ("proxies", "forwarded", "client"),
    [
        # The client may send any X-Forwarded-For; each trusted proxy appends what it saw.
        (1, "203.0.113.77, 198.51.100.9", "198.51.100.9"),
        (1, "198.51.100.9", "198.51.100.9"),
        (2, "203.0.113.77, 198.51.100.9, 10.0.0.2", "198.51.100.9"),
        (2, "198.51.100.9", "198.51.100.9"),  # fewer entries than proxies: the furthest seen
        (1, "", "10.0.0.1"),  # not through the proxy: the connection's address
        (1, "not-an-address", "10.0.0.1"),
        (1, "::ffff:198.51.100.9", "198.51.100.9"),
    ],
)
def test_behind_proxies_the_client_is_the_nth_entry_from_the_right(
    settings, proxies: int, forwarded: str, client: str
) -> None:
    settings.TRUSTED_PROXY_COUNT = proxies
    assert client_ip(request_from("10.0.0.1", forwarded)) == client


def test_an_ipv6_client_counts_as_its_whole_64_network() -> None:
    a = request_from("2001:db8:1:2:aaaa::1")
    b = request_from("2001:db8:1:2:bbbb::9")
    assert client_ip(a) == "2001:db8:1:2:aaaa::1"
    assert client_key(a) == client_key(b) == "2001:db8:1:2::"
    assert client_key(request_from("2001:db8:1:3::1")) != client_key(a)
    assert client_key(request_from("198.51.100.9")) == "198.51.100.9"


# ---- Logins --------------------------------------------------------------------------------


def log_in(username: str, password: str, address: str, path: str | None = None):
    client = Client(REMOTE_ADDR=address)
    response = client.post(path or reverse("login"), {"username": username, "password": password})
    return client, response


def fail(times: int, username: str = "gm", address: str = GUESSER) -> list[int]:
    """Log in with a wrong password ``times`` times; the status of each answer."""
    return [log_in(username, "wrong guess", address)[1].status_code for _ in range(times)]


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_five_wrong_passwords_pause_that_account_from_that_address(gm, settings) -> None:
    # The failure that reaches the limit is answered with the pause already.
    assert fail(settings.AXES_FAILURE_LIMIT, address=GM_ADDRESS) == [200, 200, 200, 200, 429]
    client, response = log_in("gm", PASSWORD, GM_ADDRESS)
    assert response.status_code == 429
    assert not logged_in(client)
    assert response["Retry-After"] == str(15 * 60)
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "paused for 15 minutes" in page
    assert 'class="brand"' in page  # in the site's frame


@pytest.mark.django_db
def test_one_wrong_password_fewer_still_lets_the_right_one_in(gm, settings) -> None:
    assert set(fail(settings.AXES_FAILURE_LIMIT - 1, address=GM_ADDRESS)) == {200}
    client, response = log_in("gm", PASSWORD, GM_ADDRESS)
    assert response.status_code == 302 and logged_in(client)


@pytest.mark.django_db
def test_after_the_cool_off_the_right_password_logs_in(gm, settings) -> None:
    fail(settings.AXES_FAILURE_LIMIT, address=GM_ADDRESS)
    assert log_in("gm", PASSWORD, GM_ADDRESS)[1].status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=16))
    client, response = log_in("gm", PASSWORD, GM_ADDRESS)
    assert response.status_code == 302 and logged_in(client)


@pytest.mark.django_db
def test_guessing_at_the_game_masters_name_elsewhere_never_locks_them_out(gm) -> None:
    fail(25, address=GUESSER)  # past both limits
    assert log_in("gm", PASSWORD, GUESSER)[1].status_code == 429
    client, response = log_in("gm", PASSWORD, GM_ADDRESS)
    assert response.status_code == 302 and logged_in(client)


@pytest.mark.django_db
def test_one_address_trying_many_accounts_is_paused_for_all_of_them(
    django_user_model, settings
) -> None:
    django_user_model.objects.create_user(username="mallory", password=PASSWORD)
    names = ["gm", "ana", "bruno", "caio", "dora"]
    per_name = settings.AXES_FAILURE_LIMIT - 1  # never enough to pause one account
    statuses = [status for name in names for status in fail(per_name, username=name)]
    assert len(statuses) == settings.LOGIN_FAILURES_PER_ADDRESS
    assert set(statuses[:-1]) == {200} and statuses[-1] == 429
    client, response = log_in("mallory", PASSWORD, GUESSER)
    assert response.status_code == 429
    assert not logged_in(client)
    # Elsewhere the same account logs in.
    assert log_in("mallory", PASSWORD, GM_ADDRESS)[1].status_code == 302


@pytest.mark.django_db
def test_logging_in_forgives_only_that_accounts_own_mistakes(gm, django_user_model, settings):
    django_user_model.objects.create_user(username="mallory", password=PASSWORD)
    fail(settings.AXES_FAILURE_LIMIT - 1, username="mallory")
    fail(settings.AXES_FAILURE_LIMIT - 1, username="gm")
    assert log_in("mallory", PASSWORD, GUESSER)[1].status_code == 302
    # Mallory's own mistakes are forgiven...
    assert set(fail(settings.AXES_FAILURE_LIMIT - 1, username="mallory")) == {200}
    assert log_in("mallory", PASSWORD, GUESSER)[1].status_code == 302
    # ...the guesses at the game master's account are not: one more reaches the limit.
    assert fail(1, username="gm") == [429]
    assert log_in("gm", PASSWORD, GUESSER)[1].status_code == 429


@pytest.mark.django_db
def test_the_admin_login_is_guarded_too(django_user_model, settings) -> None:
    django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    admin_login = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in("root", "wrong guess", GUESSER, admin_login)
    client, response = log_in("root", PASSWORD, GUESSER, admin_login)
    assert response.status_code == 429
    assert not logged_in(client)


@pytest.mark.django_db
def test_behind_a_proxy_failures_count_for_the_forwarded_client(gm, settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.1"
    for n in range(settings.AXES_FAILURE_LIMIT):
        # A spoofed first entry changes nothing: the proxy's own entry is the one read.
        client = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, {GUESSER}")
        client.post(reverse("login"), {"username": "gm", "password": "wrong guess"})
    guesser = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=GUESSER)
    assert (
        guesser.post(reverse("login"), {"username": "gm", "password": PASSWORD}).status_code == 429
    )
    gm_client = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=GM_ADDRESS)
    assert (
        gm_client.post(reverse("login"), {"username": "gm", "password": PASSWORD}).status_code
        == 302
    )


# ---- Secret links --------------------------------------------------------------------------


def wrong_seats(client: Client, count: int, first: int = 0) -> None:
    for n in range(first, first + count):
        assert client.get(reverse("contest:seat", args=[f"wrong-{n}"])).status_code == 404


@pytest.mark.django_db
def test_too_many_wrong_seat_links_from_one_address_get_429(make_table, settings) -> None:
    table = make_table("contest", ["Ana", "Bo"])
    seat = table.seats.get(name="Ana")
    guesser = Client(REMOTE_ADDR=GUESSER)
    wrong_seats(guesser, settings.SECRET_LINK_FAILURES - 1)
    assert guesser.get(reverse("contest:seat", args=[seat.token])).status_code == 200
    wrong_seats(guesser, 1, first=settings.SECRET_LINK_FAILURES)  # the limit reached

    # Now every seat link is refused from there, the right one too, a move as well.
    response = guesser.get(reverse("contest:seat", args=[seat.token]))
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    page = response.content.decode()
    assert "Too many wrong links" in page and "Wait 15 minutes" in page
    assert guesser.post(reverse("contest:seat_move", args=[seat.token]), {}).status_code == 429
    # An htmx request gets the message alone, for the page it came from to show.
    partial = guesser.get(reverse("contest:seat", args=[seat.token]), HTTP_HX_REQUEST="true")
    assert partial.status_code == 429
    assert partial.content.decode().startswith('<p class="flash flash--error" role="alert"')
    # Another address is not concerned.
    player = Client(REMOTE_ADDR=GM_ADDRESS)
    assert player.get(reverse("contest:seat", args=[seat.token])).status_code == 200


@pytest.mark.django_db
def test_the_same_dead_link_polled_again_and_again_is_not_guessing(make_table, settings) -> None:
    table = make_table("contest", ["Ana", "Bo"])
    seat = table.seats.get(name="Ana")
    phone = Client(REMOTE_ADDR=GM_ADDRESS)
    dead = reverse("contest:seat", args=["a-seat-of-a-deleted-table"])
    for _ in range(settings.SECRET_LINK_FAILURES * 2):
        assert phone.get(dead, HTTP_HX_REQUEST="true").status_code == 404
    assert phone.get(reverse("contest:seat", args=[seat.token])).status_code == 200


@pytest.mark.django_db
def test_the_pause_ends_with_the_cool_off(make_table, settings, monkeypatch) -> None:
    table = make_table("contest", ["Ana", "Bo"])
    seat = table.seats.get(name="Ana")
    guesser = Client(REMOTE_ADDR=GUESSER)
    wrong_seats(guesser, settings.SECRET_LINK_FAILURES)
    assert guesser.get(reverse("contest:seat", args=[seat.token])).status_code == 429
    later = time.time() + settings.SECRET_LINK_COOL_OFF.total_seconds() + 1
    monkeypatch.setattr(time, "time", lambda: later)
    assert guesser.get(reverse("contest:seat", args=[seat.token])).status_code == 200


@pytest.mark.django_db
def test_too_many_wrong_story_links_get_429_on_every_secret_route(gm, settings) -> None:
    story = make_story(gm, visibility=Story.Visibility.UNLISTED, published=True)
    guesser = Client(REMOTE_ADDR=GUESSER)
    for n in range(settings.SECRET_LINK_FAILURES):
        assert guesser.get(reverse("stories:shared", args=[f"guess-{n}"])).status_code == 404
    for name in ("stories:shared", "stories:shared_pdf", "stories:shared_cover"):
        response = guesser.get(reverse(name, args=[story.secret]))
        assert response.status_code == 429, name
    reader = Client(REMOTE_ADDR=GM_ADDRESS)
    assert reader.get(reverse("stories:shared", args=[story.secret])).status_code == 200
    # Seat links are counted apart.
    assert guesser.get(reverse("contest:seat", args=["wrong"])).status_code == 404


@pytest.mark.django_db
def test_guessing_at_impression_links_is_throttled_like_the_seat_links(make_table, settings):
    """The playtest impression link is a seat link: the same counter, the same 429."""
    table = make_table("contest", ["Ana", "Bo"])
    seat = table.seats.get(name="Ana")
    guesser = Client(REMOTE_ADDR=GUESSER)
    for n in range(settings.SECRET_LINK_FAILURES):
        url = reverse("playtests:seat_impression", args=[f"guess-{n}"])
        assert guesser.get(url).status_code == 404
    for url in (
        reverse("playtests:seat_impression", args=[seat.token]),
        reverse("playtests:seat_impression", args=["guess-x"]),
        reverse("contest:seat", args=[seat.token]),
    ):
        assert guesser.get(url).status_code == 429, url
    response = guesser.post(reverse("playtests:seat_impression", args=[seat.token]), {"fun": 5})
    assert response.status_code == 429
    player = Client(REMOTE_ADDR=GM_ADDRESS)
    assert player.get(reverse("playtests:seat_impression", args=[seat.token])).status_code == 200
