"""The study pages (``games.playtests.study_start``): start a study from lists (no names to type),
follow it, and read its answer in sentences and charts; a run or a sweep opens as a study.

Who: designers of the game only (403 for anyone else); a study is its owner's and those it is
shared with (404 for anyone else); cancel and delete are the lab's own (``lab_views``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRefresh

from amnesia_site import lists, numbers
from amnesia_site.htmx import AuthenticatedHttpRequest
from amnesia_site.numbers import WholeNumberField
from amnesia_site.workers import work
from games import registry
from games.forms import game_choices
from games.models import Ruleset
from games.playtests import figures as names
from games.playtests import (
    lab_bounds,
    lab_chunks,
    lab_words,
    study_answer,
    study_charts,
    study_reading,
    study_skill,
    study_start,
)
from games.playtests.lab_views import _designer, _run
from games.playtests.models import SimulationRun
from games.playtests.service import known_game


class RulesetChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Ruleset) -> str:
        return lab_words.ruleset_words(obj)


class RulesetsChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Ruleset) -> str:
        return lab_words.ruleset_words(obj)


class StudyForm(forms.Form):
    baseline = RulesetChoice(
        label=gettext_lazy("Read against this ruleset"),
        queryset=Ruleset.objects.none(),
        empty_label=None,  # a study always reads against one: the first is chosen
    )
    others = RulesetsChoice(
        label=gettext_lazy("Rulesets to try"),
        queryset=Ruleset.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,  # a study of skill or of a restricted seat may ask of one ruleset
    )
    question = forms.ChoiceField(
        label=gettext_lazy("The question"),
        choices=[
            (study_start.COMPARE, gettext_lazy("How do the rulesets differ?")),
            (
                study_start.SKILL,
                gettext_lazy(
                    "How much does each reward skill? (a search bot among sensible bots, a "
                    "sensible bot among random bots)"
                ),
            ),
        ],
        initial=study_start.COMPARE,
        required=False,  # a form sent without it asks the first question
    )
    restriction = forms.ChoiceField(
        label=gettext_lazy("Forbid one seat a choice"),
        required=False,
        help_text=gettext_lazy(
            "One seat of the first bot plays without it against the others free to choose: "
            "what the choice is worth."
        ),
    )
    players_from = WholeNumberField(label=gettext_lazy("Players, from"), initial=4)
    players_to = WholeNumberField(label=gettext_lazy("to"), initial=4)
    games = WholeNumberField(
        label=gettext_lazy("Games in each cell"),
        initial=200,
        min_value=1,
        max_value=lab_bounds.MAX_GAMES,
    )
    bots = forms.MultipleChoiceField(
        label=gettext_lazy("Bots, one a seat in turn"),
        widget=forms.CheckboxSelectMultiple,
        initial=["sensible"],
    )
    sweep1 = forms.ChoiceField(label=gettext_lazy("What if this changes"), required=False)
    values1 = forms.CharField(
        label=gettext_lazy("over these values"),
        required=False,
        max_length=200,
        help_text=gettext_lazy(
            "Numbers separated by commas; a switch or a choice takes all its values."
        ),
    )
    sweep2 = forms.ChoiceField(label=gettext_lazy("and this"), required=False)
    values2 = forms.CharField(
        label=gettext_lazy("over these values"), required=False, max_length=200
    )
    seed = WholeNumberField(
        label=gettext_lazy("Seed"), initial=1, min_value=0, max_value=numbers.MAX_WHOLE
    )

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        rulesets = Ruleset.objects.filter(game=game).order_by("name", "-version")
        fields: dict[str, Any] = self.fields
        fields["baseline"].queryset = rulesets
        fields["others"].queryset = rulesets
        kit = registry.kit(game)
        fields["bots"].choices = [(name, names.bot_label(name)) for name in kit.bots or {}]
        self.sweepables = study_start.sweepables(game)
        choices = [("", _("Nothing"))] + [
            (s.key, s.label + lists.bracketed(s.range)) for s in self.sweepables
        ]
        fields["sweep1"].choices = choices
        fields["sweep2"].choices = choices
        self.restrictions = lab_words.restrictions(game)
        fields["restriction"].choices = [("", _("Nothing"))] + [
            (r["key"], r["label"]) for r in self.restrictions
        ]

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        grid = []
        for which in ("1", "2"):
            key = data.get(f"sweep{which}")
            if not key:
                continue
            item = study_start.sweepable(self.game, key)
            if item is None:
                continue
            try:
                values = study_start.swept_values(item, data.get(f"values{which}") or "")
            except lab_bounds.LabError as exc:
                self.add_error(f"values{which}", str(exc))
                continue
            grid.append({"kind": item.kind, "name": item.name, "values": values})
        data["grid"] = grid
        baseline, others = data.get("baseline"), list(data.get("others") or [])
        data["rulesets"] = [baseline, *[r for r in others if r != baseline]] if baseline else []
        lo, hi = data.get("players_from"), data.get("players_to")
        data["players"] = list(range(lo, (hi if hi is not None else lo) + 1)) if lo else []
        if lo and hi is not None and hi < lo:
            self.add_error("players_to", _("The second number of players is the larger."))
        return data


@login_required
@require_http_methods(["GET", "POST"])
def study_new(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
    _designer(request, game)
    if game not in lab_bounds.simulable_games():
        raise Http404("This game cannot be simulated.")
    form = StudyForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            study = study_start.start(
                request.user,
                game,
                d["rulesets"],
                players=d["players"],
                games=d["games"],
                bots=d["bots"],
                grid=d["grid"],
                seed=d["seed"],
                question=d.get("question") or study_start.COMPARE,
                restriction=d.get("restriction") or "",
            )
        except lab_bounds.LabError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("playtests:study", study.pk)
    return render(
        request,
        "playtests/study_form.html",
        {
            "game": game,
            "game_label": dict(game_choices())[game],
            "form": form,
            "sweepables": form.sweepables,
            "restrictions": form.restrictions,
            "running": lab_bounds.running_run(request.user),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def study_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run: SimulationRun = _run(request, pk)
    view = study_reading.view_of(run)
    settled = not run.active
    context = {
        "run": run,
        "view": view,
        "game_label": dict(game_choices()).get(run.game, run.game),
        "asked": view.asked,
        "done": view.done,
        "mine": run.owner_id == request.user.pk,
        "worker_answers": work.answering(work.LONG) if run.active else True,
        "in_line": lab_chunks.place_in_line(run)
        if run.status == SimulationRun.Status.QUEUED
        else None,
        "bots": study_reading.bots_words(view),
        "restriction": view.restriction_words(),
        "skill": view.question == study_start.SKILL,
        "axes": [
            {
                "label": study_reading.axis_label(run.game, a),
                "values": [study_reading.value_words(run.game, a, v) for v in a.get("values", [])],
            }
            for a in view.grid
        ],
    }
    if request.htmx and request.htmx.target == "study-progress":
        if not run.active:  # settled while followed: the whole page, with its answer
            return HttpResponseClientRefresh()
        return render(request, "playtests/study.html#progress", context)
    if settled:
        names = set()
        for cell in view.cells:
            names |= set(cell.run.figures)
        names_in_order = study_reading.ordered(run.game, names)
        headline = study_answer.headline(view)
        chosen = request.GET.get("figure") or ""
        shown = [chosen] if chosen in names_in_order and chosen not in headline else []
        # A study of skill pools no cells into charts: each cell plays a different table.
        skill = view.question == study_start.SKILL
        context.update(
            answer=study_answer.answer(view),
            rule_holes=study_skill.rule_holes(view),
            charts=[
                c for name in [*headline, *shown] for c in study_charts.figure_charts(view, name)
            ]
            if not skill
            else [],
            histograms=study_charts.histograms(view) if not skill else [],
            figure_choices=[
                {"name": n, "label": study_reading.figure(run.game, n)["label"]}
                for n in names_in_order
                if n not in headline
            ],
            chosen=chosen,
        )
    return render(request, "playtests/study.html", context)
