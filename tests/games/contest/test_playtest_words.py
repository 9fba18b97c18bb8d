"""The contest's playtest figures name attributes in the reader's language: the dashboard's
rows ("Contests on brains") and the report's chart, made in whatever language the module was
imported in, are said in the language of the page that shows them."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.contest import playtest

FIGURES = {
    "contests": 4,
    "challenger_wins": 3,
    "defender_wins": 1,
    "refusals": 1,
    "forfeits": 0,
    "drinks_total": 5,
    "pretzels_thrown": 2,
    "dropouts": [],
    "by_attribute": {"brains": 1, "muscle": 2, "moves": 1, "coolness": 0},
    "drinks": {"Ana": 3, "Bo": 2},
    "pretzels_at": {"Ana": 1, "Bo": 1},
}


@pytest.mark.parametrize(
    ("language", "row_label", "bar"),
    [("pt-br", "Disputas de cérebro", "cérebro"), ("ja", "頭脳での勝負", "頭脳")],
)
def test_attribute_names_are_said_in_the_readers_language(language, row_label, bar):
    with translation.override(language):
        rows = {r["key"]: str(r["label"]) for r in playtest.balance([], [FIGURES])}
        chart = playtest.charts({"figures": FIGURES})[0]["svg"]
    assert rows["attr_brains"] == row_label
    assert "Contests on" not in " ".join(rows.values())
    assert bar in chart
    assert ">brains<" not in chart and ">muscle<" not in chart
