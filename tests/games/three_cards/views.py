"""A player's own Three Cards page: their hand (only theirs: the referee's view for their
seat), the scores, and a button per card on their turn; a move posts through the write path
in the seat's name."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import services
from games.answers import answer_move, seat_answer, write_url
from games.forms import posted_move
from games.models import Seat
from games.snapshot import Snapshot
from tests.games.three_cards.rules import GAME


def _seat(token: str) -> Seat:
    seat = Seat.objects.select_related("table").filter(token=token).first()
    if seat is None or seat.table.game != GAME.name:
        raise Http404("No such seat.")
    return seat


def _render(request, seat: Seat, error: str = "", status: int = 200) -> HttpResponse:
    snap = Snapshot(seat.table)
    seen = GAME.view(snap.state, seat.name)  # the other hands are not in it
    context = {
        "seat": seat,
        "table": seat.table,
        "state": seen,
        "hand": seen["hands"].get(seat.name, []),
        "score": seen["scores"][seat.name],
        "mine": GAME.legal_moves(snap.state, seat.name),
        "expected_seq": seat.table.last_seq,
        "move_url": reverse("three_cards:seat_move", args=[seat.token]),
        "error": error,
    }
    return seat_answer(request, seat, "three_cards/seat.html", context, status)


@require_GET
@never_cache
def seat_page(request, token: str) -> HttpResponse:
    return _render(request, _seat(token))


@write_url(lambda token: reverse("three_cards:seat", args=[token]))
def seat_move(request, token: str) -> HttpResponse:
    seat = _seat(token)

    def play():
        sent = posted_move(request, GAME)
        move = {**sent.move, "by": seat.name}
        return services.play(seat.table, move, sent.expected_seq, **sent.play_kwargs())

    return answer_move(
        request,
        seat.table,
        play,
        render=lambda error="", status=200: _render(request, seat, error, status),
        then=lambda: redirect("three_cards:seat", token=seat.token),
        page_url=reverse("three_cards:seat", args=[seat.token]),
    )
