"""Impressions as a designer reads them on the dashboard: every written answer gathered,
filterable by player count and ruleset version, beside each rating's distribution, with the
players' names only where the table shared them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Table
from games.playtests.models import ExternalReport, Impression

from .conftest import builtin, many_reports

pytestmark = pytest.mark.django_db
DASHBOARD = reverse("playtests:dashboard", args=["amnesia_stories"])


def section(page: str) -> str:
    match = re.search(r'data-testid="impressions">(.*?)</section>', page, re.S)
    assert match, "no impressions section"
    return match.group(1)


def cells(part: str, rating: str) -> list[str]:
    row = re.search(rf'data-rating="{rating}">(.*?)</tr>', part, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]


def test_written_answers_and_rating_distributions_filtered_with_names_only_where_shared(
    gm, designer_client
):
    draft3 = builtin("amnesia_stories", "Amnesia Stories draft 3")
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    # Draft 3: shared with the names; draft 4: shared without them. Three players each.
    many_reports(gm, 2, [draft3], sharing=Table.ReportSharing.NAMES)
    many_reports(gm, 2, [draft4], sharing=Table.ReportSharing.LABELS)
    # A report typed in through the public form, four players, its writer named "Dora".
    ext = ExternalReport.objects.create(
        game="amnesia_stories",
        ruleset=draft4,
        played_on="2026-03-01",
        players=4,
        duration_minutes=50,
        approved=True,
        ip_hash="x" * 64,
    )
    Impression.objects.create(
        external=ext,
        player="Dora",
        fun=5,
        length=4,
        clarity=2,
        downtime=3,
        decisions=4,
        again=5,
        best_moment="the dragon at the bridge",
    )
    everything = section(designer_client.get(DASHBOARD).content.decode())
    assert "9 impressions." in everything
    # Fun: the tables' 1+(i+k)%5 over two tables of two answers each, twice, and Dora's 5.
    assert cells(everything, "fun")[:5] == ["2", "4", "2", "0", "1"]
    assert cells(everything, "fun")[5] == "9"
    assert everything.count("fewer steps") == 4 and "the dragon at the bridge" in everything
    assert "Dora" not in everything
    # Four players: Dora's answer alone.
    four = section(designer_client.get(DASHBOARD, {"players": 4}).content.decode())
    assert "1 impression." in four and "the dragon at the bridge" in four
    assert "fewer steps" not in four and cells(four, "fun")[:5] == ["0", "0", "0", "0", "1"]
    # Draft 3, shared with the names: the players' names beside their answers.
    named = section(designer_client.get(DASHBOARD, {"ruleset": draft3.pk}).content.decode())
    assert "4 impressions." in named and named.count("fewer steps") == 2
    assert "<strong>Ana</strong>" in named
    # Draft 4 at three players, shared without the names: their answers, no name.
    unnamed = section(
        designer_client.get(DASHBOARD, {"ruleset": draft4.pk, "players": 3}).content.decode()
    )
    assert "4 impressions." in unnamed and unnamed.count("fewer steps") == 2
    for name in ("Ana", "Bruno", "Caio", "Dora"):
        assert name not in unnamed
    # In Japanese: the section in the reader's words, no code name.
    from tests.codenames import code_names
    from tests.crawl_reading import visible

    ja = section(designer_client.get(DASHBOARD, HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "9件の感想。" in ja and "プレイヤーの声" in visible(ja)
    assert code_names(" ".join(visible(ja))) == []
    # A filter that is not a number is no filter.
    odd = section(designer_client.get(DASHBOARD, {"players": "x<"}).content.decode())
    assert "9 impressions." in odd
