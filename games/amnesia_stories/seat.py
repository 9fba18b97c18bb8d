"""A player's own Amnesia Stories page on their phone: the bard's story and the slots, and
their secret answer, given at the same time as everyone else's on their own phones.

The answer posts through ``services.play`` in the seat's name, judged against the turn it
answers (``expected_turn``), so answers of one turn never refuse each other. The page is
drawn from the public view only: no pick, not even this player's own, is on it before the
turn is judged (a phone left on the table shows nothing).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from amnesia_site.htmx import HtmxHttpRequest
from amnesia_site.numbers import number_or_text
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games import services
from games.amnesia_stories import page
from games.amnesia_stories import timer as answer_timer
from games.answers import answer_move, seat_answer, write_url
from games.forms import posted_move
from games.languages import use_table_language
from games.models import Seat
from games.rules import get_game
from games.snapshot import Snapshot

GAME = "amnesia_stories"


def _seat(token: str) -> Seat:
    seat = Seat.objects.select_related("table").filter(token=token).first()
    if seat is None or seat.table.game != GAME:
        raise Http404("No such seat.")
    return seat


def seat_context(seat: Seat, error: str = "") -> dict[str, Any]:
    table = seat.table
    referee = get_game(GAME)
    state = services.state_of(table)
    # The public view: every pick of the open turn is hidden, this player's own included.
    seen = referee.view(state, None)
    legal = {m["do"]: m for m in referee.legal_moves(state, seat.name)}
    answering = seen["phase"] == "answer"
    card = page.card_lookup(table, seat.token)
    return {
        "seat": seat,
        "table": table,
        "seen": seen,
        "me": seat.name,
        "can_answer": "answer" in legal,
        "answered": [n for n in page.pass_order(seen) if n in seen["answered"]]
        if answering
        else [],
        "slots": page.slots_of(seen["selection"], card) if answering else [],
        "story": [card(c) for c in seen["story"]] if answering else [],
        "numbers": range(1, seen["options"]["choices"] + 1),
        "board": page.scoreboard(seen),
        # the answer timer the laptop and the projector show (the same end time)
        "answer_timer": answer_timer.info(table, seen, Snapshot(table).story_tail.entries)
        if answering
        else None,
        "expected_seq": table.last_seq,
        "expected_turn": referee.turn_marker(state),
        "move_url": reverse("amnesia_stories:seat_move", args=[seat.token]),
        "error": error,
    }


def _render_seat(request, seat: Seat, error: str = "", status: int = 200) -> HttpResponse:
    return seat_answer(
        request, seat, "amnesia_stories/seat.html", seat_context(seat, error), status
    )


@require_GET
@never_cache
@guards_secret(SEAT_LINKS, "token")
def seat_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    seat = _seat(token)
    use_table_language(request, seat.table)
    # No 204 of its own: the page asks games.live's seat poll whether anything changed.
    return _render_seat(request, seat)


def _picks(data, questions: int) -> list:
    picks: list = []
    for step in range(1, questions + 1):
        raw = (data.get(f"pick-{step}") or "").strip()
        if not raw:
            continue  # the referee says how many it needs
        picks.append(number_or_text(raw))
    return picks


@write_url(lambda token: reverse("amnesia_stories:seat", args=[token]))
@guards_secret(SEAT_LINKS, "token")
def seat_move(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """This seat's secret answer, always in its own name."""
    seat = _seat(token)
    table = seat.table
    use_table_language(request, table)

    def play():
        sent = posted_move(request, get_game(GAME), "answer")
        questions = services.state_of(table)["options"]["questions"]
        move = {"by": seat.name, "do": "answer", "picks": _picks(request.POST, questions)}
        if request.content_type == "application/json":
            move["picks"] = sent.move.get("picks")
        return services.play(table, move, sent.expected_seq, **sent.play_kwargs())

    def draw(error: str = "", status: int = 200) -> HttpResponse:
        return _render_seat(request, seat, error, status)

    return answer_move(
        request,
        table,
        play,
        render=draw,
        then=lambda: redirect("amnesia_stories:seat", token=seat.token),
        page_url=reverse("amnesia_stories:seat", args=[seat.token]),
    )
