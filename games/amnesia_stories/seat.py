"""A player's own Amnesia Stories page on their phone: the bard's story and the slots, and
their secret answer, given at the same time as everyone else's on their own phones.

The engine owns the page and its moves (``games.seats``); this is the game's part. The
answer posts through ``writing.play_many`` in the seat's name, judged against the turn it
answers (``expected_turn``), so answers of one turn never refuse each other. The page is
drawn from the public view only: no pick, not even this player's own, is on it before the
turn is judged (a phone left on the table shows nothing).
"""

from __future__ import annotations

from typing import Any

from amnesia_site.htmx import HtmxHttpRequest
from amnesia_site.numbers import number_or_text
from games.amnesia_stories import card_faces, players
from games.amnesia_stories import reveal as reveal_state
from games.amnesia_stories import timer as answer_timer
from games.facing import Facing
from games.forms import Posted, posted_move
from games.models import Seat
from games.rules import get_game
from games.snapshot import Snapshot

GAME = "amnesia_stories"


def seat_context(facing: Facing, seat: Seat) -> dict[str, Any]:
    table = seat.table
    # The public view: every pick of the open turn is hidden, this player's own included; and
    # a judged turn's result only as far as the room's reveal has opened it (the scores, the
    # red cards, the winners), as on the table page and the projector: a phone in a player's
    # hand must not tell the room what the game master is about to show it.
    judged = reveal_state.on_screen(facing.public)
    seen = reveal_state.shown_view(facing.public, reveal_state.opened(table, judged))
    legal = facing.legal.get(seat.name, {})
    answering = seen["phase"] == "answer"
    card = card_faces.card_lookup(table, seat.token)
    return {
        "seen": seen,
        "state": seen,
        "me": seat.name,
        "can_answer": "answer" in legal,
        # this player is the bard, about to tell (or deal): at the laptop, not on this page
        "bard_turn": seen["phase"] in ("deal", "tell") and seen["bard"] == seat.name,
        "answered": [n for n in players.pass_order(seen) if n in seen["answered"]]
        if answering
        else [],
        "slots": card_faces.slots_of(seen["selection"], card) if answering else [],
        "story": [card(c) for c in seen["story"]] if answering else [],
        "numbers": range(1, seen["options"]["choices"] + 1),
        "board": players.scoreboard(seen),
        # at the end, once the last story's reveal is over: who won, and the final standings
        "standings": players.standings(seen)
        if seen.get("finished") and not seen["revealing"]
        else [],
        "draw": len(seen.get("winners", [])) > 1,
        # the way to the player's impressions, with the winner: not while the room is still
        # being shown the last story (games/seats.py)
        "game_over": bool(seen.get("finished")) and not seen["revealing"],
        # the answer timer the laptop and the projector show (the same end time)
        "answer_timer": answer_timer.info(table, seen, facing.story_tail.entries)
        if answering
        else None,
    }


def _picks(data, questions: int) -> list:
    picks: list = []
    for step in range(1, questions + 1):
        raw = (data.get(f"pick-{step}") or "").strip()
        if not raw:
            continue  # the referee says how many it needs
        picks.append(number_or_text(raw))
    return picks


def seat_move(request: HtmxHttpRequest, seat: Seat) -> Posted:
    """This seat's secret answer (the engine puts it in the seat's own name)."""
    sent = posted_move(request, get_game(GAME), "answer")
    if request.content_type != "application/json":
        questions = Snapshot(seat.table).view["options"]["questions"]
        sent.move = {"do": "answer", "picks": _picks(request.POST, questions)}
    else:
        sent.move = {"do": "answer", "picks": sent.move.get("picks")}
    return sent
