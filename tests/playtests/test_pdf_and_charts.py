"""The report PDFs (read back with pypdf) and the SVG charts they share with the pages."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.urls import reverse
from django.utils import translation

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
def test_a_rating_left_blank_reads_as_a_dash_not_none(gm, gm_client):
    # A player may rate only the fun (every rating is optional): the others are blank cells'
    # dash on the report's page and in its PDF, never Python's "None".
    table = finished_table(gm, "amnesia/11_finale_and_end_story")
    gm_client.post(reverse("playtests:gm_impression", args=[table.pk, 0]), {"fun": 5})
    page = gm_client.get(reverse("playtests:table_report", args=[table.pk])).content.decode()
    row = re.search(r"<th scope=\"row\">Ana</th>(.*?)</tr>", page, re.S).group(1)
    assert [
        re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td class=\"num\">(.*?)</td>", row)
    ] == [
        "5",
        *["—"] * 5,
    ]
    text = pdf_text(gm_client.get(reverse("playtests:table_report_pdf", args=[table.pk])).content)
    assert "None" not in text and "Ana 5 — — — — —" in text, text


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


SVG = "{http://www.w3.org/2000/svg}"
# An ASCII hyphen before a digit: a negative number printed as Python prints it ("-10"), not
# with the reader's minus ("−10") the values' own labels use.
HYPHEN_MINUS = re.compile(r"-\d")


def _svg(drawn) -> ElementTree.Element:
    return ElementTree.fromstring(str(drawn))


def _texts(svg: ElementTree.Element) -> list[str]:
    return [t for t in svg.itertext() if t.strip()]


# The reader's decimals: "12,5" in Portuguese, "12.5" in English and Japanese.
DECIMALS = {"en": "12.5", "pt-br": "12,5", "ja": "12.5"}


@pytest.mark.parametrize("language", ["en", "pt-br", "ja"])
def test_a_negative_bar_goes_down_from_zero(language):
    """A bot's edge at one player count is a bar a ruleset, negative where the bot loses: the
    axis went from 0 up and the bar was clipped to nothing at 0, its label on the baseline.
    It goes down from a zero line, its value under its whisker, the ticks below 0 signed."""
    edge = "−" + DECIMALS[language]
    with translation.override(language):
        svg = _svg(
            charts.bar_chart(
                "Edge",
                ["3"],
                {"draft 3": [-12.5], "draft 4": [4.2]},
                ranges={"draft 3": [(-20.3, -4.7)], "draft 4": [(-2.5, 10.9)]},
                y_label="points",
                signed=True,
            )
        )
    (zero,) = [
        float(line.get("y1"))
        for line in svg.iter(f"{SVG}line")
        if line.get("stroke-opacity") == "0.6"
    ]
    down, up = [r for r in svg.iter(f"{SVG}rect") if r.get("class") == "chart__bar"]
    assert edge in down.findtext(f"{SVG}title")
    top, height = float(down.get("y")), float(down.get("height"))
    assert top == pytest.approx(zero, abs=0.1) and height > 30
    assert float(up.get("y")) + float(up.get("height")) == pytest.approx(zero, abs=0.1)
    assert float(up.get("height")) > 10
    # The whisker of the negative bar reaches below its end, its value's label under both.
    whisker = next(svg.iter(f"{SVG}path")).get("d")
    lowest = max(float(y) for y in re.findall(r"[MV][\d.]+,?([\d.]+)", whisker))
    assert lowest > top + height
    (label,) = [t for t in svg.iter(f"{SVG}text") if t.text == edge]
    assert float(label.get("y")) - 10 > lowest
    ticks = [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    assert "−10" in ticks and "−20" in ticks and "0" in ticks, ticks
    assert not [t for t in _texts(svg) if HYPHEN_MINUS.search(t)], _texts(svg)


@pytest.mark.parametrize(
    ("language", "half", "tenth"),
    [("en", "−1.5", "−12.5"), ("pt-br", "−1,5", "−12,5"), ("ja", "−1.5", "−12.5")],
)
def test_negative_ticks_say_the_readers_minus(language, half, tenth):
    """The values' labels said "−2,5" and the axes beside them "-10": every chart's ticks
    say the reader's minus too, in the reader's decimals."""
    with translation.override(language):
        lines = _svg(charts.line_chart("T", {"a": [-1.25, 1.25], "b": [0.5, None]}, x=[-4, 4]))
        bars = _svg(charts.bar_chart("T", ["a", "b"], {"x": [-12.5, 3]}))
        shares = _svg(charts.bar_chart("T", ["a", "b"], {"x": [-0.05, 0.5]}, percent=True))
    assert half in _texts(lines) and "−4" in _texts(lines), _texts(lines)
    assert tenth in _texts(bars) and "−15" in _texts(bars), _texts(bars)
    assert "−5%" in _texts(shares) and "−20%" in _texts(shares), _texts(shares)
    for svg in (lines, bars, shares):
        assert not [t for t in _texts(svg) if HYPHEN_MINUS.search(t)], _texts(svg)


def _y_ticks(svg: ElementTree.Element) -> list[str]:
    return [t.text for t in svg.iter(f"{SVG}text") if t.get("text-anchor") == "end"]


@pytest.mark.parametrize(
    ("language", "ticks"),
    [
        ("en", ["−1", "−0.5", "0", "+0.5", "+1", "+1.5"]),
        ("pt-br", ["−1", "−0,5", "0", "+0,5", "+1", "+1,5"]),
        ("ja", ["−1", "−0.5", "0", "+0.5", "+1", "+1.5"]),
    ],
)
def test_a_signed_line_charts_ticks_are_signed(language, ticks):
    """A bot's edge over the player counts (signed points): its values were said "+1,5" and
    "−0,5" and its axis "1,5" beside them, where a signed bar chart's axis says "+10". Its
    ticks are signed too, 0 unsigned; an unsigned chart's are not."""
    with translation.override(language):
        signed = _svg(charts.line_chart("T", {"a": [-1, 1.5]}, x=[3, 4], signed=True))
        edge = _svg(charts.line_chart("T", {"a": [-5.0, 10.0]}, x=[3, 4], signed=True))
        plain = _svg(charts.line_chart("T", {"a": [-1, 1.5]}, x=[3, 4]))
    assert _y_ticks(signed) == ticks
    assert _y_ticks(edge) == ["−5", "0", "+5", "+10"]
    assert _y_ticks(plain) == [t.lstrip("+") for t in ticks]
    assert "+1" not in " ".join(_texts(plain))
    for svg in (signed, edge, plain):
        assert not [t for t in _texts(svg) if HYPHEN_MINUS.search(t)], _texts(svg)


