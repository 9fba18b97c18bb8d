"""The designer's lab pages (``games.playtests.lab_start``): start a run, follow it, read, compare,
export, share, delete, and save an option what-if as a named ruleset.

Who: designers of the game only (403 for anyone else, as the dashboard); a run is its owner's
and those it is shared with (404 for anyone else, as for a run that does not exist); only its
owner cancels, shares, deletes it or saves a ruleset from it.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from amnesia_site import lists
from amnesia_site.htmx import AuthenticatedHttpRequest
from amnesia_site.numbers import whole_number
from amnesia_site.workers import work
from games.forms import game_choices
from games.models import Ruleset
from games.playtests import (
    charts,
    lab_beside_real,
    lab_bounds,
    lab_chunks,
    lab_export,
    lab_reading,
    lab_start,
    lab_words,
    questions,
    service,
)
from games.playtests import figures as F
from games.playtests.lab_forms import MAX_PAIRS_TEXT, RunForm, parse_pairs
from games.playtests.models import SimulationRun
from games.playtests.service import known_game


def _designer(request, game: str) -> None:
    if not service.is_designer(request.user, game):
        raise PermissionDenied(_("The lab is for the game's designers."))


def _run(request, pk: int, own: bool = False) -> SimulationRun:
    """A run the user may see (its owner's only with ``own``); 404 otherwise."""
    if not request.user.is_authenticated:
        raise Http404("No such run.")
    scope = (
        SimulationRun.objects.filter(owner=request.user, parent__isnull=True)
        if own
        else lab_bounds.visible_runs(request.user)
    )
    run = get_object_or_404(scope.select_related("ruleset", "owner"), pk=pk)
    _designer(request, run.game)
    return run


def _context_runs(user, game: str):
    return lab_bounds.visible_runs(user).filter(game=game).select_related("owner", "ruleset")[:50]


def _measured_words(game: str, name: str, measured: dict) -> str:
    """A parameter measured from real plays with its 95% interval, as the pages write one:
    "0.52 (0.44–0.59)", "0.52（0.44〜0.59）" in Japanese."""
    words = lab_words.value_words(game, "param", name, measured["value"])
    low, high = measured.get("low"), measured.get("high")
    if low is None or high is None:
        return words
    ends = [lab_words.value_words(game, "param", name, end) for end in (low, high)]
    return words + lists.bracketed(lists.span(*ends))


@login_required
@require_http_methods(["GET", "POST"])
def lab_page(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
    _designer(request, game)
    if game not in lab_bounds.simulable_games():
        raise Http404("This game cannot be simulated.")
    # A link of the measured parameters fills the form (ruleset and parameters).
    initial = {k: request.GET[k] for k in ("ruleset",) if k in request.GET}
    try:
        # A measured parameter's link: into the parameter's own field, shown by its label.
        for name, value in parse_pairs(request.GET.get("params", "")[:MAX_PAIRS_TEXT]).items():
            initial[f"param_{name}"] = value
    except forms.ValidationError:
        pass
    form = RunForm(game, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            run = lab_start.start(
                request.user,
                game,
                d["ruleset"],
                players=d["players"],
                games=d["games"],
                bots=d["bot_list"],
                params=d["params_dict"],
                changed=d["changed_dict"],
                seed=d["seed"],
                sweep=d["sweep"],
            )
        except lab_bounds.LabError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("playtests:run_detail", run.pk)
    runs = list(_context_runs(request.user, game))
    for each in runs:
        each.ruleset_words = lab_words.run_ruleset(each)
        each.what = lab_words.sweep_words(game, each.sweep) if each.sweep else ""
        each.asked = _asked(each)
    return render(
        request,
        "playtests/lab.html",
        {
            "game": game,
            "game_label": dict(game_choices())[game],
            "form": form,
            "runs": runs,
            "running": lab_bounds.running_run(request.user),
            "measured": [
                {
                    **m,
                    "ruleset_words": lab_words.ruleset_words(m["ruleset"]),
                    "params": {
                        name: {
                            **p,
                            "label": lab_words.param_label(game, name),
                            "value_words": _measured_words(game, name, p),
                        }
                        for name, p in m["params"].items()
                    },
                    "query": urlencode(
                        {
                            "ruleset": m["ruleset"].pk,
                            "params": "\n".join(
                                f"{k}={v['value']}" for k, v in m["params"].items()
                            ),
                        }
                    ),
                }
                for m in lab_beside_real.measured_params(request.user, game)
            ],
        },
        status=400 if request.method == "POST" else 200,
    )


def _detail_context(request, run: SimulationRun) -> dict:
    entries = service.entries_for(request.user, run.game) if run.figures else []
    asked = _asked(run)
    context = {
        "run": run,
        "game_label": dict(game_choices()).get(run.game, run.game),
        "ruleset_words": lab_words.run_ruleset(run),
        "bots_words": lab_words.bots_words(run.bots),
        "settings_words": lab_words.settings_words(run.game, run.changed, run.params),
        "sentences": lab_reading.sentences(run),
        "rows": lab_reading.figure_rows(run),
        # The bar's end is the games asked; a settled run's bar is full whatever it kept.
        "percent": 100 if not run.active else min(100, round(100 * run.games_done / max(1, asked))),
        "asked": asked,
        "bar_max": asked if run.active else max(1, run.games_done),
        "bar_value": run.games_done,
        "mine": run.owner_id == request.user.pk,
        "children": list(run.children.order_by("pk")),
        "others": [
            {"run": other, "words": lab_words.run_words(other)}
            for other in _comparable(request.user)
            .filter(game=run.game)
            .exclude(pk=run.pk)
            .select_related("ruleset")[:50]
        ],
        "chart": None,
        "worker_answers": work.answering(work.LONG) if run.active else True,
        "in_line": lab_chunks.place_in_line(run)
        if run.status == SimulationRun.Status.QUEUED
        else None,
        "predicted": lab_beside_real.predicted(run, entries)
        if run.ruleset_id and run.figures
        else None,
        "questions": questions.answers(run.game, run.figures, run.players, entries),
    }
    if run.sweep:
        names = F.ordered(run.game, {n for c in context["children"] for n in c.figures})
        figure = request.GET.get("figure") or next(
            (n for n in names if F.headline(run.game, n)), ""
        )
        figure = figure if figure in names else (names[0] if names else "")
        context["sweep_what"] = lab_words.sweep_words(run.game, run.sweep)
        context["sweep_figures"] = [{"key": n, "label": F.label(run.game, n)} for n in names]
        context["sweep_figure"] = figure
        context["sweep_figure_label"] = F.label(run.game, figure) if figure else ""
        if figure:
            context["chart"] = sweep_chart(run, figure)
            context["points"] = [
                {
                    **p,
                    "value_words": lab_words.swept_value_words(run.game, run.sweep, p["value"]),
                    "text": F.show_figure(run.game, figure, p["figure"]),
                    "n_text": F.number(p["figure"]["n"], 0) if p["figure"] else "",
                }
                for p in lab_reading.sweep_points(run, figure)
            ]
    return context


def _is_study(run: SimulationRun) -> bool:
    return run.sweep.get("kind") == "study"


def _comparable(user):
    """The runs a run may be compared with: the visible runs and sweeps, not the studies. A
    study's cells differ in ruleset, player count and (a study of skill) bots, so a run
    compared with each of them, paired by seed, says nothing; and a study compares its own
    rulesets on its page (``study_answer``)."""
    # has_key first: a run without a sweep has no "kind", whose comparison is NULL (not kept).
    return lab_bounds.visible_runs(user).exclude(Q(sweep__has_key="kind") & Q(sweep__kind="study"))


def _asked(run: SimulationRun) -> int:
    if _is_study(run):  # its cells', not a sweep's values
        return run.games_asked * max(1, run.children.count())
    return run.games_asked * (len(run.sweep.get("values", [])) if run.sweep else 1)


def sweep_chart(run: SimulationRun, figure: str) -> dict:
    """The figure over the swept values: its mean, its 95% interval as a band and as a bar
    at each value, in the figure's unit, named by labels."""
    points = lab_reading.sweep_points(run, figure)
    usable = [p for p in points if p["figure"] and isinstance(p["value"], int | float)]
    xs = [float(p["value"]) for p in usable]
    scale = 100.0 if F.unit(run.game, figure) == F.SHARE else 1.0
    mean = [p["figure"]["value"] * scale for p in usable]
    low = [p["figure"]["low"] * scale if "low" in p["figure"] else None for p in usable]
    high = [p["figure"]["high"] * scale if "high" in p["figure"] else None for p in usable]
    label = F.label(run.game, figure)
    what = lab_words.sweep_words(run.game, run.sweep)
    title = _("%(figure)s as %(name)s changes") % {"figure": label, "name": what}
    svg = charts.line_chart(
        title,
        {label: mean},
        bands={label: (low, high)},
        bars={label: (low, high)},
        x=xs,
        x_label=what,
        y_label=F.axis_label(run.game, figure),
        signed=F.is_difference(run.game, figure),
    )
    return {"title": title, "svg": svg}


@login_required
@require_GET
def run_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    if run.sweep.get("kind") == "study":  # a study has its own page (``study_views``)
        return redirect("playtests:study", run.pk)
    template = "playtests/run_detail.html"
    if request.htmx and request.htmx.target == "run-progress":
        template += "#progress"
    return render(request, template, _detail_context(request, run))


@login_required
@require_POST
def run_cancel(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk, own=True)
    lab_chunks.cancel(run)
    return redirect("playtests:run_detail", run.pk)


@login_required
@require_POST
def run_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk, own=True)
    game = run.game
    if run.active:
        lab_chunks.cancel(run)
    run.delete()
    messages.success(request, _("The run is deleted."))
    return redirect("playtests:lab", game)


@login_required
@require_POST
def run_share(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk, own=True)
    name = (request.POST.get("username") or "").strip()
    user = get_user_model().objects.filter(username=name).first()
    if user is None or user.pk == run.owner_id or not service.is_designer(user, run.game):
        messages.error(request, _("No other designer of this game has that user name."))
    else:
        run.shared_with.add(user)
        messages.success(request, _("The run is shared with %(name)s.") % {"name": name})
    return redirect("playtests:run_detail", run.pk)


@login_required
@require_GET
def run_export(request: AuthenticatedHttpRequest, pk: int, fmt: str) -> HttpResponse:
    if fmt not in ("csv", "json"):
        raise Http404("No such export.")
    run = _run(request, pk)
    if fmt == "json":
        response = JsonResponse(lab_export.as_json(run), json_dumps_params={"indent": 1})
    else:
        response = HttpResponse(lab_export.as_csv(run), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="simulation-{run.pk}.{fmt}"'
    return response


@login_required
@require_GET
def run_compare(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    other_pk = whole_number(request.GET.get("other"), low=1)
    other = None
    if other_pk is not None and not _is_study(run):
        other = _comparable(request.user).filter(pk=other_pk, game=run.game).first()
    if other is None:
        raise Http404("No such run to compare.")
    # The other run is read against this one: the differences are the other's less this one's,
    # and the page says so in words (the swap link reads them the other way).
    return render(
        request,
        "playtests/run_compare.html",
        {
            "a": run,
            "b": other,
            "a_words": lab_words.run_words(run),
            "b_words": lab_words.run_words(other),
            "direction": lab_words.direction(run, other),
            "sections": lab_reading.compare_sections(run, other),
        },
    )


@login_required
@require_POST
def run_save_ruleset(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Save the options of a what-if (a value of an option sweep, or a run with changed
    options) as a new named ruleset; bot parameters are not rules and are not saved."""
    run = get_object_or_404(SimulationRun, pk=pk, owner=request.user)
    _designer(request, run.game)
    top = run.parent or run
    if not run.changed or (run.parent and run.parent.sweep.get("kind") != "option"):
        raise Http404("Nothing to save from this run.")
    name = (request.POST.get("name") or "").strip()[:120]
    if not name:
        messages.error(request, _("Give the new ruleset a name."))
        return redirect("playtests:run_detail", top.pk)
    changelog = lab_words.changelog(run)
    try:
        with transaction.atomic():
            ruleset = Ruleset.objects.create(
                game=run.game,
                name=name,
                version=1,
                options=run.options,
                changelog=changelog,
                owner=request.user,
                created_by=request.user,
            )
    except IntegrityError:
        messages.error(request, _("A ruleset of this game already has that name."))
        return redirect("playtests:run_detail", top.pk)
    messages.success(
        request, _("Saved as the ruleset %(name)s; new tables may play it.") % {"name": name}
    )
    return redirect(reverse("playtests:rulesets", args=[ruleset.game]))
