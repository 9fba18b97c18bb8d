"""A finished table's report: computed from the log once, cached, recomputed when the log
moves on; its page, its command, who may see it, and the players' impressions."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.playtests import service as playtest_service
from games.playtests.models import RATINGS as RATING_FIELDS
from games.playtests.models import Impression, PlaytestReport
from games.services import new_tables, writing
from tests.pdfs import all_text

from .conftest import finished_table, golden, with_times

pytestmark = pytest.mark.django_db


def test_report_is_cached_and_recomputed_when_the_log_moves_on(gm):
    table = finished_table(gm, "amnesia/11_finale_and_end_story", gaps={5: 1200, 9: 900})
    report = playtest_service.ensure_report(table)
    assert report.figures["duration_seconds"] == 1740
    assert report.computed_seq == table.last_seq
    # A second look reads the cache.
    PlaytestReport.objects.filter(pk=report.pk).update(figures={**report.figures, "moves": -1})
    table = Table.objects.get(pk=table.pk)
    assert playtest_service.ensure_report(table).figures["moves"] == -1
    # Undo the last move and end the story again: the log moved on, the figures follow.
    writing.undo(table, None, gm)
    writing.play_many(
        table, [{"by": "Ana", "do": "end_story", "agreed": ["Ana", "Bruno"]}], None, gm
    )
    table = Table.objects.get(pk=table.pk)
    assert playtest_service.ensure_report(table).figures["moves"] == 17


def test_stats_command_prints_the_report_as_json(gm):
    table = finished_table(gm, "amnesia_stories/01_judging_branches", gaps={4: 3600})
    out = StringIO()
    call_command("playtest", "stats", str(table.pk), stdout=out)
    data = json.loads(out.getvalue())
    assert data["participants"] == ["Ana", "Bruno", "Caio"]
    assert data["duration_seconds"] == 600
    assert data["winners"] == ["Ana"] and data["margin"] == 6
    assert data["figures"]["red_cards"] == {"Ana": 1, "Bruno": 0, "Caio": 3}
    assert data["ruleset"] is None  # an imported script plays options of its own


def test_stats_command_refuses_an_unfinished_or_missing_table(gm):
    table = new_tables.import_script(with_times(golden("amnesia/01_scenes_flashbacks_pass")), gm)
    with pytest.raises(CommandError, match="not finished"):
        call_command("playtest", "stats", str(table.pk), stdout=StringIO())
    with pytest.raises(CommandError, match="no table"):
        call_command("playtest", "stats", "999999", stdout=StringIO())


# -- the page and who may see it -----------------------------------------------------------------
def test_report_page_for_the_owner(gm, gm_client):
    table = finished_table(gm, "contest/last_card_and_winner")
    page = gm_client.get(reverse("playtests:table_report", args=[table.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Contests by attribute" in html and "<svg" in html
    assert "Bo at move 6" in html  # who dropped out when
    # the finished table page links to its report
    table_page = gm_client.get(table.get_absolute_url()).content.decode()
    assert reverse("playtests:table_report", args=[table.pk]) in table_page


def test_private_table_report_is_not_visible_to_others(gm, other_client, designer_client):
    table = finished_table(gm, "contest/last_card_and_winner")
    url = reverse("playtests:table_report", args=[table.pk])
    assert other_client.get(url).status_code == 404
    assert (
        other_client.get(reverse("playtests:table_report_pdf", args=[table.pk])).status_code == 404
    )
    assert Client().get(url).status_code == 302  # anonymous: to the login page
    assert (
        designer_client.get(url).status_code == 404
    )  # not shared (tests/playtests/test_sharing.py)
    # a player seated with an account sees it too
    seat = table.seats.get(name="Bo")
    from django.contrib.auth import get_user_model

    seat.user = get_user_model().objects.get(username="other")
    seat.save()
    assert other_client.get(url).status_code == 200
    # but only the owner may change it
    assert other_client.post(url, {"place": "Lisbon"}).status_code == 403


def test_unfinished_table_has_no_report_page(gm, gm_client):
    table = new_tables.import_script(with_times(golden("amnesia/01_scenes_flashbacks_pass")), gm)
    assert gm_client.get(reverse("playtests:table_report", args=[table.pk])).status_code == 404


def test_owner_saves_the_place(gm, gm_client):
    table = finished_table(gm, "contest/last_card_and_winner")
    url = reverse("playtests:table_report", args=[table.pk])
    assert gm_client.post(url, {"place": "Café Lisboa"}).status_code == 302
    assert PlaytestReport.objects.get(table=table).place == "Café Lisboa"
    assert "Café Lisboa" in gm_client.get(url).content.decode()


# -- impressions ----------------------------------------------------------------------------------
RATINGS = {"fun": 5, "length": 4, "clarity": 3, "downtime": 4, "decisions": 5, "again": 5}


def test_game_master_types_a_players_impressions(gm, gm_client, other_client):
    table = finished_table(gm, "contest/last_card_and_winner")
    url = reverse("playtests:gm_impression", args=[table.pk, 1])
    assert other_client.get(url).status_code == 404
    response = gm_client.post(url, {**RATINGS, "best_moment": "The arm wrestling"})
    assert response.status_code == 302
    impression = Impression.objects.get()
    assert impression.player == "Bo" and impression.fun == 5
    assert impression.best_moment == "The arm wrestling"
    # Answering again changes the answers: one impression per player per report.
    gm_client.post(url, {**RATINGS, "fun": 2, "best_moment": ""})
    assert Impression.objects.get().fun == 2
    page = gm_client.get(reverse("playtests:table_report", args=[table.pk])).content.decode()
    assert "The arm wrestling" not in page  # the second answer left the text empty
    assert gm_client.post(url, {**RATINGS, "fun": 6}).status_code == 400


def test_player_answers_through_the_seat_link_without_an_account(gm, client):
    table = finished_table(gm, "contest/last_card_and_winner")
    seat = table.seats.get(name="Ana")
    url = reverse("playtests:seat_impression", args=[seat.token])
    assert client.get(url).status_code == 200
    assert client.post(url, {**RATINGS, "change": "More pretzels"}).status_code == 302
    impression = Impression.objects.get()
    assert (impression.player, impression.seat, impression.change) == ("Ana", seat, "More pretzels")
    assert client.get(reverse("playtests:seat_impression", args=["not-a-token"])).status_code == 404


@pytest.mark.parametrize("refused", [{"fun": 6}, {"fun": "9" * 5000}, {"fun": 0}])
def test_a_refused_impression_writes_nothing(gm, gm_client, client, refused):
    """Not the impression, and not the table's report either: nothing before it is valid."""
    table = finished_table(gm, "contest/last_card_and_winner")
    PlaytestReport.objects.filter(table=table).delete()
    seat_url = reverse("playtests:seat_impression", args=[table.seats.get(name="Ana").token])
    gm_url = reverse("playtests:gm_impression", args=[table.pk, 1])
    assert client.get(seat_url).status_code == 200
    assert client.post(seat_url, {**RATINGS, **refused}).status_code == 400
    assert gm_client.post(gm_url, {**RATINGS, **refused}).status_code == 400
    assert not PlaytestReport.objects.exists() and not Impression.objects.exists()
    assert client.post(seat_url, RATINGS).status_code == 302
    assert PlaytestReport.objects.get().impressions.get().player == "Ana"


