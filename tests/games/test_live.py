"""Live pages: the table's version, the polls that compare against it, the join screen and the
links made for phones."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from amnesia_site import addresses
from games import registry
from games.live import poll_key
from games.models import Table
from games.services import validating, writing

PLAYERS = ["Ana", "Bruno", "Caio"]
WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


@pytest.fixture
def table(make_table):
    return make_table("amnesia", PLAYERS)


def poll(client: Client, table: Table, since) -> object:
    return client.get(reverse("games:poll", args=[table.pk]), {"since": since})


def test_the_version_starts_at_0_and_counts_every_move_and_undo(table, gm):
    assert table.version == 0
    writing.play_many(table, [{"by": "Ana", "do": "continue", "text": "It begins."}], 0, gm)
    assert table.version == 1
    writing.undo(table, 1, gm)
    assert table.version == 2
    table.refresh_from_db()
    assert table.version == 2 and table.last_seq == 2


def test_a_refused_move_leaves_the_version_alone(table, gm):
    with pytest.raises(validating.StaleMove):
        writing.play_many(table, [{"by": "Ana", "do": "continue"}], 5, gm)
    table.refresh_from_db()
    assert table.version == 0


def test_bump_version_adds_one_in_the_database(table):
    stale = Table.objects.get(pk=table.pk)
    writing.bump_version(table)
    writing.bump_version(stale)  # a copy that never saw the first bump still adds one
    table.refresh_from_db()
    assert table.version == 2


def test_the_poll_answers_204_until_a_move_then_200_with_the_new_version(table, gm, gm_client):
    assert poll(gm_client, table, 0).status_code == 204
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    moved = poll(gm_client, table, 0)
    assert moved.status_code == 200
    assert moved.json() == {"version": 1}
    assert moved["HX-Trigger"] == "table-changed"
    assert moved["Cache-Control"] == "no-store"
    assert poll(gm_client, table, 1).status_code == 204


def test_the_poll_answers_200_after_an_undo(table, gm, gm_client):
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    assert poll(gm_client, table, 1).status_code == 204
    writing.undo(table, 1, gm)
    assert poll(gm_client, table, 1).status_code == 200
    assert poll(gm_client, table, 2).status_code == 204


def test_a_missing_or_odd_since_is_told_the_version(table, gm_client):
    assert poll(gm_client, table, "").json() == {"version": 0}
    assert gm_client.get(reverse("games:poll", args=[table.pk])).json() == {"version": 0}


def test_only_the_owner_may_poll_a_table(table, other_client):
    assert poll(other_client, table, 0).status_code == 404
    assert poll(Client(), table, 0).status_code == 404
    assert other_client.get(reverse("games:poll", args=[99999]), {"since": 0}).status_code == 404


def test_a_session_from_before_a_password_change_polls_nothing(table, gm, gm_client):
    assert poll(gm_client, table, 0).status_code == 204
    gm.set_password("a-new-password-entirely")
    gm.save()
    assert poll(gm_client, table, 0).status_code == 404
    gm_client.force_login(gm)
    assert poll(gm_client, table, 0).status_code == 204
    gm.is_active = False
    gm.save()
    assert poll(gm_client, table, 0).status_code == 404


def test_a_poll_with_nothing_new_reads_once_and_writes_nothing(table, gm, gm_client):
    poll(gm_client, table, 0)  # the first request of a session may set cookies; not this one
    with CaptureQueriesContext(connection) as queries:
        response = poll(gm_client, table, 0)
    assert response.status_code == 204
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [q for q in sql if WRITES.match(q)], sql
    # The session, read to know who asks, and one read of the table by its primary key (the
    # version, with the owner's row joined to check the session against).
    assert len(sql) == 2, sql
    assert "django_session" in sql[0] and "games_table" in sql[1], sql
    assert not response.cookies, "a poll must not save the session or set a cookie"


def keyed(client: Client, table: Table, since, key: str | None = None):
    table.owner.refresh_from_db()
    key = key if key is not None else poll_key(table.pk, table.owner.password)
    return client.get(reverse("games:poll", args=[table.pk]), {"since": since, "key": key})


def test_the_keyed_poll_reads_once_and_never_the_session(table, gm):
    phone = Client()  # no session at all: the key is the credential
    assert keyed(phone, table, 0).status_code == 204
    with CaptureQueriesContext(connection) as queries:
        response = keyed(phone, table, 0)
    sql = [q["sql"] for q in queries.captured_queries if "auth_user" not in q["sql"][:30]]
    # (refresh_from_db in keyed() reads the user row; the poll itself is the one query left)
    assert len(sql) == 1 and not WRITES.match(sql[0]) and "django_session" not in sql[0], sql
    assert response.status_code == 204 and not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    assert keyed(phone, table, 0).json() == {"version": 1}


def test_a_wrong_or_old_key_polls_nothing(table, gm):
    phone = Client()
    assert keyed(phone, table, 0, key="0" * 32).status_code == 404
    old = poll_key(table.pk, gm.password)
    gm.set_password("a-new-password-entirely")
    gm.save()
    assert keyed(phone, table, 0, key=old).status_code == 404
    assert keyed(phone, table, 0).status_code == 204
    # A key is for its own table only.
    assert (
        phone.get(reverse("games:poll", args=[table.pk + 1]), {"since": 0, "key": old}).status_code
        == 404
    )


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's trace of every statement")
def test_the_database_itself_runs_one_select_for_a_keyed_poll(table):
    """Below Django: every statement SQLite runs for the poll request (nothing hidden from
    the query log by the driver's own cursor)."""
    key = poll_key(table.pk, table.owner.password)
    url = reverse("games:poll", args=[table.pk])
    phone = Client()
    phone.get(url, {"since": 0, "key": key})
    connection.ensure_connection()
    ran: list[str] = []
    connection.connection.set_trace_callback(ran.append)
    try:
        assert phone.get(url, {"since": 0, "key": key}).status_code == 204
    finally:
        connection.connection.set_trace_callback(None)
    statements = [s for s in ran if not s.startswith(("SAVEPOINT", "RELEASE"))]
    assert len(statements) == 1 and statements[0].lstrip().upper().startswith("SELECT"), ran


def test_the_owners_page_carries_the_keyed_poll_url(table, gm, gm_client, rf):
    from django.template import Context, Template

    request = rf.get("/")
    request.user = gm
    rendered = Template("{% load polls %}{% poll_url table %}").render(
        Context({"table": table, "request": request})
    )
    assert rendered == reverse("games:poll", args=[table.pk]) + "?key=" + poll_key(
        table.pk, gm.password
    )
    request.user = type("Anon", (), {"is_authenticated": False})()
    plain = Template("{% load polls %}{% poll_url table %}").render(
        Context({"table": table, "request": request})
    )
    assert plain == reverse("games:poll", args=[table.pk])


def test_the_seat_poll_is_guarded_by_the_seat_token(table, gm):
    seat = table.seats.first()
    url = reverse("games:seat_poll", args=[seat.token])
    phone = Client()
    assert phone.get(url, {"since": 0}).status_code == 204
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    moved = phone.get(url, {"since": 0})
    assert moved.status_code == 200 and moved.json() == {"version": 1}
    assert phone.get(reverse("games:seat_poll", args=["not-a-token"])).status_code == 404
    with CaptureQueriesContext(connection) as queries:
        assert phone.get(url, {"since": 1}).status_code == 204
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 1 and not WRITES.match(sql[0]), sql


def test_wrong_seat_poll_tokens_count_as_guesses(table, settings):
    settings.SECRET_LINK_FAILURES = 3
    phone = Client()
    for i in range(3):
        assert phone.get(reverse("games:seat_poll", args=[f"wrong-{i}"])).status_code == 404
    seat = table.seats.first()
    assert phone.get(reverse("games:seat_poll", args=[seat.token])).status_code == 429


# -- links for phones -----------------------------------------------------------------------
def _request(rf, host: str, **meta):
    return rf.get("/", HTTP_HOST=host, **meta)


def test_a_phone_link_never_says_loopback_when_the_laptop_has_an_address(rf, settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.PUBLIC_URL = ""
    settings.LAN_ADDRESSES = ["192.168.1.20", "10.0.0.5"]
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        url = addresses.phone_url(_request(rf, host), "/seat/abc/")
        assert url == "http://192.168.1.20:8000/seat/abc/"
    chosen = addresses.phone_url(_request(rf, "127.0.0.1:8000"), "/seat/abc/", via="10.0.0.5")
    assert chosen == "http://10.0.0.5:8000/seat/abc/"
    # An address that is not the laptop's is never put in a code.
    odd = addresses.phone_url(_request(rf, "127.0.0.1:8000"), "/seat/abc/", via="6.6.6.6")
    assert odd == "http://192.168.1.20:8000/seat/abc/"


def test_a_phone_link_keeps_the_address_the_page_was_asked_on(rf, settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.PUBLIC_URL = ""
    settings.LAN_ADDRESSES = ["192.168.1.20"]
    url = addresses.phone_url(_request(rf, "laptop.local:8000"), "/seat/abc/")
    assert url == "http://laptop.local:8000/seat/abc/"
    assert addresses.address_choices(_request(rf, "laptop.local:8000")) == []


def test_public_url_wins(rf, settings):
    settings.ALLOWED_HOSTS = ["*"]
    settings.PUBLIC_URL = "https://table.example.com"
    settings.LAN_ADDRESSES = ["192.168.1.20"]
    url = addresses.phone_url(_request(rf, "127.0.0.1:8000"), "seat/abc/")
    assert url == "https://table.example.com/seat/abc/"


def test_private_addresses_are_private_ipv4_only():
    assert addresses.is_private_ipv4("192.168.1.20")
    assert addresses.is_private_ipv4("10.1.2.3") and addresses.is_private_ipv4("172.16.0.9")
    for raw in ("127.0.0.1", "169.254.3.4", "8.8.8.8", "fe80::1", "0.0.0.0", "nonsense"):
        assert not addresses.is_private_ipv4(raw), raw
    # What this machine has is its own business; whatever it lists is private IPv4.
    assert all(addresses.is_private_ipv4(a) for a in addresses.private_addresses())


def test_the_wifis_address_comes_before_a_containers_and_down_interfaces_are_left_out(
    monkeypatch,
):
    import socket
    from types import SimpleNamespace

    import psutil

    def nic(*ips):
        return [SimpleNamespace(family=socket.AF_INET, address=ip) for ip in ips]

    monkeypatch.setattr(
        psutil,
        "net_if_addrs",
        lambda: {
            "lo": nic("127.0.0.1"),
            "docker0": nic("172.17.0.1"),
            "wlan0": nic("192.168.1.20", "169.254.1.1"),
            "eth1": nic("10.0.0.7"),
            "wwan0": nic("100.100.1.1", "8.8.4.4"),
        },
    )
    up = SimpleNamespace(isup=True)
    monkeypatch.setattr(
        psutil,
        "net_if_stats",
        lambda: {"lo": up, "docker0": up, "wlan0": up, "eth1": SimpleNamespace(isup=False)},
    )
    assert addresses.private_addresses() == ["192.168.1.20", "172.17.0.1"]


def test_loopback_names():
    for host in ("localhost", "127.0.0.1", "127.0.1.1", "[::1]", "::1", "a.localhost"):
        assert addresses.is_loopback(host), host
    # 0.0.0.0, as the address a server binds, is every interface: the network.
    for host in ("192.168.1.20", "laptop.local", "example.com", "0.0.0.0"):
        assert not addresses.is_loopback(host), host


# -- the join screen ------------------------------------------------------------------------
def test_the_join_screen_shows_one_code_per_seat_with_the_laptops_address(
    make_table, gm_client, other_client, settings
):
    settings.PUBLIC_URL = ""
    settings.LAN_ADDRESSES = ["192.168.1.20", "10.0.0.5"]
    table = make_table("contest", ["Ana", "Bo", "Cy"], deck_mode="virtual")
    url = reverse("games:join", args=[table.pk])
    page = gm_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    for seat in table.seats.all():
        assert f"http://192.168.1.20:8000/seat/{seat.token}/" in page
        assert (
            reverse("games:join_qr", args=[table.pk, seat.position]) + "?via=192.168.1.20" in page
        )
    assert "127.0.0.1" not in page
    assert 'name="via"' in page  # two networks: the game master picks
    picked = gm_client.get(url, {"via": "10.0.0.5"}, HTTP_HOST="127.0.0.1:8000")
    assert f"http://10.0.0.5:8000/seat/{table.seats.first().token}/" in picked.content.decode()
    qr = gm_client.get(reverse("games:join_qr", args=[table.pk, 0]), {"via": "10.0.0.5"})
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert qr.content.lstrip().startswith(b"<?xml") or qr.content.lstrip().startswith(b"<svg")
    assert other_client.get(url).status_code == 404
    assert other_client.get(reverse("games:join_qr", args=[table.pk, 0])).status_code == 404
    assert Client().get(url).status_code == 302  # to the login page


def test_the_join_screen_says_so_when_there_is_no_network(
    make_table, gm_client, settings, monkeypatch
):
    settings.PUBLIC_URL = ""
    settings.LAN_ADDRESSES = []
    monkeypatch.setattr(addresses, "lan_addresses", lambda: [])
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    page = gm_client.get(reverse("games:join", args=[table.pk]), HTTP_HOST="127.0.0.1:8000")
    text = page.content.decode()
    assert "on no network" in text and "qr.svg" not in text


def test_a_loopback_public_url_is_the_address_of_the_join_screen(
    make_table, gm_client, settings, monkeypatch
):
    """The recipe for the phones on one machine (docs/table.md): PUBLIC_URL says 127.0.0.1, and the
    codes use it, network or not."""
    settings.PUBLIC_URL = "http://127.0.0.1:8000"
    settings.LAN_ADDRESSES = []
    monkeypatch.setattr(addresses, "lan_addresses", lambda: [])
    table = make_table("amnesia", ["Ana", "Bo"])
    page = gm_client.get(reverse("games:join", args=[table.pk]), HTTP_HOST="127.0.0.1:8000")
    text = page.content.decode()
    assert "on no network" not in text
    for seat in table.seats.all():
        assert f"http://127.0.0.1:8000{reverse('amnesia:seat', args=[seat.token])}" in text
        assert reverse("games:join_qr", args=[table.pk, seat.position]) in text
    qr = gm_client.get(reverse("games:join_qr", args=[table.pk, 0]), HTTP_HOST="127.0.0.1:8000")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


def test_the_amnesia_table_page_gives_each_seats_link_and_code(make_table, gm_client):
    table = make_table("amnesia", ["Ana", "Bo"])
    page = gm_client.get(table.get_absolute_url()).content.decode()
    for seat in table.seats.all():
        assert reverse("amnesia:seat", args=[seat.token]) in page
        assert reverse("games:join_qr", args=[table.pk, seat.position]) in page
        assert reverse("games:reissue_link", args=[table.pk, seat.position]) in page
    old = table.seats.get(position=1).token
    fresh = reissue(gm_client, table, 1, {"HTTP_HX_REQUEST": "true"})
    new = table.seats.get(position=1).token
    assert fresh.status_code == 200
    assert reverse("amnesia:seat", args=[new]) in fresh.content.decode()
    assert old not in fresh.content.decode()


def test_a_game_without_seat_pages_has_no_join_screen(table, gm_client, monkeypatch):
    # Every game has seat pages now: take Amnesia's away to see the screen refuse.
    kit = dataclasses.replace(registry.kit("amnesia"), seat_page=None)
    real = registry.kit
    monkeypatch.setattr(registry, "kit", lambda slug: kit if slug == "amnesia" else real(slug))
    assert gm_client.get(reverse("games:join", args=[table.pk])).status_code == 404


# -- revoking a seat's link -----------------------------------------------------------------
def reissue(client: Client, table: Table, position: int = 0, meta=None, **data):
    url = reverse("games:reissue_link", args=[table.pk, position])
    return client.post(url, data, **(meta or {}))


def test_the_owner_revokes_a_seat_link_and_gets_a_new_one(make_table, gm_client):
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    old = table.seats.get(position=0).token
    other_seat = table.seats.get(position=1).token
    phone = Client()
    assert phone.get(reverse("contest:seat", args=[old])).status_code == 200
    response = reissue(gm_client, table)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    new = table.seats.get(position=0).token
    assert new != old
    assert table.seats.get(position=1).token == other_seat  # the other seats keep theirs
    # The old link is gone (its page and its poll); the new one works.
    assert phone.get(reverse("contest:seat", args=[old])).status_code == 404
    assert phone.get(reverse("games:seat_poll", args=[old]), {"since": 0}).status_code == 404
    assert phone.get(reverse("contest:seat", args=[new])).status_code == 200
    # Every page that follows the table hears of it.
    table.refresh_from_db()
    assert table.version == 1 and table.last_seq == 0  # no move: only the version
    assert poll(gm_client, table, 0).status_code == 200
    assert phone.get(reverse("games:seat_poll", args=[new]), {"since": 1}).status_code == 204
    # The table page shows the new link and a QR code address that changed with it (the old
    # code is kept by browsers for an hour).
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert reverse("contest:seat", args=[new]) in page and old not in page
    assert reverse("games:reissue_link", args=[table.pk, 0]) in page


def test_the_join_screen_revokes_too_and_comes_back_to_itself(make_table, gm_client, settings):
    settings.PUBLIC_URL = ""
    settings.LAN_ADDRESSES = ["192.168.1.20", "10.0.0.5"]
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    join = reverse("games:join", args=[table.pk])
    before = gm_client.get(join, {"via": "10.0.0.5"}, HTTP_HOST="127.0.0.1:8000").content.decode()
    old = table.seats.get(position=1).token
    assert reverse("games:reissue_link", args=[table.pk, 1]) in before
    laptop = {"HTTP_HOST": "127.0.0.1:8000"}
    response = reissue(gm_client, table, 1, laptop, back="join", via="10.0.0.5")
    assert response.status_code == 302
    assert response["Location"] == f"{join}?via=10.0.0.5&reissued=1"
    after = gm_client.get(response["Location"], HTTP_HOST="127.0.0.1:8000").content.decode()
    new = table.seats.get(position=1).token
    assert f"http://10.0.0.5:8000/seat/{new}/" in after and old not in after
    assert "New link made" in after
    qr = re.compile(rf"/tables/{table.pk}/join/1/qr\.svg\?[^\"]*link=(\w+)")
    assert qr.search(before).group(1) != qr.search(after).group(1)
    # A "back" pointing elsewhere still lands on the owner's own pages.
    assert reissue(gm_client, table, 1, back="https://evil.example/")["Location"] == (
        table.get_absolute_url()
    )


def test_an_htmx_revoke_answers_the_fresh_panel(make_table, gm_client):
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    response = gm_client.post(
        reverse("games:reissue_link", args=[table.pk, 0]), HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="table-panel"')
    assert reverse("contest:seat", args=[table.seats.get(position=0).token]) in body
    assert response["HX-Replace-Url"] == table.get_absolute_url()


def test_only_the_owner_may_revoke_a_seat_link(make_table, gm, gm_client, other_client):
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    token = table.seats.get(position=0).token
    assert reissue(other_client, table).status_code == 404
    assert reissue(Client(), table).status_code == 302  # to the login page
    assert reissue(gm_client, table, 7).status_code == 404  # no such seat
    # A GET only shows the join screen; a POST without the CSRF token is refused.
    url = reverse("games:reissue_link", args=[table.pk, 0])
    assert gm_client.get(url)["Location"] == reverse("games:join", args=[table.pk])
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(gm)
    assert strict.post(url).status_code == 403
    table.refresh_from_db()
    assert table.seats.get(position=0).token == token and table.version == 0


def test_asking_with_a_revoked_link_counts_as_guessing(make_table, gm_client, settings):
    settings.SECRET_LINK_FAILURES = 1
    table = make_table("contest", ["Ana", "Bo"], deck_mode="virtual")
    old = table.seats.get(position=0).token
    reissue(gm_client, table)
    phone = Client()
    assert phone.get(reverse("games:seat_poll", args=[old])).status_code == 404
    new = table.seats.get(position=0).token
    assert phone.get(reverse("games:seat_poll", args=[new])).status_code == 429
