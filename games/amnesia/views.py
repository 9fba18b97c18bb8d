"""A player's own Amnesia page on their phone: their tokens, the bank and the discard, the
last scenes, and the buttons for what the rules let *them* do now.

Nothing is decided here: the buttons come from the referee's ``legal_moves`` for this seat's
player, and the move posts through ``services.play`` (in the seat's name, whatever the form
says) like any other.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from amnesia_site.htmx import HtmxHttpRequest
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games import services
from games.amnesia.rules import GAME
from games.answers import answer_move, seat_answer, write_url
from games.forms import posted_move
from games.languages import use_table_language
from games.models import Seat, Table
from games.presenters import card_info
from games.snapshot import Snapshot

# How many of the last story entries a phone shows: enough to follow, short enough to scroll.
LAST_SCENES = 3


def _seat(token: str) -> Seat:
    seat = Seat.objects.select_related("table").filter(token=token).first()
    if seat is None or seat.table.game != "amnesia":
        raise Http404("No such seat.")
    return seat


def seat_context(seat: Seat, error: str = "") -> dict[str, Any]:
    """What one player sees and may do (Amnesia keeps nothing secret but the deck)."""
    table = seat.table
    snap = Snapshot(table)
    state = snap.state
    name = seat.name
    mine = {m["do"]: m for m in GAME.legal_moves(state, name)}
    ch = state.get("challenge")
    return {
        "seat": seat,
        "table": table,
        "state": GAME.view(state, name),
        "me": {"name": name, "tokens": state["tokens"].get(name, 0)},
        "others": [
            {"name": n, "tokens": state["tokens"][n], "on_turn": n == state["turn"]}
            for n in state["seats"]
            if n != name
        ],
        "mine": mine,
        "challenge": ch,
        # The card to beat, as the laptop shows it (issue 26: the phone had only the laptop's).
        "reference": card_info(ch.get("reference")) if ch else None,
        # A physical deck's card is named on the game master's screen, where the grid is.
        "physical": table.deck_mode == Table.DeckMode.PHYSICAL,
        "story": snap.story_tail.entries[-LAST_SCENES:],
        "expected_seq": table.last_seq,
        "expected_turn": GAME.turn_marker(state),
        "move_url": reverse("amnesia:seat_move", args=[seat.token]),
        "error": error,
    }


def _render_seat(request, seat: Seat, error: str = "", status: int = 200) -> HttpResponse:
    return seat_answer(request, seat, "amnesia/seat.html", seat_context(seat, error), status)


@require_GET
@never_cache
@guards_secret(SEAT_LINKS, "token")
def seat_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    seat = _seat(token)
    use_table_language(request, seat.table)
    # No 204 of its own: the page asks games.live's seat poll whether anything changed.
    return _render_seat(request, seat)


@write_url(lambda token: reverse("amnesia:seat", args=[token]))
@guards_secret(SEAT_LINKS, "token")
def seat_move(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A move by this seat's player, from their phone: always in their own name; the
    narration they typed goes with it."""
    seat = _seat(token)
    use_table_language(request, seat.table)

    def play():
        sent = posted_move(request, GAME)
        move = sent.move
        move["by"] = seat.name
        return services.play(seat.table, move, sent.expected_seq, **sent.play_kwargs())

    def draw(error: str = "", status: int = 200) -> HttpResponse:
        return _render_seat(request, seat, error, status)

    return answer_move(
        request,
        seat.table,
        play,
        render=draw,
        then=lambda: redirect("amnesia:seat", token=seat.token),
        page_url=reverse("amnesia:seat", args=[seat.token]),
    )
