"""The design questions (``games.playtests.questions``): computed from each game's log by
its figures, answered in sentences, the generic ones where the figures allow and each game's
own where they do not; minutes at the pace of the designer's real tables."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games import registry
from games.amnesia_stories.bots import lead_figures
from games.playtests import lab_chunks, lab_start, questions
from games.rules.script import parse_setup
from games.simulate import figures as F
from games.simulate.engine import Spec, play_game, seat_names
from tests.playtests.conftest import builtin

SEATS = ["A", "B", "C"]


def turn(a: int, b: int, c: int) -> dict:
    return {"gains": {"A": a, "B": b, "C": c}}


def test_the_lead_changes_counted_from_the_turns_and_the_one_behind_at_half_time():
    # A leads, then B, then A again: two changes; a tie is no change. C is behind at
    # half-time (after 2 of 4 turns) and wins.
    history = [turn(3, 0, 0), turn(0, 5, 0), turn(3, 0, 0), turn(0, 0, 9)]
    final = {"finished": True, "winners": ["C"]}
    assert lead_figures(SEATS, history, final) == {"lead_changes": 3, "behind_at_half_wins": True}
    tie = [turn(2, 0, 0), turn(0, 2, 0), turn(1, 0, 0), turn(0, 0, 0)]
    out = lead_figures(SEATS, tie, {"finished": True, "winners": ["A"]})
    assert out == {"lead_changes": 0, "behind_at_half_wins": False}


def simulated(game: str, players: int, games: int, bots=("sensible", "random")) -> dict:
    kit = registry.kit(game)
    options = parse_setup({"game": game, "players": seat_names(players), "options": {}}).options
    spec = Spec(
        referee=kit.referee,
        classes=dict(kit.bots),
        figures=kit.bot_figures,
        trace=kit.bot_trace,
        options=options,
        players=players,
        bots=list(bots),
        seed=3,
        games=games,
    )
    return F.summarize([play_game(spec, i) for i in range(games)], 3)


def keys(answers: list[dict]) -> list[str]:
    return [a["key"] for a in answers]


def test_each_game_gets_the_questions_that_apply_to_it():
    stories = questions.answers("amnesia_stories", simulated("amnesia_stories", 3, 6), 3)
    assert keys(stories) == ["wins", "draws", "margin", "lead", "length"]
    lead = next(a for a in stories if a["key"] == "lead")["answer"]
    assert "The lead changes hands" in lead and "behind at half-time wins" in lead
    # Amnesia is cooperative: nobody wins; its own questions.
    amnesia = questions.answers("amnesia", simulated("amnesia", 3, 6), 3)
    assert keys(amnesia) == ["length", "challenge_sides", "tokens", "before_finale", "edges"]
    sides = next(a for a in amnesia if a["key"] == "challenge_sides")["answer"]
    assert "The narrator wins" in sides and "%" in sides
    # The contest ends by elimination: who wins by seat, then its own.
    contest = questions.answers("contest", simulated("contest", 3, 6), 3)
    assert keys(contest) == ["wins", "length", "eliminations", "control"]
    control = next(a for a in contest if a["key"] == "control")["answer"]
    assert "Control is taken" in control and "Share of the game each seat controls" in control


def test_the_answers_in_japanese_are_written_as_japanese_is():
    """Walked on a phone in Japanese, the run page's answers read "席1：60% (30%–90%)、…。
    公平な割合は33%です。 スタートプレイヤーに…": intervals in ASCII brackets with a dash, and a
    space after 。. They take full-width brackets and 〜, and sentences follow with no space;
    every game's questions, the contest's own with two sentences included."""
    from django.utils import translation

    for game in ("amnesia_stories", "contest"):
        figures = simulated(game, 3, 6)
        with translation.override("ja"):
            said = "\n".join(a["answer"] for a in questions.answers(game, figures, 3))
        assert "（" in said and "〜" in said, said
        assert " (" not in said and "。 " not in said and "–" not in said, said
    with translation.override("en"):  # English keeps its own
        said = " ".join(a["answer"] for a in questions.answers(game, figures, 3))
    assert " (" in said and "–" in said and ". " in said, said


def real(moves: int, minutes: int, finished: bool = True) -> dict:
    return {"kind": "table", "finished": finished, "moves": moves, "duration_seconds": minutes * 60}


def test_minutes_come_from_the_real_tables_pace_or_are_said_unknown():
    figures = {"moves": {"n": 50, "kind": "mean", "value": 40.0, "low": 36.0, "high": 44.0}}
    alone = questions.answers("amnesia_stories", figures, 3)
    assert "is unknown: no real table" in alone[0]["answer"]
    # Five real tables at one minute a move (one unfinished table does not count).
    entries = [real(30, 30) for _ in range(5)] + [real(10, 90, finished=False)]
    pace = questions.pace(entries)
    assert pace["n"] == 5 and pace["value"] == pytest.approx(1.0)
    answer = questions.answers("amnesia_stories", figures, 3, entries)[0]["answer"]
    # Numbers as the reader writes them, as many places as they need; an interval whose ends
    # print alike left out ("1 (1–1)" said nothing more than "1").
    # One minute, one table: said in the singular ("1 minutes a move" was).
    assert "(1 minute a move, 5 tables)" in answer and "1–1" not in answer
    assert "that is 40 (36–44) minutes." in answer
    one = questions.answers("amnesia_stories", figures, 3, [real(30, 45)])[0]["answer"]
    assert "(1.50 minutes a move, 1 table)" in one
    with translation.override("pt-br"):
        answer = questions.answers("amnesia_stories", figures, 3, entries)[0]["answer"]
        assert "(1 minuto por jogada, 5 mesas), isso dá 40 (36–44) minutos." in answer
        one = questions.answers("amnesia_stories", figures, 3, [real(30, 45)])[0]["answer"]
        assert "(1,50 minutos por jogada, 1 mesa)" in one
    with translation.override("ja"):
        answer = questions.answers("amnesia_stories", figures, 3, entries)[0]["answer"]
        assert "（1手あたり1分、5卓）では、40（36〜44）分です。" in answer


def test_the_run_page_asks_the_design_questions_with_minutes_from_real_tables(
    designer, client, settings
):
    from tests.playtests.conftest import many_reports

    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0
    draft4 = builtin("amnesia_stories", "Amnesia Stories draft 4")
    run = lab_start.start(
        designer, "amnesia_stories", draft4, players=3, games=6, bots=["sensible"], seed=2
    )
    lab_chunks.run_everything(run)
    client.force_login(designer)
    page = client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    assert 'data-testid="design-questions"' in page
    assert "Does the lead change" in page and "is unknown: no real table" in page
    many_reports(designer, 2, [draft4])
    page = client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    assert "At the pace of the real tables" in page and "2 tables" in page
    # In Portuguese and Japanese: the questions in the reader's words, no code name.
    from tests.codenames import code_names
    from tests.crawl_reading import visible

    url = reverse("playtests:run_detail", args=[run.pk])
    for lang, words in (("pt-br", "A liderança muda de mãos"), ("ja", "首位は1ゲームに")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        part = page.split('data-testid="design-questions"', 1)[1].split("</section>", 1)[0]
        assert words in part
        assert code_names(" ".join(visible(part))) == []
