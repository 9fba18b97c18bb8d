"""The contest table's own views: the physical-deck builder, characters at the table, the
drinks display, and each seat's private page (its token is the credential).

Every move goes the generic way: read by ``games.forms`` (a built move's extra inputs by the
fields its verb declares), played by ``writing.play_many``, answered by ``games.answers``
(``answer_move``, ``render_table``).
"""

from __future__ import annotations

import json
from typing import Any

import qrcode
import qrcode.image.svg
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from amnesia_site.addresses import phone_url
from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from amnesia_site.numbers import whole_number
from games.answers import answer_move, render_table, table_page, write_url
from games.contest import characters, deck_builder, minute
from games.contest import page as page
from games.contest import seat as contest_seat
from games.contest.cards import (
    BUILD_VERBS,
    add_pick,
    attribute_info,
    card,
    drop_pick,
    evaluate,
    next_fill,
)
from games.contest.models import Character
from games.contest.rules import GAME
from games.contest.rules.core import full_deck
from games.contest.story import contest_sides, describe_events, drink_words
from games.facing import Facing
from games.forms import Posted, declared_fields, posted_move
from games.messages import referee_message
from games.models import Seat, Table
from games.rules import BadScript, IllegalMove
from games.rules.errors import N_
from games.rules.script import holds_nul, load_json, misfit_field, undeclared_fields
from games.services import reading, table_writes, validating, writing


def _table(request, pk: int) -> Table:
    return get_object_or_404(Table.objects.owned_by(request.user), pk=pk, game="contest")


def _render(
    request,
    table: Table,
    *,
    error: str = "",
    status: int = 200,
    pending: dict[str, Any] | None = None,
    text: str = "",
):
    """The table page (``games.answers.render_table``); with the move being tapped in, its
    builder box, at the move's own address (a reload shows it again)."""
    if pending is None:
        return render_table(request, table, error=error, status=status)
    url = reverse("contest:build", args=[table.pk])

    def builder(facing, context) -> dict[str, Any]:
        return deck_builder.pending_context(table, facing.view, pending, context["names"], text)

    return render_table(
        request,
        table,
        error=error,
        status=status,
        extra=builder,
        page_url=f"{url}?{urlencode({'move': json.dumps(pending)})}",
    )


# -- the builder: a physical move tapped in card by card -------------------------------------
def _pending_move(data) -> dict[str, Any] | None:
    """The move being built, as the page sent it back; None for anything else (the page only
    ever sends a build verb's own fields, each as the verb declares it: the move also rides
    in the next page's address)."""
    try:
        move = load_json(data.get("move") or "")
    except BadScript:
        return None
    if not isinstance(move, dict) or move.get("do") not in BUILD_VERBS:
        return None
    if not isinstance(move.get("by"), str) or len(move["by"]) > validating.MAX_NAME:
        return None
    move.pop("text", None)
    # What the form adds to it (a word bonus, a reward), read as the verb declares it.
    move.update(declared_fields(data, GAME, move["do"]))
    if holds_nul(move) or undeclared_fields(GAME, move) or misfit_field(GAME, move):
        return None
    return move


def _play(request, table: Table, move: dict[str, Any], resend: bool = False):
    """Play the built move with what the page sent beside it (the log's length it saw, the
    submission's id), read like any posted move's (``games.forms.posted_move``); a resend
    is answered from the stored move whatever the log's length."""
    sent = posted_move(request, GAME)
    expected = None if resend else sent.expected_seq
    return writing.play_many(table, [move], expected, request.user, **sent.play_kwargs())[0]


