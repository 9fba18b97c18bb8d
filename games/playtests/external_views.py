"""Reports sent through the public form: the form itself, a designer's approval and
publication, and a game's published page.

Who: the public form, anyone, behind a honeypot and a rate limit; approving and publishing,
the designers of the report's ruleset (or of the group); the published page, anyone: it shows
the reports whose sender agreed to publication and that a designer chose to publish.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from games.aliases import Aliases
from games.forms import game_choices
from games.models import Ruleset
from games.playtests import service
from games.playtests.forms import (
    ExternalImpressions,
    ExternalReportForm,
    error_summary,
)
from games.playtests.models import FREE_TEXTS, RATINGS, ExternalReport, Impression


# -- external reports ---------------------------------------------------------------------------------
@login_required
@require_POST
def review_external(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    report = get_object_or_404(ExternalReport.objects.select_related("ruleset"), pk=pk)
    if not service.scope_external(request.user, report.game).filter(pk=pk).exists():
        raise PermissionDenied
    decision = request.POST.get("decision")
    if decision not in ("approve", "reject"):
        return HttpResponse(status=400)
    report.approved = decision == "approve"
    report.reviewed_at = timezone.now()
    report.save(update_fields=["approved", "reviewed_at"])
    if report.approved:
        messages.success(request, _("The report was approved: it now counts on the dashboard."))
    else:
        messages.info(request, _("The report was rejected."))
    return redirect("playtests:dashboard", game=report.game)


@login_required
@require_POST
def publish_external(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A designer of the report's ruleset (or of the group) shows or hides it on the game's
    published page; only a report approved and consented to publication may be shown."""
    report = get_object_or_404(ExternalReport, pk=pk)
    if not service.scope_external(request.user, report.game).filter(pk=pk).exists():
        raise PermissionDenied
    publish = request.POST.get("publish")
    if publish not in ("1", "0"):
        return HttpResponse(status=400)
    if publish == "1" and not ExternalReport.objects.consented().filter(pk=pk).exists():
        messages.error(
            request, _("Only an approved report whose sender agreed to it can be published.")
        )
        return redirect("playtests:dashboard", game=report.game)
    report.published = publish == "1"
    report.save(update_fields=["published"])
    if report.published:
        messages.success(request, _("The report is on the game’s published page."))
    else:
        messages.info(request, _("The report is no longer on the published page."))
    return redirect("playtests:dashboard", game=report.game)


def _published_entry(report: ExternalReport) -> dict:
    """A published report as the public page shows it: without the players' names unless
    its sender allowed them (each name written in a player's box becomes "Player N", in the
    outcome and the answers too)."""
    impressions = list(report.impressions.all())
    aliases = Aliases()
    if report.publish_consent != ExternalReport.Consent.WITH_NAMES:
        aliases = Aliases(
            {imp.player: _("Player %(n)s") % {"n": n} for n, imp in enumerate(impressions, start=1)}
        )
    return {
        "report": report,
        "outcome": aliases.text(report.outcome),
        "place": aliases.text(report.place),
        "impressions": [
            {
                "player": aliases.name(imp.player),
                "ratings": [(label, getattr(imp, key)) for key, label in RATINGS],
                "texts": [
                    (label, aliases.text(getattr(imp, key)))
                    for key, label in FREE_TEXTS
                    if getattr(imp, key)
                ],
            }
            for imp in impressions
        ],
    }


@require_GET
def published(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """The reports of a game its designers chose to publish, each with its sender's consent."""
    game = service.known_game(game)
    reports = (
        ExternalReport.objects.filter(game=game)
        .public()
        .select_related("ruleset")
        .prefetch_related("impressions")
        .order_by("-played_on", "-pk")
    )
    return render(
        request,
        "playtests/published.html",
        {
            "game": game,
            "game_label": dict(game_choices())[game],
            "entries": [_published_entry(r) for r in reports],
        },
    )


@require_http_methods(["GET", "POST"])
def public_report(request: HtmxHttpRequest, game: str, ruleset: int | None = None) -> HttpResponse:
    """The public form a designer shares. Bots and floods store nothing."""
    game = service.known_game(game)
    chosen = get_object_or_404(Ruleset, pk=ruleset, game=game) if ruleset else None
    form = ExternalReportForm(request.POST or None, game=game, ruleset=chosen)
    formset = ExternalImpressions(request.POST or None, prefix="p")
    context = {
        "form": form,
        "formset": formset,
        "game": game,
        "ruleset": chosen,
        "game_label": dict(game_choices())[game],
    }
    if request.method == "GET":
        return render(request, "playtests/public_report.html", context)
    if form.looks_like_a_bot():
        # Same answer as a real submission, so a bot learns nothing; nothing is stored.
        return render(request, "playtests/public_thanks.html", context)
    digest = service.ip_hash(service.client_ip(request))
    if not (form.is_valid() and formset.is_valid()):
        context["errors"] = error_summary(form, formset)
        return render(request, "playtests/public_report.html", context, status=400)
    with transaction.atomic():
        if service.too_many_from(digest):
            context["flood"] = True
            return render(request, "playtests/public_report.html", context, status=429)
        report = form.save(commit=False)
        report.game = game
        report.ip_hash = digest
        report.save()
        for row in formset:
            if not row.has_changed():
                continue
            data = row.cleaned_data
            Impression.objects.create(
                external=report,
                player=data["player"].strip(),
                **{key: data[key] for key, _label in RATINGS},
                **{key: data.get(key, "") for key, _label in FREE_TEXTS},
            )
    return render(request, "playtests/public_thanks.html", context)
