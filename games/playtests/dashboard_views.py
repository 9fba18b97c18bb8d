"""The designer's dashboard of a game: its playtests summed up, two ruleset versions side by
side, the reports waiting for approval, and the exports (CSV, JSON, a version's PDF).

Who: designers only (403 for anyone else). A member of the "designers" group (or a
superuser) sees the shared tables of the game; the owner of a ruleset the shared tables that
played their rulesets; both their own tables too.
"""

from __future__ import annotations

import csv
import json
from io import StringIO

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from amnesia_site import lists
from amnesia_site.addresses import phone_url
from amnesia_site.htmx import AuthenticatedHttpRequest
from amnesia_site.numbers import whole_number
from games.forms import game_choices
from games.models import Ruleset
from games.playtests import lab_bounds, lab_reading, lab_words, present, service, stats, study_pdf
from games.playtests.impressions import gathered as gathered_impressions
from games.playtests.models import RATINGS
from games.playtests.pdf import pdf_response
from games.playtests.pdf import ruleset_pdf as render_pdf


def _designer(request, game: str) -> None:
    if not service.is_designer(request.user, game):
        raise PermissionDenied(_("The dashboard is for the game's designers."))


# -- the designer's dashboard --------------------------------------------------------------------
def _summary_rows(summary: dict) -> list[tuple[str, str]]:
    d = summary["duration"] or {}
    return [
        (_("Playtests"), str(summary["count"])),
        (_("… at a table in the app"), str(summary["tables"])),
        (_("… reported through the form"), str(summary["external"])),
        (
            _("Player counts"),
            lists.listing(
                ngettext("%(n)s player: %(c)s", "%(n)s players: %(c)s", n) % {"n": n, "c": c}
                for n, c in summary["player_counts"]
            )
            or "—",
        ),
        (
            _("Duration (minutes): median, quartiles"),
            _middle(d.get("median"), d.get("q1"), d.get("q3")) if d else "—",
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
    return _middle(q["median"], q["min"], q["max"])


def _middle(middle: object, low: object, high: object) -> str:
    """A middle value and its ends: "19.1 (17.0–26.0)", or "19.1（17.0〜26.0）" in Japanese."""
    return stats.fmt(middle) + lists.bracketed(lists.span(stats.fmt(low), stats.fmt(high)))


def _balance_rows(summary: dict) -> list[tuple[str, str]]:
    return [(str(r["label"]), stats.fmt(r["value"], r["kind"])) for r in summary["balance"]]


def with_demo(request) -> bool:
    """Whether the designer chose to count the demo account's tables (``?demo=1``), on the
    dashboard and in its exports alike."""
    return request.GET.get("demo") == "1"


@login_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest, game: str) -> HttpResponse:
    game = service.known_game(game)
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
    game = service.known_game(game)
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
    game = service.known_game(game)
    _designer(request, game)
    entries = service.entries_for(request.user, game, with_demo(request))
    response = JsonResponse(
        {"game": game, "reports": entries}, json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = content_disposition_header(True, f"playtests-{game}.json")
    return response


# -- a ruleset version's PDF -------------------------------------------------------------------
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
    return pdf_response(data, f"playtests-{ruleset.game}-{ruleset.pk}-v{ruleset.version}.pdf")
