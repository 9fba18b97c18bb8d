"""Playtest reports, impressions, rulesets, the public report form and the designer's dashboard.

Who sees what:
- a table's report: its owner and the users seated at it; the owner of its ruleset and the
  designers only when the table's owner shares it (``Table.report_sharing``, off unless
  chosen, and then with or without the players' names); anyone else gets a 404, as for a
  table that does not exist. Only the owner chooses (``table_sharing``);
- the dashboard, the exports and the approvals: designers only (403 for anyone else). A member
  of the "designers" group (or a superuser) sees the shared tables of the game; the owner of a
  ruleset the shared tables that played their rulesets; both their own tables too;
- the published page of a game: anyone; it shows the reports sent through the public form
  whose sender agreed to publication and that a designer chose to publish;
- a seat's impression form: whoever holds the seat's private link (the token is the
  credential, as on the seat's own page);
- the public report form: anyone, behind a honeypot and a rate limit.
"""

from __future__ import annotations

import csv
import json
from io import StringIO

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from amnesia_site.addresses import phone_url
from amnesia_site.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from amnesia_site.numbers import whole_number
from amnesia_site.throttle import SEAT_LINKS, guards_secret
from games.aliases import Aliases
from games.forms import game_choices
from games.languages import use_table_language
from games.live import qr_svg
from games.models import Ruleset, Seat, Table
from games.playtests import lab_bounds, lab_reading, lab_words, present, service, stats, study_pdf
from games.playtests.forms import (
    ExternalImpressions,
    ExternalReportForm,
    ImpressionForm,
    PlaceForm,
    RulesetForm,
    SharingForm,
    error_summary,
)
from games.playtests.impressions import gathered as gathered_impressions
from games.playtests.models import FREE_TEXTS, RATING_SHORT, RATINGS, ExternalReport, Impression
from games.playtests.pdf import ruleset_pdf as render_pdf
from games.playtests.pdf import table_pdf
from games.rulesets import new_version


def known_game(game: str) -> str:
    """``game`` when the site has such a game; a 404 otherwise (the dashboard's and the lab's
    addresses alike)."""
    if game not in dict(game_choices()):
        raise Http404("No such game.")
    return game


def _designer(request, game: str) -> None:
    if not service.is_designer(request.user, game):
        raise PermissionDenied(_("The dashboard is for the game's designers."))


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
    return _pdf_response(data, f"playtest-table-{table.pk}.pdf")


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    disposition = content_disposition_header(False, filename)
    response["Content-Disposition"] = disposition  # type: ignore[assignment]  # a name: never None
    return response


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
    use_table_language(request, table)  # as on the seat's page the player comes from
    if table.status != Table.Status.FINISHED:
        return render(request, "playtests/impression_wait.html", {"seat": seat, "table": table})
    return _impression_page(
        request,
        table,
        seat,
        done_url=reverse("playtests:seat_impression", args=[token]),
        by_seat=True,
    )


# -- rulesets ---------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def rulesets(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
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


