"""The designer's dashboard: who may see it, a fixed number of queries however many reports,
two versions side by side, and exports that read back as the reports."""

from __future__ import annotations

import csv
import json
from io import StringIO

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rulesets
from games.models import Ruleset, Table
from games.playtests import service as playtest_service
from games.playtests.dashboard_views import CSV_COLUMNS
from games.playtests.models import ExternalReport, Impression

from .conftest import builtin, finished_table, golden, many_reports

SHARED = Table.ReportSharing.NAMES  # the owner shares these tables with the designers
pytestmark = pytest.mark.django_db

DASHBOARD = reverse("playtests:dashboard", args=["amnesia_stories"])


def drafts() -> list[Ruleset]:
    return [
        builtin("amnesia_stories", "Amnesia Stories draft 3"),
        builtin("amnesia_stories", "Amnesia Stories draft 4"),
    ]


def external(ruleset, players=4, minutes=50, approved=True, **fields) -> ExternalReport:
    report = ExternalReport.objects.create(
        game="amnesia_stories",
        ruleset=ruleset,
        played_on="2026-03-01",
        players=players,
        duration_minutes=minutes,
        outcome=fields.pop("outcome", "Dora won by 3"),
        approved=approved,
        ip_hash="x" * 64,
        **fields,
    )
    Impression.objects.create(
        external=report, player="Dora", fun=4, length=4, clarity=2, downtime=3, decisions=4, again=5
    )
    return report


# -- who may see it -------------------------------------------------------------------------------
def test_non_designers_get_403(gm_client, other_client):
    for name in ("dashboard", "export_csv", "export_json"):
        url = reverse(f"playtests:{name}", args=["amnesia_stories"])
        assert gm_client.get(url).status_code == 403
    assert Client().get(DASHBOARD).status_code == 302  # to the login page
    assert other_client.get(reverse("playtests:dashboard", args=["chess"])).status_code == 404


def test_ruleset_owner_sees_only_their_rulesets_tables(gm, other, other_client):
    mine = Ruleset.objects.create(
        game="amnesia_stories", name="Other's draft", options=drafts()[1].options, owner=other
    )
    many_reports(gm, 3, [mine])
    many_reports(gm, 4, drafts())
    response = other_client.get(DASHBOARD)
    assert response.status_code == 200
    assert response.context["summary"]["count"] == 3
    # a designer of the group sees all seven
    assert other_client.get(reverse("playtests:dashboard", args=["contest"])).status_code == 403


def test_designer_group_sees_everything(gm, designer_client):
    many_reports(gm, 7, drafts())
    external(drafts()[0])
    external(drafts()[0], approved=False)  # waiting: not counted yet
    response = designer_client.get(DASHBOARD)
    summary = response.context["summary"]
    assert (summary["count"], summary["tables"], summary["external"]) == (8, 7, 1)
    assert len(response.context["pending"]) == 1
    html = response.content.decode()
    assert "Designer’s dashboard" in html and "<svg" in html


# -- no N+1 ---------------------------------------------------------------------------------------
def count_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(DASHBOARD)
    assert response.status_code == 200
    return len(queries)


def test_dashboard_query_count_is_the_same_for_5_and_200_reports(gm, designer_client):
    rulesets = drafts()
    many_reports(gm, 5, rulesets)
    external(rulesets[0])
    external(rulesets[1], approved=False)
    designer_client.get(DASHBOARD)  # warm: the built-in rulesets exist from here on
    five = count_queries(designer_client)
    many_reports(gm, 195, rulesets)
    for _ in range(10):
        external(rulesets[1])
        external(rulesets[0], approved=False)
    two_hundred = count_queries(designer_client)
    assert designer_client.get(DASHBOARD).context["summary"]["tables"] == 200
    assert five == two_hundred, (five, two_hundred)


def test_a_report_is_computed_by_the_move_that_ends_the_game_then_read(
    gm, designer_client, monkeypatch
):
    tables = [
        finished_table(gm, "amnesia_stories/01_judging_branches", report_sharing=SHARED),
        finished_table(gm, "amnesia_stories/02_penalty_tie_and_draw", report_sharing=SHARED),
    ]
    for table in tables:
        table.refresh_from_db()
        assert table.playtest_report.computed_seq == table.last_seq
    computed = []
    monkeypatch.setattr(
        playtest_service, "compute_figures", lambda table: computed.append(table) or {}
    )
    assert count_queries(designer_client) == count_queries(designer_client)
    assert computed == []  # read, not computed, and nothing stored by the GET


# -- two versions side by side ---------------------------------------------------------------------
def test_compare_two_versions(gm, designer_client):
    draft3, draft4 = drafts()
    many_reports(gm, 4, [draft3])
    many_reports(gm, 6, [draft4], impressions=1)
    response = designer_client.get(DASHBOARD, {"a": draft3.pk, "b": draft4.pk})
    comparison = response.context["comparison"]
    assert (comparison["a"], comparison["b"]) == (draft3, draft4)
    rows = {r["key"]: r for r in comparison["rows"]}
    assert rows["count"]["a"] == 4 and rows["count"]["b"] == 6 and rows["count"]["delta"] == 2
    # durations: 30..33 minutes for A, 30..35 for B
    assert rows["duration"]["a"] == 31.5 and rows["duration"]["b"] == 32.5
    assert "step_1" in rows and "red_cards" in rows
    # the htmx request gets the comparison alone
    partial = designer_client.get(
        DASHBOARD,
        {"a": draft3.pk, "b": draft4.pk},
        headers={"HX-Request": "true", "HX-Target": "comparison"},
    ).content.decode()
    assert partial.lstrip().startswith('<section id="comparison"')
    assert "Amnesia Stories draft 3 · v1" in partial


