"""A game's rulesets: the versions of each named ruleset, a new one, and the next version of
one (editing makes the next version: tables that played one keep it). Their PDF is the
dashboard's (``games.playtests.dashboard_views``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from amnesia_site.htmx import AuthenticatedHttpRequest
from games.forms import game_choices
from games.models import Ruleset
from games.playtests import service
from games.playtests.forms import (
    RulesetForm,
)
from games.rulesets import new_version


# -- rulesets ---------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def rulesets(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = service.known_game(game)
    form = RulesetForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        ruleset = Ruleset.objects.create(
            game=game,
            name=form.cleaned_data["name"],
            version=1,
            options=form.options(),
            changelog=form.cleaned_data["changelog"],
            created_by=request.user,
            owner=request.user,
        )
        messages.success(request, _("Ruleset “%(name)s” created.") % {"name": ruleset.label})
        return redirect("playtests:rulesets", game=game)
    families: dict[str, list[Ruleset]] = {}
    for ruleset in (
        Ruleset.objects.filter(game=game).select_related("created_by").order_by("name", "-version")
    ):
        families.setdefault(ruleset.name, []).append(ruleset)
    named = [
        {
            "name": versions[0].shown_name,
            "versions": versions,
            "latest": versions[0],
            "editable": service.can_edit_ruleset(request.user, versions[0]),
        }
        for name, versions in families.items()
    ]
    return render(
        request,
        "playtests/rulesets.html",
        {
            "game": game,
            "game_label": dict(game_choices())[game],
            "named": named,
            "form": form,
            "is_designer": service.is_designer(request.user, game),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Editing makes the next version: tables that played this one keep it."""
    base = get_object_or_404(Ruleset, pk=pk)
    if not service.can_edit_ruleset(request.user, base):
        raise PermissionDenied
    form = RulesetForm(request.POST or None, game=base.game, base=base)
    if request.method == "POST" and form.is_valid():
        ruleset = new_version(base, form.options(), form.cleaned_data["changelog"], request.user)
        messages.success(request, _("Saved as %(name)s.") % {"name": ruleset.label})
        return redirect("playtests:rulesets", game=base.game)
    return render(
        request,
        "playtests/ruleset_form.html",
        {"form": form, "base": base, "game": base.game},
        status=400 if request.method == "POST" else 200,
    )
