"""Amnesia Stories pages beyond the generic table page: the projector, passing the laptop
around for the secret answers, the revealed number cards, the card pictures, custom decks.

Every move still goes through ``writing.play_many``; these views only parse and render.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe
from django.views.static import serve
from django_htmx.http import replace_url

from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from amnesia_site.numbers import number_or_text, whole_number
from amnesia_site.workers import work
from games import uploads
from games.amnesia_stories import area_store, card_faces, deck_queue, players
from games.amnesia_stories import page as page
from games.amnesia_stories import reveal as reveal_state
from games.amnesia_stories import timer as answer_timer
from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.decks import (
    DeckError,
    DeckUploadForm,
    card_picture,
    delete_deck,
)
from games.amnesia_stories.models import CustomCard, CustomDeck
from games.answers import answer_move, render_table, table_page, write_url
from games.forms import parse_expected_seq, parse_expected_turn
from games.languages import use_table_language
from games.messages import referee_message
from games.models import Table
from games.rules import IllegalMove, get_game
from games.rules.errors import N_
from games.services import reading, writing
from games.snapshot import Snapshot

GAME = "amnesia_stories"


def _stories_table(request, pk: int) -> Table:
    """The user's own Amnesia Stories table; 404 for anyone else. Its screens (projector,
    passing the laptop, the answers) speak the table's language."""
    table = get_object_or_404(Table.objects.owned_by(request.user), pk=pk, game=GAME)
    use_table_language(request, table)
    return table


def _seen(table: Table) -> dict:
    return get_game(GAME).view(reading.state_of(table), None)


def _private(response: HttpResponse) -> HttpResponse:
    # A pass-the-laptop screen must not come back from the cache with the Back button.
    add_never_cache_headers(response)
    return response


# -- the pictures of the built-in cards --------------------------------------------------------
def area_image(request: HtmxHttpRequest, card_id: str, size: str) -> HttpResponseBase:
    """A built-in card's picture, drawn on first use when ``generate_area_cards`` has not run."""
    if card_id not in AREA_IDS or size not in area_store.KINDS:
        raise Http404("No such card picture.")
    path = area_store.picture(card_id, size)
    response = serve(request, path.name, document_root=str(path.parent))
    patch_cache_control(response, public=True, max_age=7 * 24 * 3600)
    return response


