"""The designer's lab pages (``games.playtests.lab_start``): start a run, follow it, read, compare,
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
from games.playtests.models import SimulationRun
from games.playtests.service import known_game
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
        else lab_bounds.visible_runs(request.user)
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


# The settings a run may change, one field each (``option_<name>``, ``param_<name>``): chosen
# by their labels, with their meaning and range beside, never typed by name
# (``lab_words.sweepable``).
def setting_field_name(each: dict) -> str:
    return f"{each['kind']}_{each['name']}"


class RunForm(forms.Form):
    ruleset = forms.ModelChoiceField(
        label=gettext_lazy("Ruleset version"),
        queryset=Ruleset.objects.none(),
        required=False,
        empty_label=gettext_lazy("The game's defaults"),
    )
    players = WholeNumberField(label=gettext_lazy("Players"), initial=4)
    games = WholeNumberField(
        label=gettext_lazy("Games"), initial=200, min_value=1, max_value=lab_bounds.MAX_GAMES
    )
    bots = forms.CharField(
        label=gettext_lazy("Bots"),
        initial="sensible",
        help_text=gettext_lazy("One a seat in turn, separated by commas."),
    )
    # For scripts and links: name=value lines, over the fields of each setting (not shown).
    params = forms.CharField(required=False, max_length=MAX_PAIRS_TEXT, widget=forms.HiddenInput)
    changed = forms.CharField(required=False, max_length=MAX_PAIRS_TEXT, widget=forms.HiddenInput)
    seed = WholeNumberField(
        label=gettext_lazy("Seed"), initial=1, min_value=0, max_value=numbers.MAX_WHOLE
    )
    sweep_name = forms.CharField(
        label=gettext_lazy("What-if: sweep this option or parameter"),
        required=False,
        widget=forms.Select,
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
        self.fields["ruleset"].label_from_instance = lab_words.ruleset_words
        kit = registry.kit(game)
        self.fields["bots"].help_text = _("One a seat in turn, separated by commas: %(bots)s.") % {
            "bots": ", ".join(kit.bots or {})
        }
        if kit.bots and "search" in kit.bots:
            self.fields["bots"].help_text += " " + _(
                "search tries each of its moves in games played on from what its seat can "
                "see, and makes the one that does best for it (budget: games tried a move)."
            )
        self.settings = lab_words.sweepable(game)
        options = [(s["name"], s["label"]) for s in self.settings if s["kind"] == "option"]
        params = [(s["name"], s["label"]) for s in self.settings if s["kind"] == "param"]
        self.fields["sweep_name"].widget.choices = [
            ("", _("Nothing: one run")),
            (_("Rule options"), options),
            (_("Bot parameters"), params),
        ]
        for each in self.settings:
            self.fields[setting_field_name(each)] = self._setting_field(kit, each)

    def _setting_field(self, kit, each: dict) -> forms.Field:
        help_text = _("%(meaning)s From %(range)s; usually %(default)s.") % each
        if each["kind"] == "option":
            spec = kit.referee.options[each["name"]]
            values = None
            if isinstance(spec.default, bool):
                values = [True, False]
            elif spec.choices is not None:
                values = list(spec.choices)
            if values is not None:
                choices = [("", _("as the ruleset says"))] + [
                    (json.dumps(v), lab_words.value_words(self.game, "option", each["name"], v))
                    for v in values
                ]
                return forms.ChoiceField(
                    label=each["label"], required=False, choices=choices, help_text=help_text
                )
        return forms.CharField(
            label=each["label"], required=False, max_length=40, help_text=help_text
        )

    def main_fields(self) -> list:
        return [
            self[name]
            for name in ("ruleset", "players", "games", "bots", "seed")
            + ("sweep_name", "sweep_values")
        ]

    def changed_settings(self) -> bool:
        """Whether a setting's field holds a value (its part of the form is opened)."""
        return any(f.value() for f in self.setting_fields())

    def setting_fields(self) -> list:
        return [self[setting_field_name(s)] for s in self.settings]

    def clean(self):
        data = super().clean()
        try:
            params = _pairs(data.get("params", ""))
            changed = _pairs(data.get("changed", ""))
            values = _values(data.get("sweep_values", ""))
            for each in self.settings:
                raw = (data.get(setting_field_name(each)) or "").strip()
                if raw:
                    into = changed if each["kind"] == "option" else params
                    into[each["name"]] = _value(raw)
        except forms.ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        data["params_dict"] = params
        data["changed_dict"] = changed
        data["bot_list"] = [b.strip() for b in data.get("bots", "").split(",") if b.strip()]
        name = (data.get("sweep_name") or "").strip()
        data["sweep"] = None
        if name:
            kinds = {s["name"]: s["kind"] for s in self.settings}
            if name not in kinds:
                raise forms.ValidationError(lab_words.unknown_setting(self.game, name))
            data["sweep"] = {"kind": kinds[name], "name": name, "values": values}
        return data


def _context_runs(user, game: str):
    return lab_bounds.visible_runs(user).filter(game=game).select_related("owner", "ruleset")[:50]


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
        for name, value in _pairs(request.GET.get("params", "")[:MAX_PAIRS_TEXT]).items():
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
                            "value_words": lab_words.value_words(game, "param", name, p["value"]),
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
            for other in lab_bounds.visible_runs(request.user)
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


def _asked(run: SimulationRun) -> int:
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
    y_label = _("%(figure)s (%%)") % {"figure": label} if scale == 100.0 else label
    svg = charts.line_chart(
        title,
        {label: mean},
        bands={label: (low, high)},
        bars={label: (low, high)},
        x=xs,
        x_label=what,
        y_label=y_label,
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
    if other_pk is not None:
        other = lab_bounds.visible_runs(request.user).filter(pk=other_pk, game=run.game).first()
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