@login_required
@require_http_methods(["GET", "POST"])
def build(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Add the tapped card (``pick``) to a pending move; play it once the referee says it is
    complete, else show the grid again for the next card."""
    table = _table(request, pk)
    data = request.POST if request.method == "POST" else request.GET
    move = _pending_move(data)
    if move is None and request.method != "POST":
        return redirect(table)  # an address without its move (cut short): the table
    if move is None:  # answered in the page, as any refusal (games.answers)
        return _render(
            request, table, error=_("That is not a move this page can build."), status=400
        )
    if request.method == "POST" and reading.is_resend(table, request.POST.get("client_id")):
        # The move was played and its answer lost: the stored answer, not a new build.
        sent = move
        return answer_move(request, table, lambda: _play(request, table, sent, resend=True))
    state = reading.state_of(table)
    pick = data.get("pick")
    if pick and pick not in full_deck(state["options"]):
        # The referee trusts card codes to be well formed (the script parser checks them).
        return _render(request, table, error=_("There is no such card in this deck."), status=400)
    if pick:
        move = add_pick(move, next_fill(move), pick)
    outcome, exc = evaluate(state, move)
    text = data.get("text", "")
    if outcome == "complete" and request.method == "POST":
        if text.strip():
            move["text"] = text
        return answer_move(request, table, lambda: _play(request, table, move))
    if outcome == "error":
        message = referee_message(exc) if exc else _("That card cannot be used here.")
        back = drop_pick(move) if pick else move
        # A reload of a move's address the table has moved past since: the table, as it is.
        status = 400 if request.method == "POST" else 200
        if evaluate(state, back)[0] != "more":
            return _render(request, table, error=message, status=status)
        return _render(request, table, error=message, status=status, pending=back, text=text)
    if request.method == "POST":
        if text.strip():
            try:
                table_writes.save_draft(table, text)  # kept if the page is left before the end
            except IllegalMove as exc:
                return _render(request, table, error=referee_message(exc), status=400)
        if not request.htmx:
            url = reverse("contest:build", args=[table.pk])
            return redirect(f"{url}?{urlencode({'move': json.dumps(move)})}")
    if outcome == "complete":  # a GET never plays
        return _render(request, table)
    return _render(request, table, pending=move, text=text)


# -- characters at the table ----------------------------------------------------------------
@login_required
@write_url(table_page)
def character(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A character made at the table (its ``character`` move), kept for later if asked."""
    table = _table(request, pk)

    def play():
        sent = posted_move(request, GAME, verb="character")
        move = sent.move
        keep = move.pop("keep", "") in ("true", "on", "1")
        move["do"] = "character"
        # Points won in earlier games come only with a saved character (``bring``), from
        # the wins its tables credited: a character made here starts from none. (A value
        # that is no number of points at all is left for the write path to refuse.)
        points = move.get("extra_points", 0)
        if isinstance(points, int) and not isinstance(points, bool) and 0 < points < 1000:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "A character made at the table has won no points yet: bring a saved "
                    "character to play the points it won."
                ),
            )
        if "bfa" not in move:
            move["bfa"] = False
        return characters.create_at_table(
            table, move, keep, sent.expected_seq, request.user, client_id=sent.client_id
        )

    return answer_move(request, table, play)