def test_editing_a_ruleset_makes_a_version_and_old_tables_keep_theirs(gm, designer_client):
    draft4 = drafts()[1]
    (table,) = many_reports(gm, 1, [draft4])
    url = reverse("playtests:ruleset_edit", args=[draft4.pk])
    data = {f"opt_{k}": v for k, v in draft4.options.items() if v is not False}
    data.update(opt_bard_points=3, changelog="Draft 5: the bard scores 3 VP.")
    assert designer_client.post(url, data).status_code == 302
    v2 = Ruleset.objects.get(game="amnesia_stories", name=draft4.name, version=2)
    assert v2.options["bard_points"] == 3 and v2.changelog.startswith("Draft 5")
    draft4.refresh_from_db()
    assert draft4.options["bard_points"] == 2
    table.refresh_from_db()
    assert table.ruleset_id == draft4.pk


# -- exports -----------------------------------------------------------------------------------------
def test_csv_export_reads_back_as_the_reports(gm, designer, designer_client):
    rulesets = drafts()
    many_reports(gm, 6, rulesets)
    finished_table(gm, "amnesia_stories/02_penalty_tie_and_draw", report_sharing=SHARED)
    external(rulesets[0], outcome='=HYPERLINK("evil")')
    response = designer_client.get(reverse("playtests:export_csv", args=["amnesia_stories"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(StringIO(response.content.decode("utf-8"))))
    assert list(rows[0]) == CSV_COLUMNS
    entries = playtest_service.entries_for(designer, "amnesia_stories")
    assert len(rows) == len(entries) == 8
    for row, entry in zip(rows, entries, strict=True):
        assert row["kind"] == entry["kind"] and int(row["id"]) == entry["id"]
        assert row["ruleset"] == entry["ruleset"]
        assert row["date"] == entry["date"]
        assert int(row["players"]) == entry["players"]
        assert row["participants"] == "; ".join(entry["participants"])
        assert int(row["duration_seconds"]) == entry["duration_seconds"]
        assert row["winners"] == "; ".join(entry["winners"])
        assert (json.loads(row["scores"]) if row["scores"] else None) == entry["scores"]
        assert json.loads(row["figures"]) == entry["figures"]
        assert int(row["impressions"]) == len(entry["impressions"])
        if entry["impressions"]:
            funs = [i["fun"] for i in entry["impressions"]]
            assert float(row["avg_fun"]) == pytest.approx(sum(funs) / len(funs), abs=0.005)
    # the draw: two winners, and its real figures
    draw = next(r for r in rows if r["winners"] == "Ana; Bruno")
    assert json.loads(draw["figures"])["red_cards"] == {"Ana": 2, "Bruno": 1, "Caio": 2}
    # a formula from the public form is written as text, never run by a spreadsheet
    assert rows[-1]["outcome"] == '\'=HYPERLINK("evil")'


def test_json_export(gm, designer_client):
    many_reports(gm, 3, drafts())
    external(drafts()[1])
    response = designer_client.get(reverse("playtests:export_json", args=["amnesia_stories"]))
    data = json.loads(response.content)
    assert data["game"] == "amnesia_stories"
    assert [r["kind"] for r in data["reports"]] == ["table"] * 3 + ["external"]
    assert data["reports"][0]["figures"]["set_bonus_total"] == 3
    assert data["reports"][-1]["impressions"][0]["player"] == "Dora"


# -- approvals -----------------------------------------------------------------------------------------
def test_designer_approves_or_rejects_external_reports(designer_client, gm_client):
    keep, drop = external(drafts()[0], approved=False), external(drafts()[0], approved=False)
    url = reverse("playtests:review_external", args=[keep.pk])
    assert gm_client.post(url, {"decision": "approve"}).status_code == 403
    assert designer_client.post(url, {"decision": "approve"}).status_code == 302
    designer_client.post(
        reverse("playtests:review_external", args=[drop.pk]), {"decision": "reject"}
    )
    keep.refresh_from_db()
    drop.refresh_from_db()
    assert keep.approved and keep.reviewed_at
    assert not drop.approved and drop.reviewed_at
    summary = designer_client.get(DASHBOARD).context["summary"]
    assert summary["external"] == 1


@pytest.mark.parametrize(
    ("game", "script", "figure"),
    [
        ("amnesia", "amnesia/11_finale_and_end_story", "Flashbacks per game"),
        ("amnesia_stories", "amnesia_stories/01_judging_branches", "Red cards per game"),
        ("contest", "contest/last_card_and_winner", "Refusals per game"),
    ],
)
def test_every_games_dashboard_and_comparison(gm, designer_client, game, script, figure):
    first = finished_table(gm, script, gaps={3: 2000}, report_sharing=SHARED)
    second = finished_table(gm, script, every=90, report_sharing=SHARED)
    base = Ruleset.objects.filter(game=game, builtin=True).order_by("pk").first()
    version = rulesets.new_version(base, base.options, "Same options, new notes.", None)
    first.ruleset, second.ruleset = base, version
    first.save()
    second.save()
    url = reverse("playtests:dashboard", args=[game])
    response = designer_client.get(url, {"a": base.pk, "b": version.pk})
    assert response.status_code == 200
    html = response.content.decode()
    assert figure in html
    rows = {r["key"]: r for r in response.context["comparison"]["rows"]}
    assert rows["count"]["a"] == rows["count"]["b"] == 1
    # n moves a minute apart but for one pause (left out), against 90 s apart
    n = len(golden(script)["moves"])
    assert rows["duration"]["a"] == n - 2
    assert rows["duration"]["b"] == (n - 1) * 1.5
    pdf = designer_client.get(reverse("playtests:ruleset_pdf", args=[version.pk]))
    assert pdf.status_code == 200
