"""Pages that follow a table: the polls that say when to refresh, and the join screen.

Every page that shows a live table asks, every few seconds, whether the table's ``version``
(``services.bump_version``) is still the one it was drawn at. Most of the time it is, and the
answer must cost next to nothing, since every phone at every table asks: one indexed read of
the version, no write, no session save, no replay, an empty 204. When the version moved, a
200 says so (``{"version": N}`` and an ``HX-Trigger: table-changed`` header) and the page
re-fetches its own panel (``static/js/live.js``).
"""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_safe

from amnesia_site.addresses import address_choices, phone_url
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games import registry
from games.models import Seat, Table

TRIGGER = "table-changed"


def _answer(request: HttpRequest, version: int | None) -> HttpResponse:
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
def table_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner's pages (the game master's, the projector): 404 for anyone else, as on the
    table page itself."""
    return _answer(request, _owner_version(request, pk))


def _owner_version(request: HttpRequest, pk: int) -> int | None:
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
def seat_poll(request: HttpRequest, token: str) -> HttpResponse:
    """A seat's page: its token is the credential (a wrong one counts as a guess)."""
    version = Seat.objects.filter(token=token).values_list("table__version", flat=True).first()
    return _answer(request, version)


# -- the join screen ------------------------------------------------------------------------
def _joinable(request: HttpRequest, pk: int) -> tuple[Table, str]:
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


def join(request: HttpRequest, pk: int) -> HttpResponse:
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
            "qr": reverse("games:join_qr", args=[table.pk, seat.position]) + query,
        }
        for seat in table.seats.all()
    ]
    context = {"table": table, "seats": seats, "choices": choices, "via": via}
    return render(request, "games/join.html", context)


@require_safe
def join_qr(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    table, seat_page = _joinable(request, pk)
    seat = get_object_or_404(Seat, table=table, position=position)
    url = phone_url(request, reverse(seat_page, args=[seat.token]), request.GET.get("via"))
    return qr_svg(url)


def qr_svg(text: str) -> HttpResponse:
    """``text`` as a QR code, an SVG made here (no outside service sees the secret link)."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    out = io.BytesIO()
    image.save(out)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response
