"""The rules pages against their seeds (issue 27, items 6 and 7): for the contest, the
heavy-eater rule as the referee plays it (max(6, eat_limit)), the winner's clean-up and the Pet Rule, the "this is not
a contest" advice, the designer's thanks and request for comments, and the rulings the app
applies where the text is silent."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.contest.rules import GAME
from tests.crawl_reading import visible


def page_text(client, url: str, language: str = "en") -> str:
    return " ".join(visible(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()))


@pytest.mark.django_db
def test_the_rules_page_says_what_the_seed_and_the_referee_say() -> None:
    text = page_text(Client(), reverse("games:rules", args=["contest"]))
    assert "twice that" not in text
    assert "may eat up to 6 instead of 3" in text
    assert "Pet Rule" in text and "goldfish" in text and "sets up the next game" in text
    assert "this is not a contest" in text
    assert "the player challenged leads the other team" in text
    assert "at most one extra point in a game" in text
    assert "does not judge a performance" in text
    assert "comments and suggestions by e-mail" in text


@pytest.mark.django_db
def test_a_table_whose_eat_limit_is_high_is_told_the_heavy_eater_rule_changes_nothing(
    gm_client, make_table
) -> None:
    table = make_table("contest", ["Ana", "Bo"], options={"eat_limit": 8})
    text = page_text(gm_client, reverse("games:table_rules", args=[table.pk]))
    assert "at most 8 in a game" in text and "limit of 8 is already as high" in text
    # the referee agrees: with the rule a character may eat max(6, 8) = 8, not 16
    assert GAME.options["eat_limit"].default == 3


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("pt-br", "Regra do Bicho"), ("ja", "ペット")])
def test_the_new_paragraphs_are_in_each_language(language, words) -> None:
    text = page_text(Client(), reverse("games:rules", args=["contest"]), language)
    assert words in text and "Pet Rule" not in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "token", "report"),
    [
        ("en", "first bet of the one who insisted", "how many took part, how long"),
        ("pt-br", "primeira aposta de quem insistiu", "quantas pessoas jogaram"),
        ("ja", "最初の賭け", "参加人数"),
    ],
)
def test_the_amnesia_rules_page_says_where_a_refused_token_goes_and_what_to_report(
    language, token, report
) -> None:
    """Issue 27, item 6: the refused suggestion's token is the insister's first bet, and the
    designer's request names players, length and impressions, published with permission."""
    text = page_text(Client(), reverse("games:rules", args=["amnesia"]), language)
    assert token in text and report in text


@pytest.mark.django_db
def test_the_amnesia_stories_rules_page_follows_its_seed() -> None:
    """Issue 27, item 5: the shuffle advice as the seed gives it, both ways of judging, the
    climax exception as a reading of the app's, Heroic Saga's origin; the seed's phase names."""
    url = reverse("games:rules", args=["amnesia_stories"])
    text = page_text(Client(), url)
    assert "glimpse spoils" not in text and "need no special care while you shuffle" in text
    assert "turns their number cards over together" in text and "one step at a time" in text
    assert "Heroic Saga is not in the seed" in text
    html = Client().get(url).content.decode()
    turn, rulings = html.split('<section id="rulings"', 1)
    assert "Draft 3’s climax exception" in rulings and "a reading, not the text" in rulings
    japanese = page_text(Client(), url, "ja")
    for phase in ("セットフェイズ", "設問フェイズ", "回答フェイズ", "判定フェイズ"):
        assert phase in japanese
