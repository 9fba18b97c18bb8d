"""How many of each print-and-play part a game prints, per preset and player count, against
the seeds' boxes. Amnesia Stories' seed: 48 area cards, 25 number cards (5 sets of 1 to 5),
4 red cards, 4 score cards (one marked S) with a score cube each, for 3 or 4 players."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import components, registry
from games.amnesia_stories import components as stories_parts


def parts(game: str, **asked) -> dict[str, list]:
    kit = registry.kit(game)
    with translation.override("en"):
        printed = kit.components(components.print_request(kit, **asked))
    return {part.title: part.cards if hasattr(part, "cards") else part for part in printed.parts}


def faces(cards, partial: str) -> int:
    return sum(partial in str(card.face) for card in cards)


@pytest.mark.django_db
def test_amnesia_stories_prints_the_seeds_box_by_default() -> None:
    printed = parts("amnesia_stories")
    assert len(printed["Area cards"]) == 48
    small = printed["Number and red cards"]
    assert faces(small, "number-face") == 25  # 5 sets of 1 to 5: four players and the slots
    assert faces(small, "red-face") == 4
    score = printed["Score cards"]
    assert len(score) == 4 and faces(score, "start-face") == 1  # one marked S
    assert str(printed["Score markers"].html).count('class="score-marker"') == 4
    assert "Red cards" in str(printed["Score sheet"].html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "numbers", "reds"), [(3, 20, 4), (4, 25, 4), (5, 30, 5), (8, 45, 8)]
)
def test_amnesia_stories_prints_for_the_players_asked(players, numbers, reds) -> None:
    printed = parts("amnesia_stories", players=players)
    small = printed["Number and red cards"]
    assert faces(small, "number-face") == numbers and faces(small, "red-face") == reds
    assert len(printed["Score cards"]) == players
    assert faces(printed["Score cards"], "start-face") == 1
    assert str(printed["Score markers"].html).count('class="score-marker"') == players


@pytest.mark.django_db
@pytest.mark.parametrize(("preset", "choices"), [("draft3", 6), ("heroic_saga", 5)])
def test_a_preset_without_red_cards_prints_none(preset, choices) -> None:
    kit = registry.kit("amnesia_stories")
    assert preset in kit.presets
    assert kit.presets[preset]["options"].get("red_card_on_all_wrong") is False
    printed = parts("amnesia_stories", preset=preset)
    assert "Number and red cards" not in printed
    small = printed["Number cards"]
    assert faces(small, "number-face") == 5 * choices and faces(small, "red-face") == 0
    assert len(printed["Score cards"]) == 4
    sheet = str(printed["Score sheet"].html)
    assert "Red cards" not in sheet and "red card" not in sheet


def test_the_counts_follow_the_options() -> None:
    options = {"choices": 5, "red_card_on_all_wrong": True}
    assert stories_parts.counts(options, stories_parts.SEED_PLAYERS) == {
        "number_sets": 5,
        "number_cards": 25,
        "red_cards": 4,
        "score_cards": 4,
        "score_markers": 4,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "players"), [("amnesia", 3), ("contest", 5)])
def test_the_other_games_print_a_card_per_player(game, players) -> None:
    default = parts(game)
    asked = parts(game, players=players)
    for title, cards in asked.items():
        if title == "The opening":
            assert len(cards) == 1  # one for the table, whoever reads it aloud
        elif isinstance(cards, list):
            assert len(cards) == players, title
            assert len(default[title]) == registry.kit(game).referee.max_players


@pytest.mark.django_db
def test_a_table_prints_for_its_seats(make_table) -> None:
    table = make_table("amnesia_stories", ["Ana", "Bruno", "Caio"])
    kit = registry.kit("amnesia_stories")
    printed = kit.components(components.print_request(kit, table=table))
    by_title = {p.title: p for p in printed.parts}
    assert len(by_title["Score cards"].cards) == 3
    assert faces(by_title["Number and red cards"].cards, "number-face") == 20


def test_a_player_count_the_game_does_not_seat_is_refused() -> None:
    with pytest.raises(components.ComponentsError, match="seats 3 to 8"):
        components.print_request(registry.kit("amnesia_stories"), players=2)


@pytest.mark.django_db
@pytest.mark.parametrize(("accept", "word"), [("ja", "アムネジア"), ("pt-br", "Amnésia")])
def test_the_bare_components_link_follows_the_readers_language(
    monkeypatch, settings, tmp_path, accept, word
):
    """``/rules/<game>/components.pdf`` with no ``language=`` speaks the browser's language.
    (The PDF step is the same renderer the tests above and the command exercise; here it
    hands back the HTML it was given, to read the words: in a cache folder of its own, so
    that no PDF another test printed for the same sheets is read instead.)"""
    from django.test import Client

    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")

    monkeypatch.setattr(components, "html_to_pdf", lambda html, extra=None: html.encode())
    response = Client().get("/rules/amnesia/components.pdf", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 200
    assert f"-{accept}.pdf" in response["Content-Disposition"]
    assert word in response.content.decode()
    english = Client().get("/rules/amnesia/components.pdf", HTTP_ACCEPT_LANGUAGE="en")
    assert word not in english.content.decode()


@pytest.mark.django_db
def test_the_components_link_prints_for_the_players_it_names(monkeypatch):
    from django.test import Client

    monkeypatch.setattr(components, "html_to_pdf", lambda html, extra=None: html.encode())
    url = "/rules/amnesia_stories/components.pdf?language=en&players=3"
    assert "4 sets of 1 to 5" in Client().get(url).content.decode()
    for wrong in ("2", "9", "many", "-1"):
        response = Client().get(f"/rules/amnesia_stories/components.pdf?players={wrong}")
        assert response.status_code in (200, 404)  # never a 500
        if wrong in ("2", "9"):
            assert response.status_code == 404
