"""Sharing a table's playtest report with the designers is the owner's choice (issue 10.6).

Off by default; once chosen it goes to the owner of the table's ruleset and to the designers
group, with the players' names or under labels. The table's own people (its owner, its seated
users) always see it, by name. Every view of a report follows the same rule: the page, its
PDF, the dashboard and the CSV/JSON exports.
"""

from __future__ import annotations

import csv
import html
import json
import re
from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.management.commands.demo import DEMO_USER
from games.models import Ruleset, Table
from games.playtests import service as playtest_service
from games.playtests.models import DESIGNERS_GROUP, Impression
from tests import pdfs

from .conftest import finished_table
from .test_rulesets import DRAFT4

pytestmark = pytest.mark.django_db

PRIVATE, LABELS, NAMES = (
    Table.ReportSharing.PRIVATE,
    Table.ReportSharing.LABELS,
    Table.ReportSharing.NAMES,
)
SCRIPT = "amnesia_stories/01_judging_branches"  # Ana, Bruno and Caio; Ana wins
PLAYERS = ("Ana", "Bruno", "Caio")
LOGIN = "login"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def people(gm, other, django_user_model) -> dict:
    """Everyone who might ask for a table's report, each with a client."""
    ruleset_owner = django_user_model.objects.create_user(username="ruleset_owner")
    designer = django_user_model.objects.create_user(username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    seated = django_user_model.objects.create_user(username="seated")
    ruleset = Ruleset.objects.create(
        game="amnesia_stories", name="Ruleset owner's draft", options={}, owner=ruleset_owner
    )
    return {
        "ruleset": ruleset,
        "seated": seated,
        "clients": {
            "owner": logged_in(gm),
            "ruleset owner": logged_in(ruleset_owner),
            "designers group": logged_in(designer),
            "seated player": logged_in(seated),
            "other user": logged_in(other),
            "anonymous": Client(),
        },
        "users": {"ruleset owner": ruleset_owner, "designers group": designer, "other": other},
    }


def report_table(gm, people, sharing: str) -> Table:
    table = finished_table(gm, SCRIPT, ruleset=people["ruleset"], report_sharing=sharing)
    table.name = "Ana's night"  # a table named after a player, as the form names them
    table.save(update_fields=["name"])
    seat = table.seats.get(name="Bruno")
    seat.user = people["seated"]
    seat.save()
    report = playtest_service.ensure_report(table)
    report.place = "Caio's kitchen"
    report.save(update_fields=["place"])
    Impression.objects.create(
        report=report,
        player="Ana",
        seat=table.seats.get(name="Ana"),
        fun=5,
        length=4,
        clarity=4,
        downtime=3,
        decisions=5,
        again=5,
        best_moment="When Caio trusted Bruno",
    )
    return table


def status(client: Client, url: str):
    response = client.get(url)
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return LOGIN
    return response.status_code


SHARED = {
    "owner": 200,
    "ruleset owner": 200,
    "designers group": 200,
    "seated player": 200,
    "other user": 404,
    "anonymous": LOGIN,
}
NOT_SHARED = {**SHARED, "ruleset owner": 404, "designers group": 404}


@pytest.mark.parametrize(
    ("sharing", "expected"), [(PRIVATE, NOT_SHARED), (LABELS, SHARED), (NAMES, SHARED)]
)
@pytest.mark.parametrize("view", ["playtests:table_report", "playtests:table_report_pdf"])
def test_who_sees_a_tables_report(gm, people, monkeypatch, sharing, expected, view):
    from games.playtests import report_views

    monkeypatch.setattr(report_views, "table_pdf", lambda context: b"%PDF-1.7 who, not how")
    table = report_table(gm, people, sharing)
    url = reverse(view, args=[table.pk])
    got = {actor: status(client, url) for actor, client in people["clients"].items()}
    assert got == expected


@pytest.mark.parametrize("sharing", [PRIVATE, LABELS, NAMES])
def test_the_dashboard_and_exports_count_only_shared_tables(gm, people, sharing):
    table = report_table(gm, people, sharing)
    shared = sharing != PRIVATE
    for actor in ("ruleset owner", "designers group"):
        user = people["users"][actor]
        ids = [e["id"] for e in playtest_service.entries_for(user, "amnesia_stories")]
        assert ids == ([table.pk] if shared else []), actor
        client = people["clients"][actor]
        exported = client.get(reverse("playtests:export_json", args=["amnesia_stories"])).json()
        assert [r["id"] for r in exported["reports"]] == ([table.pk] if shared else [])
    # the owner's own dashboard (as a ruleset owner elsewhere) keeps their own tables
    Ruleset.objects.create(game="amnesia_stories", name="gm's draft", options={}, owner=gm)
    assert [e["id"] for e in playtest_service.entries_for(gm, "amnesia_stories")] == [table.pk]


def pdf_text(data: bytes) -> str:
    return re.sub(r"\s+", " ", pdfs.all_text(data, " "))


@pytest.mark.usefixtures("weasyprint_once")  # the same reports printed on both engines
def test_a_report_shared_without_names_shows_labels_everywhere(gm, people):
    table = report_table(gm, people, LABELS)
    designer = people["clients"]["designers group"]
    texts = {
        "page": designer.get(reverse("playtests:table_report", args=[table.pk])),
        "csv": designer.get(reverse("playtests:export_csv", args=["amnesia_stories"])),
        "json": designer.get(reverse("playtests:export_json", args=["amnesia_stories"])),
        "dashboard": designer.get(reverse("playtests:dashboard", args=["amnesia_stories"])),
    }
    texts = {key: html.unescape(r.content.decode()) for key, r in texts.items()}
    pdf = designer.get(reverse("playtests:table_report_pdf", args=[table.pk]))
    assert pdf.status_code == 200
    texts["pdf"] = pdf_text(pdf.content)
    version_pdf = designer.get(reverse("playtests:ruleset_pdf", args=[people["ruleset"].pk]))
    texts["ruleset pdf"] = pdf_text(version_pdf.content)
    assert "Player 1, Player 2, Player 3" in texts["ruleset pdf"]
    for where, text in texts.items():
        for name in PLAYERS:
            assert not re.search(rf"\b{name}\b", text), (where, name)
    for where in ("page", "pdf"):
        assert "Player 1" in texts[where] and "Player 3" in texts[where], where
        assert "Player 1's night" in texts[where], where  # the table's name too
    assert "When Player 3 trusted Player 2" in texts["page"]  # an impression's own words
    assert "Player 3's kitchen" in texts["pdf"] and "Player 3's kitchen" in texts["csv"]
    rows = list(csv.DictReader(StringIO(texts["csv"])))
    assert rows[0]["participants"] == "Player 1; Player 2; Player 3"
    assert rows[0]["winners"] == "Player 1"
    report = json.loads(texts["json"])["reports"][0]
    assert report["name"] == "Player 1's night"
    assert report["impressions"][0]["player"] == "Player 1"
    assert set(report["scores"]) == {"Player 1", "Player 2", "Player 3"}
    # the owner and the seated player read their own table by name
    for actor in ("owner", "seated player"):
        page = people["clients"][actor].get(reverse("playtests:table_report", args=[table.pk]))
        assert "When Caio trusted Bruno" in page.content.decode(), actor
    # shared with names, the designers read the names
    table.report_sharing = NAMES
    table.save(update_fields=["report_sharing"])
    page = designer.get(reverse("playtests:table_report", args=[table.pk])).content.decode()
    assert "When Caio trusted Bruno" in page and "Ana&#x27;s night" in page


def test_a_seat_already_under_a_label_keeps_it_in_a_report_without_names(gm, people):
    table = report_table(gm, people, LABELS)
    table.seats.filter(name="Caio").update(alias="Player 1")
    entry = playtest_service.entries_for(people["users"]["designers group"], "amnesia_stories")[0]
    # Caio keeps the label the owner gave; Ana, in seat 1, takes the next free one
    assert entry["participants"] == ["Player 4", "Player 2", "Player 1"]


# -- choosing ------------------------------------------------------------------------------------
def test_the_new_table_form_asks_and_does_not_share_by_default(gm_client):
    page = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    assert "Share the playtest report with the game’s designers?" in page
    assert re.search(r'<input type="radio" name="report_sharing" value="private"[^>]*checked', page)
    players = "Ana\nBruno\nCaio"
    data = {"game": "amnesia_stories", "players": players, "deck_mode": "virtual"}
    data |= {f"opt_{key}": value for key, value in DRAFT4.items()}
    assert gm_client.post(reverse("games:table_new"), data).status_code == 302
    assert Table.objects.get().report_sharing == PRIVATE
    data["report_sharing"] = LABELS
    assert gm_client.post(reverse("games:table_new"), {**data, "name": "Second"}).status_code == 302
    assert Table.objects.get(name="Second").report_sharing == LABELS


def test_the_owner_changes_it_later_from_the_table_and_the_report(gm, people):
    table = report_table(gm, people, PRIVATE)
    url = reverse("playtests:table_sharing", args=[table.pk])
    owner = people["clients"]["owner"]
    assert url in owner.get(table.get_absolute_url()).content.decode()
    assert url in owner.get(reverse("playtests:table_report", args=[table.pk])).content.decode()
    page = owner.get(url).content.decode()
    assert "ruleset_owner" in page  # it says who the report would go to
    for actor in ("ruleset owner", "designers group", "seated player", "other user"):
        assert people["clients"][actor].get(url).status_code == 404, actor
        assert people["clients"][actor].post(url, {"report_sharing": NAMES}).status_code == 404
    table.refresh_from_db()
    assert table.report_sharing == PRIVATE
    assert owner.post(url, {"report_sharing": NAMES}).status_code == 302
    table.refresh_from_db()
    assert table.report_sharing == NAMES
    designer = people["clients"]["designers group"]
    assert designer.get(reverse("playtests:table_report", args=[table.pk])).status_code == 200
    assert owner.post(url, {"report_sharing": "everyone"}).status_code == 400
    assert owner.post(url, {"report_sharing": PRIVATE}).status_code == 302
    assert designer.get(reverse("playtests:table_report", args=[table.pk])).status_code == 404


def test_the_demo_tables_are_shared_and_stay_so(db):
    call_command("demo", stdout=StringIO())
    demo = Table.objects.filter(owner__username=DEMO_USER)
    assert demo.count() == 6
    assert set(demo.values_list("report_sharing", flat=True)) == {NAMES}
    # someone playing on the demo account made a table of their own; one demo table was
    # set back to private: the command shares its own tables again, and only those
    visitor = demo.first()
    own = Table.objects.create(
        name="Friday with friends", game="amnesia", owner=visitor.owner, start_player="A"
    )
    demo.exclude(pk=own.pk).filter(pk=visitor.pk).update(report_sharing=PRIVATE)
    call_command("demo", stdout=StringIO())
    assert Table.objects.get(pk=visitor.pk).report_sharing == NAMES
    assert Table.objects.get(pk=own.pk).report_sharing == PRIVATE