@login_required
@write_url(table_page)
def bring(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    table = _table(request, pk)
    raw = request.POST.get("character") or ""
    # A character's id as the select posts it; anything else is no character at all.
    chosen = None
    pk = whole_number(raw, low=1) if raw == raw.strip() else None
    if pk is not None:
        chosen = get_object_or_404(Character, pk=pk, owner=request.user)

    def play():
        # Read like the character move it makes (its by, the log's length, the id).
        sent = posted_move(request, GAME, verb="character")
        if chosen is None:
            raise IllegalMove("bad_argument", N_("Choose one of your saved characters."))
        by = sent.move.get("by", "")
        return characters.bring(
            table, by, chosen, sent.expected_seq, request.user, client_id=sent.client_id
        )

    return answer_move(request, table, play)


@login_required
@write_url(table_page)
def display(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """How the page names drinks ("penalty points" for a table that plays sober)."""
    table = _table(request, pk)
    value = request.POST.get("drinks_as", "drinks")
    if value not in characters.DRINK_WORDS:
        return _render(request, table, error=_("Unknown display setting."), status=400)
    characters.set_drinks_as(table, value)
    return render_table(request, table) if request.htmx else redirect(table)


@login_required
@require_GET
def seat_qr(request: AuthenticatedHttpRequest, pk: int, position: int) -> HttpResponse:
    """The QR code of a seat's private page, as SVG (made here, no outside service)."""
    table = _table(request, pk)
    seat = get_object_or_404(Seat, table=table, position=position)
    # Never 127.0.0.1: the phone that reads it is another machine (amnesia_site.addresses).
    url = phone_url(request, reverse("contest:seat", args=[seat.token]), request.GET.get("via"))
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    response = HttpResponse(image.to_string(encoding="unicode"), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


# -- a seat's private page (the engine's: games.seats; here, the contest's part) ------------
def seat_context(facing: Facing, seat: Seat) -> dict[str, Any]:
    """What one player may see: their own hand (view for that player) and the public table."""
    table = seat.table
    mine = facing.view
    public = facing.public
    names = page.names_of(public)
    mode = characters.drinks_as(table)
    legal = facing.mine
    by_key = {(t["do"] if "with" not in t else f"{t['do']}_{t['with']}"): t for t in legal}
    me = mine["players"][seat.name]
    hand = contest_seat.sorted_hand(me["hand"] or [])

    def choices(key: str, field: str = "card") -> list[str]:
        return by_key.get(key, {}).get("choices", {}).get(field, [])

    playable = set(choices("play"))
    faces = set(choices("take_control_face_card"))
    plots = set(choices("take_control_plot_card"))
    swaps = set(choices("swap_joker"))
    contest = public.get("contest")
    board = contest_sides(contest, public["players"], names, mode) if contest else None
    attrs = me.get("attributes") or {}
    words = drink_words(mode)
    virtual = public["deck_mode"] == "virtual"
    # The narrator's countdown, the laptop's own (counted from the moves' stored times).
    control = page.control_info(public, facing.story_facts)
    # Who tells the story, while there is one to tell: the referee keeps the last narrator in
    # an ended game's state, and the winner's phone kept saying "you control the story".
    controller = None if public.get("finished") else public.get("controller")
    return {
        "control": control,
        "strict_minute": minute.is_strict(table),
        "state": public,
        "me": {
            "name": seat.name,
            "who": names[seat.name],
            "character": me.get("character"),
            "attributes": [attribute_info(a, attrs[a]) for a in attrs],
            "drinks": me["drinks"],
            "pretzels": me["pretzels"],
            "lost": [card(c) for c in me["lost"]],
            "out": me["out"],
            "hand_limit": me["hand_limit"],
            "controller": controller is not None and controller == seat.name,
        },
        "hand": [
            dict(
                card(c),
                playable=c in playable,
                take=c in faces or c in plots,
                plot=c in plots,
                swap=c in swaps,
            )
            for c in hand
        ],
        "can_play": bool(playable),
        "can_take": bool(faces or plots),
        "take_faces": [card(c) for c in hand if c in faces],
        "take_plots": [card(c) for c in hand if c in plots],
        "can_swap": bool(swaps),
        "plot_rewards": choices("take_control_plot_card", "reward"),
        "my_attribute": attribute_info((contest or {}).get("attributes", {}).get(seat.name)),
        "board": board,
        # accept, refuse, forfeit, pay a penalty, heal: only what legal_moves gives this seat
        "decide": contest_seat.decisions(seat.name, legal, attrs, words, virtual),
        "owed": (public.get("owed") or {}).get(seat.name, 0),
        "words": words,
        "controller_who": names.get(controller or "", ""),
        "phase_label": page.PHASES.get(public["phase"], public["phase"]),
        "winner_who": names.get(public["winners"][0]) if public.get("winners") else "",
        "last_events": describe_events(public.get("events") or [], names, mode),
    }


def seat_move(request: HtmxHttpRequest, seat: Seat) -> Posted:
    """A seat's move as its form sends it, without narration (a phone narrates nothing)."""
    sent = posted_move(request, GAME)
    sent.move.pop("text", None)
    return sent