def _lines_at_0_6(svg: ElementTree.Element) -> list[ElementTree.Element]:
    return [line for line in svg.iter(f"{SVG}line") if line.get("stroke-opacity") == "0.6"]


@pytest.mark.parametrize("language", ["en", "pt-br", "ja"])
@pytest.mark.parametrize(
    ("series", "bands"),
    [
        ({"draft 3": [-12.5, 4.0, 20.0]}, None),  # losing at 3 players, winning at 5
        ({"draft 3": [-22.5, -14.0, -30.0]}, None),  # losing at every count: 0 is the top
        ({"draft 3": [2.5, 4.0, 6.0]}, ([-3.5, 1.0, 2.0], [8.5, 7.0, 10.0])),  # a band below 0
    ],
)
def test_a_line_chart_below_zero_draws_where_even_is(language, series, bands):
    """A line chart's values below 0 had only the grid's faint line at 0, as at every other
    tick: a zero line is drawn across the plot, where its "0" tick is, under the lines (and
    an all-negative chart's axis reaches 0, as a bar chart's does). A chart at or above 0
    has none: its bottom is 0."""
    with translation.override(language):
        svg = _svg(
            charts.line_chart(
                "Edge",
                series,
                x=[3, 4, 5],
                bands={"draft 3": bands} if bands else None,
                signed=True,
            )
        )
        positive = _svg(charts.line_chart("Edge", {"draft 3": [2.5, 4.0, 6.0]}, x=[3, 4, 5]))
    (zero_tick,) = [t for t in svg.iter(f"{SVG}text") if t.text == "0"]
    bottom, zero = _lines_at_0_6(svg)
    assert float(zero.get("y1")) == float(zero.get("y2"))
    assert float(zero.get("y1")) == pytest.approx(float(zero_tick.get("y")) - 4, abs=0.15)
    assert float(zero.get("y1")) < float(bottom.get("y1")) - 30
    assert (zero.get("x1"), zero.get("x2")) == (bottom.get("x1"), bottom.get("x2"))
    drawn = list(svg.iter())
    assert drawn.index(zero) < drawn.index(next(svg.iter(f"{SVG}polyline")))
    assert not [t for t in _texts(svg) if HYPHEN_MINUS.search(t)], _texts(svg)
    (bottom,) = _lines_at_0_6(positive)
    (zero_tick,) = [t for t in positive.iter(f"{SVG}text") if t.text == "0"]
    assert float(bottom.get("y1")) == pytest.approx(float(zero_tick.get("y")) - 4, abs=0.15)
