"""Numbers and dates in the reader's locale: Brazilian Portuguese writes decimals with a comma
and months in lower case ("14 de março de 2026", "3,5") on the pages, the charts and the PDFs."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.playtests import charts, stats
from tests.crawl_reading import visible

from .conftest import builtin, finished_table, many_reports
from .test_pdf_and_charts import RATINGS, pdf_text

MONTHS_CAPITALISED = re.compile(
    r"\b(Janeiro|Fevereiro|Março|Abril|Maio|Junho|Julho|Agosto|Setembro|Outubro|Novembro|Dezembro)\b"
)
DECIMAL_POINT = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")


@pytest.fixture
def reported(gm, gm_client):
    table = finished_table(gm, "amnesia/11_finale_and_end_story", gaps={5: 1200})
    gm_client.post(reverse("playtests:gm_impression", args=[table.pk, 0]), RATINGS)
    return table


@pytest.mark.django_db
def test_the_report_page_writes_portuguese_dates_and_decimals(reported, gm_client) -> None:
    url = reverse("playtests:table_report", args=[reported.pk])
    text = " | ".join(visible(gm_client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()))
    assert "14 de março de 2026" in text
    assert not MONTHS_CAPITALISED.search(text)
    assert "5,0" in text  # the impressions' averages
    assert not DECIMAL_POINT.search(text), DECIMAL_POINT.findall(text)
    english = " | ".join(visible(gm_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()))
    assert "5.0" in english and "March 14, 2026" in english


@pytest.mark.django_db
def test_the_report_pdfs_write_portuguese_dates_and_decimals(
    reported, gm, gm_client, designer_client
) -> None:
    url = reverse("playtests:table_report_pdf", args=[reported.pk])
    text = pdf_text(gm_client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content)
    assert "14 de março de 2026" in text
    assert not MONTHS_CAPITALISED.search(text)
    assert not DECIMAL_POINT.search(text), DECIMAL_POINT.findall(text)
    draft3 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    many_reports(gm, 4, [draft3])
    url = reverse("playtests:ruleset_pdf", args=[draft3.pk])
    text = pdf_text(designer_client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content)
    assert re.search(r"\b\d+,\d\b", text)  # medians and averages: 31,5
    assert not DECIMAL_POINT.search(text), DECIMAL_POINT.findall(text)


def test_a_chart_labels_its_numbers_in_the_readers_decimals() -> None:
    with translation.override("pt-br"):
        svg = str(charts.bar_chart("Média", ["A", "B"], {"x": [3.5, 0.25]}))
        assert stats.fmt(35.0) == "35,0" and stats.fmt_delta(-1.5) == "−1,5"
    # The dashboard's B − A column with the minus its header and the lab's differences have
    # (it said "-1", "-6.8", "-67ポイント" under "B − A", beside the study's "−5.3ポイント").
    with translation.override("ja"):
        assert [stats.fmt_delta(-1), stats.fmt_delta(-6.8), stats.fmt_delta(2)] == [
            "−1",
            "−6.8",
            "+2",
        ]
        assert stats.fmt_delta(-0.67, "percent") == "−67ポイント"
    labels = " ".join(re.findall(r">([^<>]*)<", svg))
    assert "3,5" in labels and "0,2" in labels
    assert not DECIMAL_POINT.search(labels), labels
    # the drawing's coordinates stay SVG numbers
    assert re.search(r'(?:x|y|width|height)="\d+\.\d"', svg)
    with translation.override("en"):
        assert "3.5" in str(charts.bar_chart("Mean", ["A"], {"x": [3.5]}))
