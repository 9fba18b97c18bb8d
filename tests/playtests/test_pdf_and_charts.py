"""The report PDFs (read back with pypdf) and the SVG charts they share with the pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.playtests import charts
from tests import pdfs

from .conftest import builtin, finished_table, many_reports

RATINGS = {"fun": 5, "length": 4, "clarity": 3, "downtime": 4, "decisions": 5, "again": 5}


def pdf_text(data: bytes) -> str:
    return re.sub(r"\s+", " ", pdfs.all_text(data, " "))


@pytest.mark.django_db
def test_table_report_pdf_has_its_charts(gm, gm_client):
    table = finished_table(gm, "amnesia/11_finale_and_end_story", gaps={5: 1200})
    gm_client.post(reverse("playtests:gm_impression", args=[table.pk, 0]), RATINGS)
    response = gm_client.get(reverse("playtests:table_report_pdf", args=[table.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    assert "Playtest report" in text
    assert "Tokens of each player over time" in text
    assert "Impressions" in text and "Ana" in text


@pytest.mark.django_db
def test_ruleset_version_pdf(gm, designer_client, gm_client):
    draft3 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    many_reports(gm, 4, [draft3])
    url = reverse("playtests:ruleset_pdf", args=[draft3.pk])
    assert gm_client.get(url).status_code == 403
    response = designer_client.get(url)
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Playtests of Amnesia Stories draft 3" in text
    assert "Duration by player count" in text and "Wins by seat" in text
    assert "Impressions (average of 8 answers)" in text


def test_chart_labels_are_escaped():
    svg = str(
        charts.line_chart(
            "<script>alert(1)</script>",
            {'Ana"><img src=x onerror=alert(1)>': [1, 2, 3], "Bo & Co": [3, 2, 1]},
        )
    )
    assert "<script>" not in svg and "<img" not in svg
    assert "&lt;script&gt;" in svg and "Bo &amp; Co" in svg
    bars = str(charts.bar_chart("T", ["<b>x</b>"], {"<i>s</i>": [1]}))
    assert "<b>" not in bars and "<i>" not in bars
    hbars = str(charts.hbar_chart("T", ["<b>x</b>"], {"a": [1], "b": [None]}, x_max=5))
    assert "<b>" not in hbars


def test_charts_without_data_say_so():
    assert "No data yet" in str(charts.line_chart("T", {}))
    assert "No data yet" in str(charts.bar_chart("T", [], {}))


def test_nice_ticks():
    assert charts.nice_ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    assert charts.nice_ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1]
    assert charts.nice_ticks(-3, 7)[0] <= -3 and charts.nice_ticks(-3, 7)[-1] >= 7