def test_a_player_may_leave_any_rating_out_on_the_phone(gm, gm_client, client):
    """The six ratings are optional on the seat's form, as on the public form: a player who
    only says what they would change is heard, and no rating is made up for them (the report
    and its PDF show a dash for a rating left out, not Python's "None")."""
    table = finished_table(gm, "contest/last_card_and_winner")
    url = reverse("playtests:seat_impression", args=[table.seats.get(name="Ana").token])
    form = client.get(url).content.decode()
    assert " required" not in form
    assert client.post(url, {"fun": "4", "change": "More pretzels"}).status_code == 302
    impression = Impression.objects.get()
    assert impression.ratings() == dict.fromkeys(dict(RATING_FIELDS), None) | {"fun": 4}
    assert impression.change == "More pretzels"
    page = gm_client.get(reverse("playtests:table_report", args=[table.pk])).content.decode()
    row = page.split('<table class="table pt-impressions">', 1)[1].split("</tbody>", 1)[0]
    assert "None" not in row and row.count(">—</td>") == 5, row
    pdf = gm_client.get(reverse("playtests:table_report_pdf", args=[table.pk]))
    text = all_text(b"".join(pdf) if pdf.streaming else pdf.content, " ")
    assert "None" not in text and "—" in text, text


def test_a_players_impressions_page_has_no_site_navigation(gm, gm_client, client):
    """Reached from the seat's page, in the table's language; the game master's own form
    for a player keeps the site's menu."""
    table = finished_table(gm, "contest/last_card_and_winner", language="pt-br")
    url = reverse("playtests:seat_impression", args=[table.seats.get(name="Ana").token])
    page = client.get(url).content.decode()
    assert "Suas impressões" in page and "site-nav" not in page
    assert reverse("login") not in page
    gm_form = gm_client.get(reverse("playtests:gm_impression", args=[table.pk, 1]))
    assert "site-nav" in gm_form.content.decode()


def test_the_report_shows_each_seats_impression_link_as_a_qr_code(
    gm, gm_client, other_client, client
):
    """Made here, as the join screen's codes are (no outside service sees a seat's secret
    link), for the table's owner only."""
    table = finished_table(gm, "contest/last_card_and_winner")
    page = gm_client.get(reverse("playtests:table_report", args=[table.pk])).content.decode()
    for seat in table.seats.all():
        qr = reverse("playtests:seat_impression_qr", args=[table.pk, seat.position])
        assert f'<img src="{qr}"' in page
        link = "http://testserver" + reverse("playtests:seat_impression", args=[seat.token])
        assert f'href="{link}"' in page
        response = gm_client.get(qr)
        assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
        assert b"<svg" in response.content and seat.token.encode() not in response.content
        assert other_client.get(qr).status_code == 404
        assert client.get(qr).status_code == 302  # to the login page
    missing = reverse("playtests:seat_impression_qr", args=[table.pk, 99])
    assert gm_client.get(missing).status_code == 404


def test_seat_link_waits_for_the_end_of_the_game(gm, client):
    table = new_tables.import_script(with_times(golden("amnesia/01_scenes_flashbacks_pass")), gm)
    url = reverse("playtests:seat_impression", args=[table.seats.first().token])
    response = client.post(url, RATINGS)
    assert response.status_code == 200 and "still going on" in response.content.decode()
    assert not Impression.objects.exists()
