"""A table's playtest report and the players' impressions: the list of one's playtests, a
table's report (page and PDF), its sharing, and the impression forms.

Who sees what:
- a table's report: its owner and the users seated at it; the owner of its ruleset and the
  designers only when the table's owner shares it (``Table.report_sharing``, off unless
  chosen, and then with or without the players' names); anyone else gets a 404, as for a
  table that does not exist. Only the owner chooses (``table_sharing``);
- a seat's impression form: whoever holds the seat's private link (the token is the
  credential, as on the seat's own page).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from amnesia_site.addresses import phone_url
from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games.forms import game_choices
from games.languages import use_seat_language
from games.live import qr_svg
from games.models import Seat, Table
from games.playtests import present, service, stats
from games.playtests.forms import (
    ImpressionForm,
    PlaceForm,
    SharingForm,
)
from games.playtests.models import FREE_TEXTS, RATING_SHORT, RATINGS, Impression
from games.playtests.pdf import pdf_response, table_pdf


# -- the index ---------------------------------------------------------------------------------
@login_required
@require_GET
def index(request: AuthenticatedHttpRequest) -> HttpResponse:
    tables = (
        Table.objects.finished()
        .filter(owner=request.user)
        .select_related("ruleset")
        .prefetch_related("seats")
        .order_by("-finished_at")[:50]
    )
    designer_games = [
        (key, label) for key, label in game_choices() if service.is_designer(request.user, key)
    ]
    return render(
        request,
        "playtests/index.html",
        {"tables": tables, "designer_games": designer_games, "games": game_choices()},
    )


# -- one table's report ------------------------------------------------------------------------
def _report_table(request, pk: int) -> Table:
    table = get_object_or_404(Table.objects.finished().select_related("ruleset", "owner"), pk=pk)
    if not service.can_see_report(request.user, table):
        raise Http404("No such report.")
    return table


def _report_context(table: Table, user) -> dict:
    """The report as ``user`` may read it: in a report shared without the players' names,
    those it is shared with read every player under a label (``service.report_aliases``)."""
    report = service.current_report(table)
    aliases = service.report_aliases(user, table)
    figures = service.shown_figures(report.figures, table, aliases)
    impressions = service.shown_impressions(service.impressions_of(report), aliases)
    by_name = {i.player: i for i in impressions}
    seats = list(table.seats.all())
    return {
        "table": table,
        "table_name": aliases.text(table.name),
        "place": aliases.text(report.place),
        "names_left_out": not service.sees_names(user, table),
        "report": report,
        "fig": figures,
        "duration": present.duration_text(figures.get("duration_seconds")),
        "pauses": [
            {**p, "text": present.duration_text(p["seconds"])} for p in figures.get("pauses", [])
        ],
        "rows": present.figure_rows(figures),
        "charts": present.table_charts(figures),
        "impressions": impressions,
        "ratings": [(key, RATING_SHORT[key], label) for key, label in RATINGS],
        "free_texts": FREE_TEXTS,
        "seats": [
            {
                "seat": s,
                "name": aliases.name(s.name),
                "impression": by_name.get(aliases.name(s.name)),
            }
            for s in seats
        ],
        "averages": stats.impression_averages(
            [{"impressions": [i.ratings() for i in impressions]}]
        ),
    }


@login_required
@require_http_methods(["GET", "POST"])
def table_report(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    table = _report_table(request, pk)
    context = _report_context(table, request.user)
    form = PlaceForm(initial={"place": context["report"].place})
    if request.method == "POST":
        if table.owner_id != request.user.pk:
            raise PermissionDenied
        form = PlaceForm(request.POST)
        if form.is_valid():
            report = service.ensure_report(table)  # kept now: a POST writes
            report.place = form.cleaned_data["place"].strip()
            report.save(update_fields=["place"])
            messages.success(request, _("The place was saved."))
            return redirect("playtests:table_report", pk=table.pk)
    context["place_form"] = form
    context["is_owner"] = table.owner_id == request.user.pk
    if context["is_owner"]:
        for row in context["seats"]:
            seat = row["seat"]
            row["link"] = phone_url(request, _impression_path(seat))
            row["qr"] = reverse("playtests:seat_impression_qr", args=[table.pk, seat.position])
    return render(request, "playtests/table_report.html", context)


def _impression_path(seat: Seat) -> str:
    return reverse("playtests:seat_impression", args=[seat.token])


@login_required
@require_GET
def seat_impression_qr(request: AuthenticatedHttpRequest, pk: int, position: int) -> HttpResponse:
    """The QR code of a seat's impressions link, made here as the join screen's are (the
    table's owner only: the code is the seat's secret link)."""
    table = get_object_or_404(Table.objects.filter(owner=request.user), pk=pk)
    seat = get_object_or_404(Seat, table=table, position=position)
    return qr_svg(phone_url(request, _impression_path(seat)))


@login_required
@require_http_methods(["GET", "POST"])
def table_sharing(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The owner chooses, at any time, whether the table's report goes to its designers."""
    table = get_object_or_404(
        Table.objects.filter(owner=request.user).select_related("ruleset__owner"), pk=pk
    )
    form = SharingForm(request.POST or None, instance=table)
    if request.method == "POST" and form.is_valid():
        form.save()
        if table.report_shared:
            messages.success(request, _("The playtest report is shared with the designers."))
        else:
            messages.success(request, _("The playtest report is not shared."))
        return redirect("playtests:table_sharing", pk=table.pk)
    ruleset = table.ruleset  # None when ruleset_id is (no query then)
    designer = ruleset.owner if ruleset is not None and ruleset.owner_id else None
    return render(
        request,
        "playtests/table_sharing.html",
        {"table": table, "form": form, "designer": designer},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def table_report_pdf(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    table = _report_table(request, pk)
    data = table_pdf(_report_context(table, request.user))
    return pdf_response(data, f"playtest-table-{table.pk}.pdf")


# -- impressions ---------------------------------------------------------------------------------
def _impression_page(request, table: Table, seat: Seat, *, done_url: str, by_seat: bool):
    """The form, and on a valid answer the impression saved: nothing (the table's report
    neither) is written before the answer is valid."""
    existing = Impression.objects.filter(report__table=table, player=seat.name).first()
    form = ImpressionForm(request.POST or None, instance=existing)
    if request.method == "POST" and form.is_valid():
        impression = form.save(commit=False)
        with transaction.atomic():
            impression.report = service.ensure_report(table)
            impression.seat = seat
            impression.player = seat.name
            impression.save()
        messages.success(
            request, _("Thank you, %(name)s: your impressions are saved.") % {"name": seat.name}
        )
        return redirect(done_url)
    return render(
        request,
        "playtests/impression_form.html",
        {"form": form, "table": table, "seat": seat, "by_seat": by_seat, "existing": existing},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def gm_impression(request: AuthenticatedHttpRequest, pk: int, position: int) -> HttpResponse:
    """The game master types a player's answers."""
    table = get_object_or_404(Table.objects.finished().filter(owner=request.user), pk=pk)
    seat = get_object_or_404(table.seats, position=position)
    return _impression_page(
        request,
        table,
        seat,
        done_url=reverse("playtests:table_report", args=[table.pk]),
        by_seat=False,
    )


@require_http_methods(["GET", "POST"])
@guards_secret(SEAT_LINKS, "token")
def seat_impression(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A player answers through their seat's private link: no account needed (guessing at
    the link is throttled like at every seat link)."""
    seat = get_object_or_404(Seat.objects.select_related("table"), token=token)
    table = seat.table
    use_seat_language(request, table)  # as on the seat's page the player comes from
    if table.status != Table.Status.FINISHED:
        return render(request, "playtests/impression_wait.html", {"seat": seat, "table": table})
    return _impression_page(
        request,
        table,
        seat,
        done_url=reverse("playtests:seat_impression", args=[token]),
        by_seat=True,
    )
