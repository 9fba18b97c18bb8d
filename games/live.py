"""Pages that follow a table: the polls that say when to refresh, and the join screen.

Every page that shows a live table asks, every few seconds, whether the table's ``version``
(``writing.bump_version``) is still the one it was drawn at. Most of the time it is, and the
answer must cost next to nothing, since every phone at every table asks: one indexed read of
the version, no write, no session save, no replay, an empty 204. When the version moved, a
200 says so (``{"version": N}`` and an ``HX-Trigger: table-changed`` header) and the page
re-fetches its own panel (``static/js/live.js``).
"""

from __future__ import annotations

import io
from functools import lru_cache

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.views.decorators.http import require_safe

from amnesia_site.addresses import address_choices, phone_url, reaches_no_phone
from amnesia_site.htmx import HtmxHttpRequest
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games import registry
from games.answers import render_table, write_url
from games.models import Seat, Table, link_mark
from games.services import table_writes

TRIGGER = "table-changed"


def _answer(request: HtmxHttpRequest, version: int | None) -> HttpResponse:
    """204 while ``version`` is the page's ``since``; else the new version."""
    if version is None:
        raise Http404("No such table.")
    if request.GET.get("since") == str(version):
        response = HttpResponse(status=204)
    else:
        response = JsonResponse({"version": version})
        response["HX-Trigger"] = TRIGGER
    # A poll's answer is never worth keeping: the next one may differ.
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def table_poll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The owner's pages (the game master's, the projector): 404 for anyone else, as on the
    table page itself. The page's poll URL carries a key (``poll_key``), checked without the
    session; without one, the session says who asks."""
    key = request.GET.get("key")
    if key is not None:
        return _answer(request, _keyed_version(pk, key))
    return _answer(request, _owner_version(request, pk))


@lru_cache(maxsize=4096)
def poll_key(table_pk: int, password: str) -> str:
    """The key of the owner's poll URL: an HMAC of the table and the owner's password hash
    (as a session's auth hash is), so a new password ends every key given before it. It lets
    its holder learn the table's version number and nothing else. Kept per process: the
    same few tables poll all evening."""
    return salted_hmac(_KEY_SALT, f"{table_pk}:{password}", algorithm="sha256").hexdigest()[:32]


_KEY_SALT = "games.live.poll_key"


@lru_cache(maxsize=8)
def _sql(query: str, vendor: str) -> str:
    """``query`` with its {table} names filled in as this database quotes them."""
    quote = connection.ops.quote_name
    sql = query.format(
        table=quote(Table._meta.db_table),
        seat=quote(Seat._meta.db_table),
        user=quote(get_user_model()._meta.db_table),
    )
    # The driver's own placeholder: sqlite3 takes ?, psycopg %s.
    return sql.replace("%s", "?") if vendor == "sqlite" else sql


def _read_one(query: str, params: list) -> tuple | None:
    """One row of a plain SQL read, through the driver's own cursor.

    A poll is one indexed read, and the ORM's building of a query, or even Django's cursor
    wrapper (which rewrites the placeholders on every call for SQLite), costs more than the
    read itself (bench/poll.py). Errors still become Django's, so a locked or lost database
    is the site's 503 as everywhere else.
    """
    if connection.queries_logged:
        # Someone is counting queries (DEBUG, a test): Django's cursor records this one too.
        with connection.cursor() as cursor:
            cursor.execute(_sql(query, "django"), params)
            return cursor.fetchone()
    sql = _sql(query, connection.vendor)
    with connection.wrap_database_errors:
        connection.ensure_connection()
        cursor = connection.connection.cursor()
        try:
            cursor.execute(sql, params)
            return cursor.fetchone()
        finally:
            cursor.close()


def _keyed_version(pk: int, key: str) -> int | None:
    row = _read_one(
        "SELECT t.version, u.password FROM {table} t JOIN {user} u ON u.id = t.owner_id "
        "WHERE t.id = %s AND u.is_active",
        [pk],
    )
    if row is None or not constant_time_compare(key, poll_key(pk, row[1])):
        return None
    return row[0]


def _owner_version(request: HtmxHttpRequest, pk: int) -> int | None:
    """The table's version if the session's user owns it, else None; in one query.

    ``request.user`` would load the user row and then the table (two queries after the
    session's). Instead the session's user id is matched against the table's owner in the
    query that reads the version, which brings the owner's password hash along, and the
    session is verified as ``django.contrib.auth.get_user`` does (the hash of that password,
    current secret or a fallback; an inactive user is nobody). The poll only reads: a session
    that needs rotating (a fallback secret) is rotated by the next page it loads.
    """
    session = request.session
    user_id = session.get(SESSION_KEY)
    session_hash = session.get(HASH_SESSION_KEY)
    if not user_id or not session_hash:
        return None
    if session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return None
    row = (
        Table.objects.filter(pk=pk, owner_id=user_id, owner__is_active=True)
        .values_list("version", "owner__password")
        .first()
    )
    if row is None:
        return None
    version, password = row
    owner = get_user_model()(password=password)
    hashes = [owner.get_session_auth_hash(), *owner.get_session_auth_fallback_hash()]
    if not any(constant_time_compare(session_hash, h) for h in hashes):
        return None
    return version


@require_safe
@guards_secret(SEAT_LINKS, "token")
def seat_poll(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A seat's page: its token is the credential (a wrong one counts as a guess)."""
    row = _read_one(
        "SELECT t.version FROM {seat} s JOIN {table} t ON t.id = s.table_id WHERE s.token = %s",
        [token],
    )
    return _answer(request, row[0] if row else None)


# A poll answers in a number: no language to choose, so no session to load for it
# (amnesia_site.accounts.languages.ProfileLanguageMiddleware).
table_poll.reads_no_session = True  # type: ignore[attr-defined]  # a mark on the function
seat_poll.reads_no_session = True  # type: ignore[attr-defined]  # (read with getattr)


# -- the join screen ------------------------------------------------------------------------
def _joinable(request: HtmxHttpRequest, pk: int) -> tuple[Table, str]:
    if not request.user.is_authenticated:
        raise Http404("No such table.")
    table = get_object_or_404(Table.objects.owned_by(request.user), pk=pk)
    try:
        seat_page = registry.kit(table.game).seat_page
    except registry.UnknownGame:
        seat_page = None
    if not seat_page:
        raise Http404("This game has no seat pages.")
    return table, seat_page


@login_required
@require_safe
def join(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One large QR code per seat, for the projector or for printing (the owner only: each
    code is that seat's secret link)."""
    table, seat_page = _joinable(request, pk)
    choices = address_choices(request)
    via = request.GET.get("via")
    if via not in choices:
        via = choices[0] if choices else None
    query = f"?via={via}" if via else ""
    seats = [
        {
            "seat": seat,
            "url": phone_url(request, reverse(seat_page, args=[seat.token]), via),
            "qr": reverse("games:join_qr", args=[table.pk, seat.position])
            + (query or "?")
            + ("&" if query else "")
            + f"link={link_mark(seat.token)}",
        }
        for seat in table.seats.all()
    ]
    # No network at all: the screen says so instead of showing codes that lead nowhere.
    offline = reaches_no_phone(request)
    context = {
        "table": table,
        "seats": seats,
        "choices": choices,
        "via": via,
        "offline": offline,
        "reissued": request.GET.get("reissued"),
    }
    return render(request, "games/join.html", context)


@login_required
@require_safe
def join_qr(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    table, seat_page = _joinable(request, pk)
    seat = get_object_or_404(Seat, table=table, position=position)
    url = phone_url(request, reverse(seat_page, args=[seat.token]), request.GET.get("via"))
    return qr_svg(url)


def _join_page(pk: int, **_kwargs: object) -> str:
    return reverse("games:join", args=[pk])


@login_required
@write_url(_join_page)
def reissue_link(request: HtmxHttpRequest, pk: int, position: int) -> HttpResponse:
    """Revoke a seat's link and make it a new one (a lost or shared phone): the owner only.
    Back to the page the button was on, the table's or the join screen."""
    table, _seat_page = _joinable(request, pk)
    if not table.seats.filter(position=position).exists():
        raise Http404("No such seat.")
    seat = table_writes.reissue_seat_link(table, position)
    if request.POST.get("back") == "join":
        via = request.POST.get("via")
        query = f"?via={via}&" if via in address_choices(request) else "?"
        return redirect(_join_page(table.pk) + f"{query}reissued={seat.position}")
    if request.htmx:  # the table page's seat-links panel: its fresh panel, in place
        return render_table(request, Table.objects.get(pk=table.pk))
    return redirect(table)


def qr_svg(text: str) -> HttpResponse:
    """``text`` as a QR code, an SVG made here (no outside service sees the secret link)."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    out = io.BytesIO()
    image.save(out)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response
