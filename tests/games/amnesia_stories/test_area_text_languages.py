"""The 48 adventure texts in their three languages: the Portuguese keeps the hero's gender
unsaid, as the English ("they") and the Japanese do, and the Japanese texts flagged in review
(A01, A06, A17, A32) were rewritten to read naturally."""

from __future__ import annotations

import re

import pytest

from games.amnesia_stories.area_texts import AREA_IDS, SCENES, area_scene, area_texts

# What made the hero male in the Portuguese: participles and adjectives agreeing with the
# subject, and pronouns standing for them. Each is a whole word, checked in every text.
MASCULINE_HERO = [
    r"(?<!corpo )\bamarrado\b",  # "com o corpo amarrado" agrees with the body
    r"\bdesarmado\b",
    r"\bdescalço\b",
    r"\bfoi salvo\b",
    r"\bficou preso\b",
    r"\bfoi sagrado\b",
    r"\ba ele\b",
    r"\bo levaria\b",
    r"\bsozinho\b",
    r"\bcansado\b",
    r"\bperdido\b",
    r"\bferido\b",
]


def test_the_flagged_card_ids_are_the_cards_the_code_says() -> None:
    # A01 is card 0 (scene 0, variant 0); card i shows scene i % 16 in variant i // 16.
    assert [area_scene(card) for card in ("A01", "A06", "A17", "A32")] == [
        ("mountains", 0, "dawn"),
        ("cave", 0, "day"),
        ("mountains", 1, "day"),
        ("tower", 1, "dawn"),
    ]
    assert len(AREA_IDS) == 48 == 3 * len(SCENES)


@pytest.mark.parametrize("card", AREA_IDS)
def test_the_portuguese_never_makes_the_hero_male(card: str) -> None:
    text = area_texts(card)["pt"]
    for pattern in MASCULINE_HERO:
        assert not re.search(pattern, text), f"{card}: {text!r} ({pattern})"


def test_the_rewritten_japanese_texts() -> None:
    texts = {card: area_texts(card)["ja"] for card in ("A01", "A06", "A17", "A32")}
    # The old wordings: a child's word for "jagged", a rain the English never mentions, a
    # "home town" it never names, and a tower called lonely as a person would be.
    for old in ("ぎざぎざ", "雨宿り", "故郷", "ひとりぼっち"):
        assert not any(old in text for text in texts.values()), old
    assert "峠" in texts["A01"] and "地図" in texts["A01"]
    assert "洞窟" in texts["A06"] and "自分の顔" in texts["A06"]
    assert "山頂" in texts["A17"] and "逃げ出してきた" in texts["A17"]
    assert "塔の鐘" in texts["A32"] and "町" in texts["A32"]
    for text in texts.values():
        assert text.endswith("。") and "、" in text


@pytest.mark.parametrize("card", AREA_IDS)
def test_every_card_has_its_three_texts(card: str) -> None:
    texts = area_texts(card)
    assert set(texts) == {"en", "pt", "ja"} and all(texts.values())