# -- the projector -----------------------------------------------------------------------------
@login_required
@never_cache  # Back shows the slots as they are now
def projector(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The selection slots, big, and during a reveal the steps the table has opened: safe to
    show the room at any moment (never a pending pick, never a step not opened yet)."""
    table = _stories_table(request, pk)
    # The page's live poll (games.live) says when to fetch this again: a move, an opened
    # step and a restarted answer timer each add one to the table's version.
    snap = Snapshot(table)
    clock = answer_timer.info(table, snap.view, snap.story_tail.entries)
    judged = reveal_state.on_screen(snap.view)
    opened = reveal_state.opened(table, judged)
    seen = reveal_state.shown_view(snap.view, opened)
    card = card_faces.card_lookup(table)
    shown = None
    slots = [] if seen["phase"] == "deal" else card_faces.slots_of(seen["selection"], card)
    if seen["revealing"]:
        entry = next((e for e in snap.narrative() if e["turn"] == judged["turn_number"]), None)
        selection = entry["selection"] if entry else seen["selection"]
        shown = page.reveal(judged, selection, seen["options"], card, opened)
        # the room still looks at the slots the turn was played with
        slots = page.marked_slots(selection, shown, card)
    # Once a turn's reveal is over (its Σ open): the turn's points, until the next bard tells;
    # at the end, the final standings instead.
    over = judged is not None and not seen["revealing"]
    final = players.standings(seen) if over and seen.get("finished") else []
    context = {
        "table": table,
        "answer_timer": clock,
        "seen": seen,
        "reveal": shown,
        "turn_points": players.turn_points(judged, seen) if over and not final else [],
        "turn_done": judged if over else None,
        "standings": final,
        "draw": len(seen.get("winners", [])) > 1,
        # while a physical deal is being entered, the old slots are no longer on the table
        "slots": slots,
        "grid": _projector_grid(len(slots)),
    }
    template = "amnesia_stories/projector.html"
    if request.htmx:
        template += "#screen"
    return render(request, template, context)


# -- the reveal, step by step ------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def reveal_step(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Open the next step of the judged turn's reveal (``step``: up to which), for the whole
    room: the table's owner only (``_stories_table``); never a move of the log.

    A GET (a reload or a bookmark of this address) opens nothing: it shows the table."""
    table = _stories_table(request, pk)
    if request.method != "POST":
        return redirect(table.get_absolute_url() + "#reveal")
    judged = reveal_state.on_screen(Snapshot(table).view)
    turn = (request.POST.get("turn") or "").strip()
    if judged is None or turn != str(judged["turn_number"]):
        message = _("That reveal is over: the table has moved on.")
        return render_table(request, table, error=message, status=409)
    step = whole_number(request.POST.get("step"), low=1, high=reveal_state.step_count(judged))
    if step is None:
        return render_table(request, table, error=_("There is no such step."), status=400)
    reveal_state.open_step(table, judged, step)
    if request.htmx:
        # the address bar keeps the table's own address, not this action's
        return replace_url(render_table(request, table), table.get_absolute_url())
    return redirect(table.get_absolute_url() + "#reveal")


@login_required
@write_url(table_page)
def timer(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table's answer timer: its length (0: none), or started again for this turn."""
    table = _stories_table(request, pk)
    seconds = whole_number(request.POST.get("seconds"), low=0, high=answer_timer.MAX_SECONDS)
    if seconds is None:
        messages.error(
            request,
            _("The answer timer takes a whole number of seconds from 0 to %(max)s.")
            % {"max": answer_timer.MAX_SECONDS},
        )
        return redirect(table)
    answer_timer.set_seconds(table, seconds)
    seen = _seen(table)
    if request.POST.get("action") == "restart" and seen["phase"] == "answer":
        answer_timer.restart(table, seen["turn_number"])
        messages.info(request, _("The answer timer starts again."))
    elif seconds:
        messages.info(request, _("The answer timer is set to %(s)s seconds.") % {"s": seconds})
    else:
        messages.info(request, _("This table plays without an answer timer."))
    return redirect(table)


def _projector_grid(n: int) -> dict[str, int]:
    """Columns and rows that make the pictures largest on a landscape screen: up to three in
    a row, then two rows."""
    cols = n if n <= 3 else -(-n // 2)
    return {"cols": max(cols, 1), "rows": max(-(-n // max(cols, 1)), 1)}


# -- pass the laptop ---------------------------------------------------------------------------
def _seat_name(table: Table, position: int) -> str:
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise Http404("No such seat.")
    return seat.name


def _next_screen(table: Table) -> str:
    """Where the laptop goes next: the next player's privacy screen, or the table."""
    seen = _seen(table)
    name = players.next_to_answer(seen)
    if name is None:
        return table.get_absolute_url() + "#reveal"
    position = players.positions(table)[name]
    return reverse("amnesia_stories:handoff", args=[table.pk, position])


@login_required
def handoff(request: AuthenticatedHttpRequest, pk: int, position: int) -> HttpResponse:
    """The privacy screen: “Hand the laptop to Bruno”, and nothing else on it."""
    table = _stories_table(request, pk)
    name = _seat_name(table, position)
    seen = _seen(table)
    if seen["phase"] != "answer" or name in seen["answered"]:
        return redirect(_next_screen(table))
    answered = [n for n in players.pass_order(seen) if n in seen["answered"]]
    return _private(
        render(
            request,
            "amnesia_stories/handoff.html",
            {
                "table": table,
                "name": name,
                "position": position,
                "answered": answered,
                "count": len(seen["seats"]),
            },
        )
    )


@login_required
@require_http_methods(["GET", "POST"])
def answer(request: AuthenticatedHttpRequest, pk: int, position: int) -> HttpResponse:
    """One player's secret picks; the next screen hides them again."""
    table = _stories_table(request, pk)
    name = _seat_name(table, position)

    def screen(error: str = "", status: int = 200) -> HttpResponse:
        return _answer_screen(request, table, name, position, error=error, status=status)

    if request.method != "POST":
        return screen()
    picks = _picks_from(request.POST, "pick-", _seen(table)["options"]["questions"])
    move = {"by": name, "do": "answer", "picks": picks}
    expected = parse_expected_seq(request.POST)

    def play():
        # Answers to one story do not depend on each other: judged by the turn they answer.
        return writing.play_many(
            table,
            [move],
            expected,
            request.user,
            expected_turn=parse_expected_turn(request.POST.get("expected_turn")),
            client_id=request.POST.get("client_id"),
        )[0]

    return answer_move(
        request,
        table,
        play,
        render=screen,
        then=lambda: redirect(_next_screen(table)),
        page_url=reverse("amnesia_stories:answer", args=[table.pk, position]),
    )


def _answer_screen(
    request, table: Table, name: str, position: int, *, error: str = "", status: int = 200
) -> HttpResponse:
    """The secret answer form of ``name`` (once they have answered: the next screen)."""
    seen = _seen(table)
    if seen["phase"] != "answer" or name in seen["answered"]:
        return redirect(_next_screen(table))
    card = card_faces.card_lookup(table)
    context = {
        "table": table,
        "name": name,
        "position": position,
        "seen": seen,
        "expected_seq": table.last_seq,
        "expected_turn": get_game(GAME).turn_marker(seen),
        "slots": card_faces.slots_of(seen["selection"], card),
        "story": [card(c) for c in seen["story"]],
        "numbers": range(1, seen["options"]["choices"] + 1),
        "error": error,
        "answer_timer": answer_timer.info(table, seen, Snapshot(table).story_tail.entries),
    }
    return _private(render(request, "amnesia_stories/answer.html", context, status=status))


def _picks_from(data, prefix: str, questions: int) -> list:
    picks: list = []
    for step in range(1, questions + 1):
        raw = (data.get(f"{prefix}{step}") or "").strip()
        if not raw:
            continue  # the referee says how many it needs
        picks.append(number_or_text(raw))
    return picks


# -- physical number cards, entered after the reveal -------------------------------------------
@login_required
@write_url(table_page)
def revealed(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Everyone's revealed number cards in one form: one answer move per player, in order,
    all or nothing (``writing.play_many``)."""
    table = _stories_table(request, pk)
    seen = _seen(table)
    where = players.positions(table)
    questions = seen["options"]["questions"]
    moves = []
    for name in players.pass_order(seen) if seen["phase"] == "answer" else []:
        if name in seen["answered"]:
            continue
        picks = _picks_from(request.POST, f"picks-{where[name]}-", questions)
        moves.append({"by": name, "do": "answer", "picks": picks})
    expected = parse_expected_seq(request.POST)

    def explain(exc: IllegalMove) -> str:
        index = getattr(exc, "index", None)
        if index is None:  # the form itself, not one player's answer
            return referee_message(exc)
        who = moves[index]["by"]
        return _("%(name)s: %(error)s") % {"name": who, "error": referee_message(exc)}

    def play():
        # A resend is answered with what it stored, though nobody is answering any more.
        played = writing.play_many(
            table,
            moves,
            expected,
            request.user,
            expected_turn=parse_expected_turn(request.POST.get("expected_turn")),
            client_id=request.POST.get("client_id"),
        )
        if not played:
            raise IllegalMove("wrong_phase", N_("Nobody is answering now."))
        return played

    return answer_move(
        request,
        table,
        play,
        then=lambda: redirect(table.get_absolute_url() + "#reveal"),
        explain=explain,
    )


# -- custom decks ------------------------------------------------------------------------------
@login_required
def deck_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    decks = CustomDeck.objects.filter(owner=request.user).prefetch_related("cards")
    return render(request, "amnesia_stories/decks.html", {"decks": decks})


@login_required
@require_http_methods(["GET", "POST"])
def deck_upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The upload checks only what is cheap and queues the pictures' cleaning for the
    ``pictures`` worker (``deck_queue``); the deck's page follows it."""
    form = DeckUploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                deck = deck_queue.receive(
                    request.user,
                    form.cleaned_data["name"],
                    form.cleaned_data["archive"],
                    form.cleaned_data.get("cards"),
                )
            except DeckError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("Deck “%(name)s” received: its pictures are being prepared.")
                    % {"name": deck.name},
                )
                return redirect("amnesia_stories:deck", deck.pk)
    return render(request, "amnesia_stories/deck_upload.html", {"form": form}, status=status)


@login_required
@never_cache  # Back shows where the preparation is now
def deck_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The deck's cards; while its pictures are being prepared, how far that is (the page
    polls its own status part until the deck is ready or failed)."""
    deck = get_object_or_404(CustomDeck, pk=pk, owner=request.user)
    done, total = deck_queue.progress(deck)
    cleaning = deck.status == CustomDeck.Status.CLEANING
    context = {
        "deck": deck,
        "cards": deck.cards.order_by("position"),
        "cleaning": cleaning,
        "done": done,
        "total": total,
        "problem": deck_queue.problem_text(deck) if deck.status == CustomDeck.Status.FAILED else "",
        "answering": work.answering(work.PICTURES) if cleaning else True,
    }
    template = "amnesia_stories/deck.html"
    if request.htmx:
        template += "#deck-status"
    return render(request, template, context)


@login_required
@require_safe
def deck_picture(request: AuthenticatedHttpRequest, pk: int, card: int, size: str) -> HttpResponse:
    """A card's picture on its owner's deck pages (tables and stories have their own doors:
    ``games:picture``, ``games:seat_picture``, ``stories:picture``)."""
    found = get_object_or_404(CustomCard, pk=card, deck_id=pk, deck__owner=request.user)
    return uploads.serve(request, card_picture(found, size))


@login_required
@write_url(lambda pk: reverse("amnesia_stories:deck", args=[pk]))
def deck_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    deck = get_object_or_404(CustomDeck, pk=pk, owner=request.user)
    name = deck.name
    delete_deck(deck)
    messages.info(request, _("Deck “%(name)s” deleted.") % {"name": name})
    return redirect("amnesia_stories:decks")
