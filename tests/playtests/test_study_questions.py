"""Studies that ask issue 49's questions (``games.playtests.study_skill``): one seat forbidden a
choice (restricted play: the choice's value, an inert rule, a dominant line as a rule hole
with its game to replay) and how much a ruleset rewards skill (a search bot among sensible
bots, a sensible one among random bots), played by the lab's own chunks and said in sentences.

The game of pure chance (``tests/simulate/chance.py``) knows the answers: fair, calling high
changes nothing (forbidding it is inert; no skill); loaded, calling high is a dominant line.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Ruleset
from games.playtests import (
    lab_bounds,
    lab_chunks,
    lab_words,
    questions,
    replay,
    study_answer,
    study_reading,
    study_skill,
    study_start,
)
from games.playtests.models import SimulationRun
from tests.codenames import code_names
from tests.playtests.conftest import page_in
from tests.simulate.conftest import chance_game  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 20
    settings.LAB_YIELD_SECONDS = 0


@pytest.fixture
def chance(chance_game, monkeypatch):  # noqa: F811 (the fixture imported above)
    """The chance game with its one choice a study may forbid, and a fair and a loaded
    ruleset."""
    monkeypatch.setitem(
        lab_words.RESTRICTABLE,
        "chance",
        (("high", "never calls high", "The player always calls low."),),
    )
    return chance_game


def rulesets(designer, *loaded: bool) -> list[Ruleset]:
    return [
        Ruleset.objects.create(
            game="chance",
            name=f"Chance {'loaded' if each else 'fair'}",
            version=1,
            options={"rounds": 3, "loaded": each},
            owner=designer,
        )
        for each in loaded
    ]


def numbers_in(text: str) -> list[str]:
    """The percentages of a sentence, whatever its language writes for a decimal point."""
    return [n.replace(",", ".") for n in re.findall(r"(\d+(?:[.,]\d+)?) ?%", text)]


def played(top: SimulationRun) -> study_reading.View:
    lab_chunks.run_everything(top)
    top.refresh_from_db()
    assert top.status == "done", top.status
    return study_reading.view_of(top)


def skill_study(designer, game: str, versions, players: int, games: int):
    """A study of skill (the search bot against sensible, sensible against random), with the
    search bot at a small budget."""
    return study_start.start(
        designer,
        game,
        versions,
        players=[players],
        games=games,
        bots=["sensible"],
        question=study_start.SKILL,
        params={"budget": 2},
    )


def test_a_dominant_line_is_a_rule_hole_and_an_inert_choice_is_said(chance, designer, client):
    """Loaded, the seat that may not call high hardly ever wins: a dominant line, corrected for
    false discoveries, whose game replays the same game (the cell plays the restricted seat
    again). Fair, forbidding it costs nothing: an inert rule."""
    top = study_start.start(
        designer,
        "chance",
        rulesets(designer, True, False),
        players=[2],
        games=60,
        bots=["sensible"],
        restriction="high",
    )
    cells = list(top.children.order_by("pk"))
    assert [c.bots for c in cells] == [["restricted", "sensible"]] * 2
    assert top.sweep["restriction"] == {"bot": "sensible", "verb": "high"}
    view = played(top)
    records = lab_chunks.records_of(cells[0])
    with translation.override("en"):
        said = study_answer.answer(view)
        holes = study_skill.rule_holes(view)
    loaded, fair = said[0], said[1]
    assert "Chance loaded, version 1, at 2 players: a seat that never calls high wins" in loaded
    assert "A dominant line" in loaded and "rule hole" in loaded, loaded
    assert "an inert rule" in fair, fair
    assert len(holes) == 1 and holes[0]["run"] == cells[0].pk
    assert holes[0]["p_adjusted"] < 0.05
    game = records[holes[0]["number"] - 1]
    assert game["winner_bots"] == ["sensible"]
    # The game replays as it was played: the restricted seat again calls only low.
    again = replay.open_game(cells[0], holes[0]["number"] - 1)
    assert not again.differs and again.record["winner_bots"] == ["sensible"]
    restricted_seat = next(s for s, b in again.record["seat_bots"].items() if b == "restricted")
    calls = {m["do"] for m in again.moves if m.get("by") == restricted_seat}
    assert calls == {"low"}, calls
    client.force_login(designer)
    page = client.get(reverse("playtests:study", args=[top.pk])).content.decode()
    listed = page.split('data-testid="study-holes"', 1)[1].split("</ul>", 1)[0]
    assert reverse("playtests:run_game", args=[cells[0].pk, holes[0]["number"]]) in listed


def test_a_study_of_skill_finds_none_in_a_game_of_chance(chance, designer):
    fair = rulesets(designer, False)
    wrong: tuple[dict[str, Any], ...] = (
        {"question": study_start.SKILL, "restriction": "high"},  # one question or the other
        {"restriction": "low"},  # not among the game's restrictable choices
        {"question": "luck"},
        {
            "question": study_start.SKILL,
            "grid": [{"kind": "param", "name": "budget", "values": [1, 2]}],
        },
    )
    for asked in wrong:
        with pytest.raises(lab_bounds.LabError):
            study_start.start(
                designer, "chance", fair, players=[2], games=4, bots=["sensible"], **asked
            )
    top = skill_study(designer, "chance", fair, players=2, games=40)
    assert sorted(c.bots for c in top.children.all()) == [
        ["search", "sensible"],
        ["sensible", "random"],
    ]
    view = played(top)
    with translation.override("en"):
        said = study_answer.answer(view)
    assert len(said) == 2, said
    assert said[0].startswith("Chance fair, version 1, at 2 players: one search bot among")
    assert "sensible bot among random bots" in said[1]
    assert all("No sign that playing well pays" in s for s in said), said
    assert all(re.search(r"\(\d+% to \d+%\)", s) for s in said), said
    # The same study read in another language has the same figures and intervals: the
    # bootstrap is seeded by the cell, not by the words that name it.
    view = study_reading.view_of(top)
    for language in ("pt-br", "ja"):
        with translation.override(language):
            again = study_answer.answer(view)
        assert [numbers_in(s) for s in again] == [numbers_in(s) for s in said], (language, again)


def test_in_a_game_nobody_wins_the_edge_is_said_in_points_of_what_a_seat_plays_for(designer):
    """Amnesia, where nobody wins: the strong seat's edge is a difference from the table's
    mean, said signed, in points, with its interval, and what a seat plays for is named (it
    was said as a bare share, "ends with 11% against the table's mean of what a seat plays
    for", which reads as a level and names nothing), in each language."""
    base = Ruleset.objects.filter(game="amnesia").order_by("pk").first()
    assert base is not None
    top = skill_study(designer, "amnesia", [base], players=3, games=6)
    view = played(top)
    expected = {
        "en": ("a seat plays for its share of the tokens the players hold", " points from"),
        "pt-br": ("sua fração das fichas que os jogadores têm", " pontos percentuais em"),
        "ja": ("プレイヤーが持つトークンのうちの自分の取り分", "ポイントで終わります"),
    }
    for language, (measure, unit) in expected.items():
        with translation.override(language):
            said = study_answer.answer(view)
        assert len(said) == 2, said
        for sentence in said:
            assert measure in sentence and unit in sentence, (language, sentence)
            assert re.search(r"[+−]\d", sentence), sentence  # signed: a difference
            assert "%" not in sentence, sentence  # not a level


def test_the_form_offers_the_choices_and_the_page_says_them_in_japanese(client, designer):
    """The contest's form lists its restrictable choices and the question of skill in
    Japanese without a code name; a restricted study of it starts from the form, plays,
    and its page answers in Japanese sentences, no code name on the way."""
    client.force_login(designer)
    url = reverse("playtests:study_new", args=["contest"])
    with translation.override("ja"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    main = page.split("<main", 1)[1].split("</main>")[0]
    text = re.sub(r"<[^>]+>", " ", main.split(">", 1)[1])
    assert not code_names(text), code_names(text)
    assert 'value="take_control:with=drinks"' in page and 'value="skill"' in page
    base = Ruleset.objects.filter(game="contest").order_by("pk").first()
    assert base is not None
    response = client.post(
        url,
        {
            "question": "compare",
            "baseline": base.pk,
            "players_from": 3,
            "players_to": 3,
            "games": 20,
            "bots": ["sensible"],
            "restriction": "throw_pretzel",
            "seed": 1,
        },
    )
    top = SimulationRun.objects.get(parent__isnull=True)
    assert response.url == reverse("playtests:study", args=[top.pk])
    played(top)
    with translation.override("ja"):
        page = client.get(response.url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    answer = page.split('data-testid="study-answer"', 1)[1].split("</div>", 1)[0]
    assert "プレッツェル" in answer, answer
    # Japanese sentences follow one another with no space after 。, and lists take 、.
    assert "。 " not in answer, answer
    with translation.override("ja"):
        assert lab_words.bots_words(["search", "sensible"]) == "探索、堅実"
    # In Portuguese a figure's value is not joined by a verb that must agree with its name
    # ("Vitórias do lugar 1 é 35%" did not).
    with translation.override("pt-br"):
        said = study_answer.answer(study_reading.view_of(top))
    assert any("Vitórias do lugar 1 — " in s for s in said), said
    verb = re.compile(r"(Vitórias do lugar \d|Duração em jogadas) é ")
    assert not any(verb.search(s) for s in said), said
    main = page.split("<main", 1)[1].split("</main>")[0]
    text = re.sub(r"<[^>]+>", " ", main.split(">", 1)[1])
    assert not code_names(text), code_names(text)


def _text(page: str, testid: str) -> str:
    """The words of the element marked ``testid`` (its tags dropped)."""
    part = page.split(f'data-testid="{testid}"', 1)[1].split(">", 1)[1]
    return re.sub(r"<[^>]+>", "", part.split("</li>", 1)[0].split("</strong>", 1)[0])


def test_a_studys_status_agrees_with_a_study_in_portuguese(chance, designer, client):
    """In Portuguese a run is a "simulação" and a study an "estudo": a finished study said
    "Concluída" (the run's word) on its page and in the lab's list; it is "Concluído", a run
    still "Concluída"; English and Japanese as they were."""
    study = study_start.start(
        designer,
        "chance",
        rulesets(designer, False),
        players=[2],
        games=4,
        bots=["sensible"],
        restriction="high",
    )
    played(study)
    client.force_login(designer)
    expected = {"pt-br": "Concluído", "en": "Done", "ja": "完了"}
    for language, done in expected.items():
        page = page_in(client, reverse("playtests:study", args=[study.pk]), language)
        lab = page_in(client, reverse("playtests:lab", args=["chance"]), language)
        assert _text(page, "study-status") == done, (language, _text(page, "study-status"))
        row = lab.split(f'href="{reverse("playtests:run_detail", args=[study.pk])}"', 1)[1]
        assert f"<td>{done}</td>" in row.split("</tr>", 1)[0], (language, row[:400])
    # A run is still a "simulação", its status feminine.
    with translation.override("pt-br"):
        assert SimulationRun(status="done", sweep={}).shown_status == "Concluída"
        assert SimulationRun(status="cancelled", sweep={"kind": "study"}).shown_status == (
            "Cancelado"
        )


def test_a_skill_studys_header_says_what_its_cells_play(chance, designer, client):
    """A study of skill plays a different table in each cell; its header's bots said only the
    first cell's ("search, sensible"); it says what the cells play, in words, in each
    language; a restricted study says its one seat forbidden a choice among its bots."""
    fair = rulesets(designer, False)
    study = skill_study(designer, "chance", fair, players=2, games=4)
    played(study)
    client.force_login(designer)
    expected = {
        "en": "Bots: one search bot among sensible bots, one sensible bot among random bots",
        "pt-br": "Bots: um bot “busca” entre bots “sensato”, um bot “sensato” entre bots "
        "“aleatório”",
        "ja": "ボット：堅実ボットの中の探索ボット1体、ランダムボットの中の堅実ボット1体",
    }
    for language, said in expected.items():
        page = page_in(client, reverse("playtests:study", args=[study.pk]), language)
        bots = _text(page, "study-bots").split(" · ", 1)[0].strip()
        assert bots == said, (language, bots)
    restricted = study_start.start(
        designer,
        "chance",
        rulesets(designer, True),
        players=[2],
        games=4,
        bots=["sensible", "random"],
        restriction="high",
    )
    with translation.override("en"):
        page = client.get(reverse("playtests:study", args=[restricted.pk])).content.decode()
    bots = _text(page, "study-bots").split(" · ", 1)[0].strip()
    assert bots == (
        "Bots: one sensible bot that never calls high, among sensible bots free to choose"
    ), bots


def test_what_a_restricted_choice_is_worth_is_said_with_its_interval(designer):
    """A restricted seat's win share had its interval but the size after it had none ("Um
    lugar se sai 14,2 pontos percentuais melhor sem ela"): the size takes the interval of the
    edge it is (the cell's bootstrap, seeded by its numbers), the same in every language. The
    contest's seat that never refuses does better: 65% (50% to 80%) of the wins where its
    fair share is 33%, so 31.7 points better (16.7 points to 46.7 points)."""
    base = Ruleset.objects.filter(game="contest").order_by("pk").first()
    assert base is not None
    top = study_start.start(
        designer, "contest", [base], players=[3], games=40, bots=["sensible"], restriction="refuse"
    )
    played(top)
    expected = {
        "en": r"A seat does ([\d.]+) points better without it \(([\d.]+) points to ([\d.]+) points\)\.",
        "pt-br": r"Um lugar se sai ([\d,]+) pontos percentuais melhor sem ela \(de ([\d,]+) "
        r"pontos percentuais a ([\d,]+) pontos percentuais\)\.",
        "ja": r"それなしのほうが、席の成績は([\d.]+)ポイント良くなります（([\d.]+)ポイント〜([\d.]+)ポイント）。",
    }
    sizes = set()
    for language, pattern in expected.items():
        with translation.override(language):  # a view says its sentences once: one each
            said = study_answer.answer(study_reading.view_of(top))[0]
        found = re.search(pattern, said)
        assert found, (language, said)
        size, low, high = (float(n.replace(",", ".")) for n in found.groups())
        assert low < size < high, said
        # The size and its bounds are the win share's less the fair share.
        share, share_low, share_high = (float(n) for n in numbers_in(said)[:3])
        fair = 100 / 3
        for shown, exact in (
            (size, share - fair),
            (low, share_low - fair),
            (high, share_high - fair),
        ):
            assert abs(shown - exact) < 1, (said, shown, exact)
        sizes.add((size, low, high))
    assert len(sizes) == 1, sizes


def test_an_interval_whose_ends_print_alike_is_left_out(chance, designer):
    """Loaded and long (20 rolls each), a seat that calls high always wins: a sensible bot
    among random bots wins every game, a seat that never calls high none. Its interval's ends
    print as its value, and the sentence leaves it out, as ``show_figure`` does: it read
    "100% of the games (100% to 100%)"."""
    loaded = Ruleset.objects.create(
        game="chance",
        name="Chance long",
        version=1,
        options={"rounds": 20, "loaded": True},
        owner=designer,
    )
    asked: tuple[dict[str, Any], ...] = (
        {"question": study_start.SKILL, "params": {"budget": 2}},
        {"restriction": "high"},
    )
    said: dict[str, list[str]] = {}
    for each in asked:
        top = study_start.start(
            designer, "chance", [loaded], players=[2], games=20, bots=["sensible"], **each
        )
        view = played(top)
        for language in ("en", "pt-br", "ja"):
            with translation.override(language):
                said.setdefault(language, []).extend(study_answer.answer(view))
    sure = [s for s in said["en"] if re.search(r"wins (100|0)% of the games", s)]
    assert len(sure) >= 2, said["en"]  # the sensible bot among random ones; the restricted seat
    for language, texts in said.items():
        for text in texts:
            ends = re.findall(r"(\d+(?:[.,]\d+)?) ?% ?(?:to|a|〜) ?(\d+(?:[.,]\d+)?) ?%", text)
            assert all(low != high for low, high in ends), (language, text)
    # A level's interval in the questions' words is left out the same way; one that says
    # something is kept.
    assert questions.share_text({"value": 1.0, "low": 0.999, "high": 1.0}) == "100%"
    assert questions.share_text({"value": 0.5, "low": 0.4, "high": 0.6}) == "50% (40%–60%)"
    assert questions.mean_text({"value": 12.0, "low": 11.999, "high": 12.001}) == "12"
    assert questions.mean_text({"value": 12.3, "low": 11.9, "high": 12.8}) == "12.3 (11.9–12.8)"
