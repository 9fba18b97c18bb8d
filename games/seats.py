"""A seat's own page (a player's phone), owned by the engine for every game alike.

The seat's token in the address is its credential: a guessed one is counted and throttled
(``amnesia_site.throttle.guards_secret``), the page speaks the table's language, a move is
always made in the seat's own name through the one write path, and the page is drawn from the
seat's side of the table (``games.facing.Facing.seat``), never the state. A game gives its
part in its kit: ``seat_context(facing, seat) -> dict`` and ``seat_template`` (extending
``games/seat_frame.html``), and, when its forms are not the generic ones, ``seat_move(request,
seat) -> games.forms.Posted``. Its URLconf mounts the two views with :func:`seat_urls`, which
names them ``<slug>:seat`` and ``<slug>:seat_move``; whether anything changed is asked of the
generic seat poll (``games.live``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import URLPattern, path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from amnesia_site.htmx import HtmxHttpRequest
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games import registry
from games.answers import answer_move, seat_answer
from games.facing import Facing
from games.forms import posted_move
from games.languages import use_seat_language
from games.models import Seat, Table
from games.prepared import Prepared
from games.services import writing
from games.snapshot import Snapshot

# A phone's every fetch reads its seat with its table: compiled once (games.prepared).
_SEAT_BY_TOKEN = Prepared(
    lambda token: Seat.objects.select_related("table").filter(token=token).order_by(),
    "\x00a seat's token",
)


def seat_urls(page: str, move: str) -> list[URLPattern]:
    """The seat's page at ``page`` and its moves at ``move`` (routes taking ``<token:token>``),
    named ``seat`` and ``seat_move`` in the game's URLconf."""
    return [path(page, seat_page, name="seat"), path(move, seat_move, name="seat_move")]


def _seat(request, token: str) -> Seat:
    """The seat the token opens, at a table of the game whose address was asked (a token of
    another game's table is no seat here)."""
    match = getattr(request, "resolver_match", None)
    game = match.namespace if match is not None else None
    # The token is unique: no ORDER BY, no LIMIT (a phone's every fetch).
    seats = _SEAT_BY_TOKEN.all(token)
    seat = seats[0] if seats else None
    if seat is None or not game or seat.table.game != game:
        raise Http404("No such seat.")
    return seat


def seat_context(seat: Seat, error: str = "") -> dict[str, Any]:
    """What every seat page has, then the game's own part (``GameKit.seat_context``)."""
    table = seat.table
    kit = registry.kit(table.game)
    facing = Facing.seat(Snapshot(table), seat.name)
    context: dict[str, Any] = {
        "seat": seat,
        "table": table,
        "state": facing.view,
        # This seat's moves by verb (the buttons): only theirs, as the referee lists them.
        "mine": facing.legal.get(seat.name, {}),
        "expected_seq": table.last_seq,
        "expected_turn": facing.expected_turn,
        "move_url": reverse(f"{kit.slug}:seat_move", args=[seat.token]),
        "error": error,
        # The game is over for this phone: it leads to the player's impressions. A game whose
        # end the room is shown step by step (Amnesia Stories' reveal) says so only once it is.
        "game_over": table.status == Table.Status.FINISHED,
    }
    if kit.seat_context is not None:
        context.update(kit.seat_context(facing, seat))
    return context


def render_seat(request, seat: Seat, error: str = "", status: int = 200) -> HttpResponse:
    kit = registry.kit(seat.table.game)
    return seat_answer(request, seat, kit.seat_template, seat_context(seat, error), status)


@require_GET
@never_cache
@guards_secret(SEAT_LINKS, "token")
def seat_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    seat = _seat(request, token)
    use_seat_language(request, seat.table)
    # No 204 of its own: the page asks games.live's seat poll whether anything changed.
    return render_seat(request, seat)


@guards_secret(SEAT_LINKS, "token")
def seat_move(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A move by this seat's player, from their own page: always in their own name. A GET
    (an address kept after a post) is sent to the seat's page."""
    match = getattr(request, "resolver_match", None)
    page = reverse(f"{match.namespace}:seat", args=[token]) if match else "/"
    if request.method in ("GET", "HEAD"):
        return redirect(page)  # the page checks the token (and counts a wrong one)
    if request.method != "POST":
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    seat = _seat(request, token)
    kit = registry.kit(seat.table.game)
    use_seat_language(request, seat.table)

    def play():
        sent = kit.seat_move(request, seat) if kit.seat_move else posted_move(request, kit.referee)
        move = {**sent.move, "by": seat.name}
        return writing.play_many(seat.table, [move], sent.expected_seq, **sent.play_kwargs())[0]

    def draw(error: str = "", status: int = 200) -> HttpResponse:
        return render_seat(request, seat, error, status)

    return answer_move(
        request, seat.table, play, render=draw, then=lambda: redirect(page), page_url=page
    )
