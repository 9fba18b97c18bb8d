"""The rules pages and print-and-play beside their seeds (issue 47): the contest's optional
rules each described, its face-card contradiction settled under what the text leaves open, its
side roles and lost-card counters, the author's address as his text gives it, and a reference
card that says the narrator's minute and the heavy eater's six; Amnesia Stories judging told
once, the app's advice marked as the app's, the seed's cut of the deck, a box's four red
cards at three players and a score track below zero; Amnesia's refused token under the rulings
and its opening situation printed as a card. Each in English, Portuguese and Japanese."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import components, registry

pytestmark = pytest.mark.django_db
LANGUAGES = ("en", "pt-br", "ja")


def _html(game: str, language: str) -> str:
    url = reverse("games:rules", args=[game])
    return Client().get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _section(html: str, name: str) -> str:
    return _text(html.split(f'<section id="{name}"', 1)[1].split("</section>", 1)[0])


def _printed(game: str, language: str, **asked) -> dict:
    kit = registry.kit(game)
    request = components.print_request(kit, language=language, **asked)
    with translation.override(language):
        printed = kit.components(request)
    return {part.title: part for part in printed.parts}


def _card_text(part) -> str:
    return _text(" ".join(str(c.face) + " " + str(c.back) for c in part.cards))


CONTEST_OPTIONAL = {
    "en": (
        "A tie, or a table where everyone threw pretzels, changes nothing",
        "a separate pile",
        "only the other joker stops it",
        "Only the first card you play earns it",
        "three penalties at once",
    ),
    "pt-br": (
        "Um empate",
        "pilha separada",
        "só o outro coringa",
        "Só a primeira carta",
        "três penalidades de uma vez",
    ),
    "ja": (
        "同数",
        "別の山",
        "もう1枚のジョーカー",
        "最初に出したカードだけ",
        "ペナルティを一度に3回",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contest_rules_page_describes_each_optional_rule(language):
    html = _html("contest", language)
    ending = _section(html, "ending")
    for words in CONTEST_OPTIONAL[language]:
        assert words in ending, words
    assert html.count("<dt>", html.index("optional-rules")) >= 11
    rulings = _section(html, "rulings")
    assert {"en": "Face cards in a contest", "pt-br": "Figuras numa disputa", "ja": "勝負での絵札"}[
        language
    ] in rulings
    advice = _section(html, "advice")
    assert {"en": "jail guard", "pt-br": "carcereiro", "ja": "看守"}[language] in advice
    components_ = _section(html, "components")
    assert {"en": "never pretzels", "pt-br": "nunca pretzels", "ja": "プレッツェルは使わない"}[
        language
    ] in components_
    credits = html.split('<section id="credits"', 1)[1]
    assert 'href="mailto:phillipfallon@yahoo.com"' in credits


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contest_reference_card_says_the_minute_and_the_heavy_eaters_six(language):
    (reference,) = [
        part
        for part in _printed("contest", language).values()
        if getattr(part, "cards", None) and 'class="cs ref"' in str(part.cards[0].face)
    ]
    card = _card_text(reference)
    assert {"en": "at least 60 seconds", "pt-br": "pelo menos 60 segundos", "ja": "60秒"}[
        language
    ] in card
    assert {"en": "up to 6", "pt-br": "até 6", "ja": "6個まで"}[language] in card


@pytest.mark.parametrize("language", LANGUAGES)
def test_amnesia_stories_judging_is_told_once_and_the_apps_advice_is_marked(language):
    html = _html("amnesia_stories", language)
    turn = _section(html, "turn")
    # The reveal and the scoring are one step of the turn, not a second one after "Judge".
    told_twice = {"en": "Reveal and score", "pt-br": "Revelar e pontuar", "ja": "公開と判定は"}
    assert told_twice[language] not in turn
    if language == "en":
        assert turn.count("Judge") == 1
    advice = html.split('<section id="advice"', 1)[1].split("</section>", 1)[0]
    seed, app = advice.split("</ul>", 1)
    timer = {"en": "show a timer", "pt-br": "cronômetro", "ja": "タイマー"}[language]
    assert timer not in _text(seed) and timer in _text(app)
    assert {
        "en": "from the app, not from the text",
        "pt-br": "do app, não do texto",
        "ja": "原典ではなくアプリ",
    }[language] in _text(app)
    assert {"en": "a cut of the deck", "pt-br": "cortando o baralho", "ja": "カット"}[
        language
    ] in _section(html, "setup")


def test_amnesia_stories_prints_the_boxs_four_red_cards_and_a_track_below_zero():
    """(The printed sheets' red cards at three players: tests/games/test_component_counts.py.)"""
    from games.amnesia_stories import components as parts

    options = {"choices": 5, "red_card_on_all_wrong": True}
    assert parts.counts(options, 3)["red_cards"] == 4
    assert parts.counts(options, 6)["red_cards"] == 6
    score = str(parts._part("score_face", start=False, track=parts.SCORE_TRACK))
    assert '<li class="below-zero">-1</li>' in score and "<li>0</li>" in score


@pytest.mark.parametrize("language", LANGUAGES)
def test_amnesia_rules_the_refused_token_and_prints_the_opening(language):
    html = _html("amnesia", language)
    token = {
        "en": "first bet of the one who insisted",
        "pt-br": "primeira aposta de quem insistiu",
        "ja": "最初の賭け",
    }[language]
    assert token in _section(html, "rulings")
    assert token not in _section(html, "turn")
    opening = list(_printed("amnesia", language).values())[0]
    text = _card_text(opening)
    assert len(opening.cards) == 1
    assert {"en": "Police!", "pt-br": "Polícia!", "ja": "警察だ"}[language] in text
