"""The designer's lab pages (``games.playtests.lab``): start a run, follow it, read, compare,
export, share, delete, and save an option what-if as a named ruleset.

Who: designers of the game only (403 for anyone else, as the dashboard); a run is its owner's
and those it is shared with (404 for anyone else, as for a run that does not exist); only its
owner cancels, shares, deletes it or saves a ruleset from it.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from amnesia_site import numbers
from amnesia_site.htmx import AuthenticatedHttpRequest
from amnesia_site.numbers import WholeNumberField, whole_number
from amnesia_site.workers import work
from games import registry
from games.forms import game_choices
from games.messages import referee_message
from games.models import Ruleset
from games.playtests import charts, lab, service
from games.playtests.models import SimulationRun
from games.playtests.views import known_game
from games.rules.base import BadScript
from games.rules.script import NotJSON, load_json


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
        else lab.visible_runs(request.user)
    )
    run = get_object_or_404(scope.select_related("ruleset", "owner"), pk=pk)
    _designer(request, run.game)
    return run


def _value(raw: str):
    """A value typed in the lab's form: JSON (within ``load_json``'s bounds of depth,
    numbers and text) when it is written as JSON, the text as typed when it is no JSON at
    all (a bot's name, a word); JSON past those bounds is refused in a sentence."""
    try:
        return load_json(raw)
    except NotJSON:
        return raw
    except BadScript as exc:
        raise forms.ValidationError(referee_message(exc)) from None


def _pairs(text: str) -> dict:
    out = {}
    for line in (text or "").replace(",", "\n").splitlines():
        name, sep, raw = line.partition("=")
        if not line.strip():
            continue
        if not sep or not name.strip():
            raise forms.ValidationError(_("Write one NAME=VALUE a line."))
        out[name.strip()] = _value(raw.strip())
    return out


def _values(text: str) -> list:
    return [_value(raw.strip()) for raw in (text or "").split(",") if raw.strip()]


# What a designer types in a field is a few names and values: a bound on its size, as on its
# JSON's depth (``load_json``), keeps a pasted megabyte from reaching the parser.
MAX_PAIRS_TEXT = 2000
MAX_VALUES_TEXT = 1000


class RunForm(forms.Form):
    ruleset = forms.ModelChoiceField(
        label=gettext_lazy("Ruleset version"),
        queryset=Ruleset.objects.none(),
        required=False,
        empty_label=gettext_lazy("The game's defaults"),
    )
    players = WholeNumberField(label=gettext_lazy("Players"), initial=4)
    games = WholeNumberField(
        label=gettext_lazy("Games"), initial=200, min_value=1, max_value=lab.MAX_GAMES
    )
    bots = forms.CharField(
        label=gettext_lazy("Bots"),
        initial="sensible",
        help_text=gettext_lazy("One a seat in turn, separated by commas."),
    )
    params = forms.CharField(
        label=gettext_lazy("Bot parameters"),
        required=False,
        max_length=MAX_PAIRS_TEXT,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("NAME=VALUE, one a line (the players, not the rules)."),
    )
    changed = forms.CharField(
        label=gettext_lazy("Changed options"),
        required=False,
        max_length=MAX_PAIRS_TEXT,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("OPTION=VALUE, one a line, over the ruleset's."),
    )
    seed = WholeNumberField(
        label=gettext_lazy("Seed"), initial=1, min_value=0, max_value=numbers.MAX_WHOLE
    )
    sweep_name = forms.CharField(
        label=gettext_lazy("What-if: sweep this option or parameter"), required=False
    )
    sweep_values = forms.CharField(
        label=gettext_lazy("over these values"),
        required=False,
        max_length=MAX_VALUES_TEXT,
        help_text=gettext_lazy("Separated by commas, e.g. 6,8,10,12,14."),
    )

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["ruleset"].queryset = Ruleset.objects.filter(game=game).order_by(
            "name", "-version"
        )
        kit = registry.kit(game)
        self.fields["bots"].help_text = _("One a seat in turn, separated by commas: %(bots)s.") % {
            "bots": ", ".join(kit.bots or {})
        }
        if kit.bots and "search" in kit.bots:
            self.fields["bots"].help_text += " " + _(
                "search tries each of its moves in games played on from what its seat can "
                "see, and makes the one that does best for it (budget: games tried a move)."
            )

    def clean(self):
        data = super().clean()
        try:
            data["params_dict"] = _pairs(data.get("params", ""))
            data["changed_dict"] = _pairs(data.get("changed", ""))
            values = _values(data.get("sweep_values", ""))
        except forms.ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        data["bot_list"] = [b.strip() for b in data.get("bots", "").split(",") if b.strip()]
        name = (data.get("sweep_name") or "").strip()
        data["sweep"] = None
        if name:
            referee = registry.kit(self.game).referee
            kind = "option" if name in referee.options else "param"
            data["sweep"] = {"kind": kind, "name": name, "values": values}
        return data


def _context_runs(user, game: str):
    return lab.visible_runs(user).filter(game=game).select_related("owner")[:50]


@login_required
@require_http_methods(["GET", "POST"])
def lab_page(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
    _designer(request, game)
    if game not in lab.simulable_games():
        raise Http404("This game cannot be simulated.")
    # A link of the measured parameters fills the form (ruleset and parameters).
    initial = {k: request.GET[k] for k in ("ruleset", "params") if k in request.GET}
    form = RunForm(game, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            run = lab.start(
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
        except lab.LabError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("playtests:run_detail", run.pk)
    runs = list(_context_runs(request.user, game))
    return render(
        request,
        "playtests/lab.html",
        {
            "game": game,
            "game_label": dict(game_choices())[game],
            "form": form,
            "runs": runs,
            "running": lab.running_run(request.user),
            "measured": [
                {
                    **m,
                    "query": urlencode(
                        {
                            "ruleset": m["ruleset"].pk,
                            "params": "\n".join(
                                f"{k}={v['value']}" for k, v in m["params"].items()
                            ),
                        }
                    ),
                }
                for m in lab.measured_params(request.user, game)
            ],
        },
        status=400 if request.method == "POST" else 200,
    )


def _detail_context(request, run: SimulationRun) -> dict:
    context = {
        "run": run,
        "game_label": dict(game_choices()).get(run.game, run.game),
        "sentences": lab.sentences(run),
        "rows": lab.figure_rows(run.figures),
        "percent": round(100 * run.games_done / max(1, _asked(run))),
        "asked": _asked(run),
        "mine": run.owner_id == request.user.pk,
        "children": list(run.children.order_by("pk")),
        "others": lab.visible_runs(request.user).filter(game=run.game).exclude(pk=run.pk)[:50],
        "chart": None,
        "worker_answers": work.answering(work.LONG) if run.active else True,
        "in_line": lab.place_in_line(run) if run.status == SimulationRun.Status.QUEUED else None,
        "predicted": lab.predicted(run, service.entries_for(request.user, run.game))
        if run.ruleset_id and run.figures
        else None,
    }
    if run.sweep:
        names = sorted({n for c in context["children"] for n in c.figures})
        figure = request.GET.get("figure") or ("seat1.wins" if "seat1.wins" in names else "")
        figure = figure if figure in names else (names[0] if names else "")
        context["sweep_figures"] = names
        context["sweep_figure"] = figure
        if figure:
            context["chart"] = sweep_chart(run, figure)
            context["points"] = lab.sweep_points(run, figure)
    return context


def _asked(run: SimulationRun) -> int:
    return run.games_asked * (len(run.sweep.get("values", [])) if run.sweep else 1)


def sweep_chart(run: SimulationRun, figure: str) -> dict:
    points = lab.sweep_points(run, figure)
    usable = [p for p in points if p["figure"] and isinstance(p["value"], int | float)]
    xs = [float(p["value"]) for p in usable]
    mean = [p["figure"]["value"] for p in usable]
    low = [p["figure"].get("low") for p in usable]
    high = [p["figure"].get("high") for p in usable]
    title = _("%(figure)s as %(name)s changes") % {"figure": figure, "name": run.sweep["name"]}
    svg = charts.line_chart(
        title,
        {figure: mean},
        bands={figure: (low, high)},
        x=xs,
        x_label=run.sweep["name"],
        y_label=figure,
    )
    return {"title": title, "svg": svg}


@login_required
@require_GET
def run_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    template = "playtests/run_detail.html"
    if request.htmx and request.htmx.target == "run-progress":
        template += "#progress"
    return render(request, template, _detail_context(request, run))


@login_required
@require_POST
def run_cancel(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk, own=True)
    lab.cancel(run)
    return redirect("playtests:run_detail", run.pk)


@login_required
@require_POST
def run_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk, own=True)
    game = run.game
    if run.active:
        lab.cancel(run)
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
        response = JsonResponse(lab.as_json(run), json_dumps_params={"indent": 1})
    else:
        response = HttpResponse(lab.as_csv(run), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="simulation-{run.pk}.{fmt}"'
    return response


@login_required
@require_GET
def run_compare(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    other_pk = whole_number(request.GET.get("other"), low=1)
    other = None
    if other_pk is not None:
        other = lab.visible_runs(request.user).filter(pk=other_pk, game=run.game).first()
    if other is None:
        raise Http404("No such run to compare.")
    return render(
        request,
        "playtests/run_compare.html",
        {"a": run, "b": other, "rows": lab.compare(run, other)},
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
    changes = ", ".join(
        f"{k}={json.dumps(v)}"
        + (
            f" ({_('was')} {json.dumps(run.ruleset.options.get(k))})"
            if run.ruleset and k in run.ruleset.options
            else ""
        )
        for k, v in sorted(run.changed.items())
    )
    source = run.ruleset_label.replace("@", " v") if run.ruleset_label else _("the defaults")
    changelog = _("From %(source)s: %(changes)s (a what-if of the lab, run %(run)s).") % {
        "source": source,
        "changes": changes,
        "run": top.pk,
    }
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