@login_required
@require_GET
def ruleset_pdf(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The report of every playtest of one ruleset version, as a PDF."""
    ruleset = get_object_or_404(Ruleset, pk=pk)
    _designer(request, ruleset.game)
    entries = [
        e for e in service.entries_for(request.user, ruleset.game) if e["ruleset_id"] == ruleset.pk
    ]
    summary = stats.summarize(ruleset.game, entries)
    # A simulated run the user may see goes in too when asked for (the lab's run page); a
    # run that is no number is no page (one the user may not see is left out, as before).
    run = None
    raw_run = request.GET.get("run", "")
    if raw_run:
        run_pk = whole_number(raw_run, low=1)
        if run_pk is None:
            raise Http404("No such run.")
        run = lab_bounds.visible_runs(request.user).filter(pk=run_pk, game=ruleset.game).first()
    data = render_pdf(
        {
            "run": run,
            "run_sentences": lab_reading.sentences(run) if run else [],
            "run_rows": lab_reading.figure_rows(run) if run else [],
            "run_words": lab_words.run_words(run) if run else "",
            "run_bots": lab_words.bots_words(run.bots) if run else "",
            "ruleset": ruleset,
            "entries": entries,
            "summary": summary,
            "rows": _summary_rows(summary),
            "balance": _balance_rows(summary),
            "charts": present.summary_charts(summary),
            "now": timezone.now(),
            **study_pdf.context(request.user, run),
        }
    )
    return _pdf_response(data, f"playtests-{ruleset.game}-{ruleset.pk}-v{ruleset.version}.pdf")


# -- the designer's dashboard --------------------------------------------------------------------
def _summary_rows(summary: dict) -> list[tuple[str, str]]:
    d = summary["duration"] or {}
    return [
        (_("Playtests"), str(summary["count"])),
        (_("… at a table in the app"), str(summary["tables"])),
        (_("… reported through the form"), str(summary["external"])),
        (
            _("Player counts"),
            ", ".join(
                ngettext("%(n)s player: %(c)s", "%(n)s players: %(c)s", n) % {"n": n, "c": c}
                for n, c in summary["player_counts"]
            )
            or "—",
        ),
        (
            _("Duration (minutes): median, quartiles"),
            f"{stats.fmt(d.get('median'))} ({stats.fmt(d.get('q1'))}–{stats.fmt(d.get('q3'))})"
            if d
            else "—",
        ),
        (
            _("Score spread: median (lowest–highest)"),
            _spread(summary["score_spread"]),
        ),
        (_("Margin of victory: median (lowest–highest)"), _spread(summary["margin"])),
        (_("Games ending in a draw"), stats.fmt(summary["draws"], "percent")),
    ]


def _spread(q: dict | None) -> str:
    if not q:
        return "—"
    return f"{stats.fmt(q['median'])} ({stats.fmt(q['min'])}–{stats.fmt(q['max'])})"


def _balance_rows(summary: dict) -> list[tuple[str, str]]:
    return [(str(r["label"]), stats.fmt(r["value"], r["kind"])) for r in summary["balance"]]


def with_demo(request) -> bool:
    """Whether the designer chose to count the demo account's tables (``?demo=1``), on the
    dashboard and in its exports alike."""
    return request.GET.get("demo") == "1"


@login_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
    _designer(request, game)
    demo = with_demo(request)
    entries = service.entries_for(request.user, game, demo)
    summary = stats.summarize(game, entries)
    versions = list(service.ruleset_scope(request.user, game).order_by("name", "-version"))
    by_pk = {r.pk: r for r in versions}
    counts: dict[int | None, int] = {}
    for entry in entries:
        counts[entry["ruleset_id"]] = counts.get(entry["ruleset_id"], 0) + 1
    a_pk, b_pk = _pick(request.GET.get("a"), by_pk), _pick(request.GET.get("b"), by_pk)
    if a_pk is None and b_pk is None:
        # By default the two most played versions, older first.
        played = sorted((r for r in versions if counts.get(r.pk)), key=lambda r: -counts[r.pk])
        pair = sorted(played[:2], key=lambda r: (r.name, r.version))
        if len(pair) == 2:
            a_pk, b_pk = pair[0].pk, pair[1].pk
    comparison = None
    if a_pk is not None and b_pk is not None:
        a, b = by_pk[a_pk], by_pk[b_pk]
        sa = stats.summarize(game, [e for e in entries if e["ruleset_id"] == a.pk])
        sb = stats.summarize(game, [e for e in entries if e["ruleset_id"] == b.pk])
        rows = stats.compare(sa, sb)
        comparison = {
            "a": a,
            "b": b,
            "rows": [
                {
                    **r,
                    "a_text": stats.fmt(r["a"], "number" if r["kind"] == "rating" else r["kind"]),
                    "b_text": stats.fmt(r["b"], "number" if r["kind"] == "rating" else r["kind"]),
                    "delta_text": stats.fmt_delta(r["delta"], r["kind"]),
                }
                for r in rows
            ],
            "charts": present.compare_charts(a.label, b.label, sa, sb),
        }
    pending = (
        service.scope_external(request.user, game)
        .pending()
        .select_related("ruleset")
        .prefetch_related("impressions")
    )
    publishable = (
        service.scope_external(request.user, game)
        .consented()
        .select_related("ruleset")
        .order_by("-played_on", "-pk")
    )
    context = {
        "game": game,
        "game_label": dict(game_choices())[game],
        "publishable": publishable,
        "simulable": game in lab_bounds.simulable_games(),
        "beside": lab_reading.beside_real(request.user, game, entries)
        if game in lab_bounds.simulable_games()
        else None,
        "games": [(k, v) for k, v in game_choices() if service.is_designer(request.user, k)],
        "summary": summary,
        "summary_rows": _summary_rows(summary),
        "balance_rows": _balance_rows(summary),
        "charts": present.summary_charts(summary),
        "versions": [{"ruleset": r, "count": counts.get(r.pk, 0)} for r in versions],
        "unversioned": counts.get(None, 0),
        "comparison": comparison,
        "a_pk": a_pk,
        "b_pk": b_pk,
        "pending": pending,
        "recent": sorted(entries, key=lambda e: e["date"], reverse=True)[:20],
        "ratings": RATINGS,
        "impressions": gathered_impressions(entries, request.GET),
        "public_url": phone_url(request, reverse("playtests:public_report", args=[game])),
        "demo": demo,
        "demo_count": service.demo_tables(request.user, game).count(),
    }
    template = "playtests/dashboard.html"
    if request.htmx and request.htmx.target == "comparison":
        template += "#comparison"
    return render(request, template, context)


def _pick(raw: str | None, by_pk: dict) -> int | None:
    pk = whole_number(raw)
    return pk if pk in by_pk else None


# -- exports --------------------------------------------------------------------------------------
CSV_COLUMNS = (
    [
        "kind",
        "id",
        "game",
        "ruleset",
        "draft",
        "date",
        "place",
        "players",
        "participants",
        "duration_seconds",
        "moves",
        "winners",
        "margin",
        "scores",
        "outcome",
        "impressions",
    ]
    + [f"avg_{key}" for key, _label in RATINGS]
    + ["figures"]
)


def csv_row(entry: dict) -> dict[str, str]:
    """One report as a CSV row: lists joined with "; ", nested data as JSON."""
    averages = stats.impression_averages([entry])["averages"]
    return {
        "kind": entry["kind"],
        "id": str(entry["id"]),
        "game": entry["game"],
        "ruleset": entry["ruleset"],
        "draft": entry["draft"],
        "date": entry["date"],
        "place": entry["place"],
        "players": "" if entry["players"] is None else str(entry["players"]),
        "participants": "; ".join(entry["participants"]),
        "duration_seconds": ""
        if entry["duration_seconds"] is None
        else str(entry["duration_seconds"]),
        "moves": "" if entry["moves"] is None else str(entry["moves"]),
        "winners": "; ".join(entry["winners"]),
        "margin": "" if entry["margin"] is None else str(entry["margin"]),
        "scores": json.dumps(entry["scores"], ensure_ascii=False) if entry["scores"] else "",
        "outcome": entry["outcome"],
        "impressions": str(len(entry["impressions"])),
        **{
            f"avg_{key}": "" if averages[key] is None else f"{averages[key]:.2f}"
            for key, _label in RATINGS
        },
        "figures": json.dumps(entry["figures"], ensure_ascii=False, sort_keys=True),
    }


def _safe_cell(value: str) -> str:
    # A cell starting with = + - @ is a formula to a spreadsheet: make it text.
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


@login_required
@require_GET
def export_csv(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
    _designer(request, game)
    out = StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    for entry in service.entries_for(request.user, game, with_demo(request)):
        row = csv_row(entry)
        writer.writerow(
            {k: _safe_cell(v) if k not in ("figures", "scores") else v for k, v in row.items()}
        )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"playtests-{game}.csv")
    return response


@login_required
@require_GET
def export_json(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = known_game(game)
    _designer(request, game)
    entries = service.entries_for(request.user, game, with_demo(request))
    response = JsonResponse(
        {"game": game, "reports": entries}, json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = content_disposition_header(True, f"playtests-{game}.json")
    return response


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
    game = known_game(game)
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
    game = known_game(game)
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
