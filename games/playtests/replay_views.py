"""The page of one simulated game (``games.playtests.replay``): stepped through move by
move, each seat's view at that step, what each bot chose and the game's figures.

Who: as the run's page (``lab_views``): designers of the game who may see the run (its owner
and those it is shared with; a sweep's value through its sweep); 404 for anyone else.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from amnesia_site.htmx import AuthenticatedHttpRequest
from amnesia_site.numbers import whole_number
from games import registry
from games.forms import game_choices
from games.playtests import figures, lab_bounds, lab_words, replay, service
from games.playtests.models import SimulationRun

HOLES = {
    "move_cap": gettext_lazy("did not end within the move cap"),
    "no_legal_move": gettext_lazy("no one had a legal move"),
    "everyone_waits": gettext_lazy("every bot waited"),
}


def _run(request, pk: int) -> SimulationRun:
    visible = lab_bounds.visible_runs(request.user).values("pk")
    scope = SimulationRun.objects.filter(Q(pk__in=visible) | Q(parent__in=visible))
    run = get_object_or_404(scope.select_related("ruleset"), pk=pk)
    if not service.is_designer(request.user, run.game):
        raise PermissionDenied(_("The lab is for the game's designers."))
    if run.sweep:
        raise Http404("A sweep plays its games in its values' runs.")
    return run


def _steps(game: replay.Game, step: int) -> dict:
    referee = registry.kit(game.run.game).referee
    seat_bots = game.record["seat_bots"]
    log = []
    for i, move in enumerate(game.moves, 1):
        before = game.states[i - 1]
        by = move.get("by", "")
        log.append(
            {
                "step": i,
                "by": by,
                "bot": figures.bot_label(seat_bots.get(by, "")),
                "text": registry.describe_move(game.run.game, move)
                or _("Move %(i)s by %(by)s.") % {"i": i, "by": by},
                "offered": len(referee.legal_moves(before, by)) if i == step else None,
            }
        )
    return {"log": log, "current": log[step - 1] if step else None}


def _shown(game: str, key: str, value) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int | float):
        return figures.show(game, key, value)
    return str(value)


@login_required
@require_GET
def game_page(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    run = _run(request, pk)
    if not 1 <= number <= max(1, run.games_asked):
        raise Http404("No such game in this run.")
    game = replay.open_game(run, number - 1)
    last = len(game.moves)
    step = whole_number(request.GET.get("step"))
    step = last if step is None else min(max(0, step), last)
    seats = list(game.setup.players)
    seat = request.GET.get("seat") or ""
    if seat not in seats:
        seat = ""
    referee = registry.kit(run.game).referee
    view = referee.view(game.states[step], seat or None)
    state = game.states[step]
    figs = game.record["figures"]
    stall = game.record.get("stall")
    extremes = replay.extremes(run)
    for hole in extremes["holes"]:
        hole["text"] = HOLES.get(hole["kind"], "")
    context = {
        "run": run,
        "game": game,
        "game_label": dict(game_choices()).get(run.game, run.game),
        "ruleset_words": lab_words.run_ruleset(run),
        "step": step,
        "last": last,
        "previous": max(0, step - 1),
        "next": min(last, step + 1),
        "seat": seat,
        "seats": [
            {"name": s, "bot": figures.bot_label(game.record["seat_bots"][s])} for s in seats
        ],
        "view_rows": replay.view_rows(run.game, view),
        "finished": bool(state.get("finished")),
        "winners": state.get("winners") or [],
        "figure_rows": [
            {"label": figures.label(run.game, k), "text": _shown(run.game, k, figs[k])}
            for k in figures.ordered(run.game, figs)
            if figs[k] is not None
        ],
        "stall": stall,
        "stall_text": HOLES.get(stall["kind"], "") if stall else "",
        "extremes": extremes,
        **_steps(game, step),
    }
    return render(request, "playtests/run_game.html", context)


@login_required
@require_GET
def game_open(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The run page's "open game number N" form (a plain GET): to that game's page."""
    run = _run(request, pk)
    number = whole_number(request.GET.get("number")) or 1
    number = min(max(1, number), max(1, run.games_asked))
    return redirect(reverse("playtests:run_game", args=[run.pk, number]))
