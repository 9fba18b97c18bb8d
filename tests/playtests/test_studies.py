"""Studies: two or more rulesets × player counts × swept values, as a set of the lab's runs
(chunks on the long queue, paired seeds, the lab's bounds counting every cell), read in
sentences whose direction is said in words, with charts; a run made before opens as a study."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django_tasks_db.models import DBTaskResult

from games.models import Ruleset
from games.playtests import (
    lab_bounds,
    lab_chunks,
    lab_start,
    study_answer,
    study_charts,
    study_reading,
    study_start,
)
from games.playtests.models import SimulationRun
from tests.codenames import code_names
from tests.playtests.conftest import builtin

GAME = "amnesia_stories"
DRAFT3 = "Amnesia Stories draft 3"
DRAFT4 = "Amnesia Stories draft 4"


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 5
    settings.LAB_YIELD_SECONDS = 0


def study(user, games=10, players=(3, 4), grid=None, **kw):
    return study_start.start(
        user,
        GAME,
        [builtin(GAME, DRAFT4), builtin(GAME, DRAFT3)],
        players=list(players),
        games=games,
        bots=kw.pop("bots", ["sensible"]),
        grid=grid,
        seed=kw.pop("seed", 3),
        **kw,
    )


def test_a_study_is_a_set_of_runs_with_paired_seeds_on_the_long_queue(designer):
    grid = [{"kind": "param", "name": "clarity", "values": [0.2, 0.8]}]
    top = study(designer, games=6, grid=grid)
    cells = list(top.children.order_by("pk"))
    assert len(cells) == 2 * 2 * 2  # rulesets × player counts × values
    assert {c.seed for c in cells} == {3} and {c.games_asked for c in cells} == {6}
    assert {(c.ruleset.name, c.players, c.params["clarity"]) for c in cells} == {
        (r, p, v) for r in (DRAFT4, DRAFT3) for p in (3, 4) for v in (0.2, 0.8)
    }
    assert DBTaskResult.objects.filter(queue_name="long").count() == 8 * 2
    assert lab_bounds.games_queued(designer) == 48  # the study's own row counts no game twice
    lab_chunks.run_everything(top)
    top.refresh_from_db()
    assert top.status == "done" and top.games_done == 48
    for cell in cells:
        assert [r["index"] for r in lab_chunks.records_of(cell)] == list(range(6))


def test_the_lab_lists_a_study_with_its_games_of_every_cell(client, designer):
    """The lab's list of runs said a study's games as "80/0" (done of the values of a sweep
    it does not have); it says them of its cells, 12/12."""
    top = study(designer, games=3)
    lab_chunks.run_everything(top)
    client.force_login(designer)
    page = client.get(reverse("playtests:lab", args=[GAME])).content.decode()
    row = page.split(f">#{top.pk}</a>", 1)[1].split("</tr>", 1)[0]
    assert '<td class="num">12/12</td>' in row, row


def test_paired_seeds_deal_the_same_games_to_the_same_rules(designer):
    """Two rulesets with the same options play the very same games, cell by cell: every
    paired difference is zero, and the answer says they are about the same."""
    draft4 = builtin(GAME, DRAFT4)
    twin = Ruleset.objects.create(
        game=GAME, name="Draft 4 twin", version=1, options=dict(draft4.options), owner=designer
    )
    top = study_start.start(designer, GAME, [draft4, twin], players=[4], games=6, bots=["sensible"])
    lab_chunks.run_everything(top)
    a, b = (lab_chunks.records_of(c) for c in top.children.order_by("pk"))
    assert [r["figures"] for r in a] == [r["figures"] for r in b]
    with translation.override("en"):
        said = study_answer.answer(study_reading.view_of(top))
    assert said and all("about the same" in s for s in said), said


def test_the_bounds_count_a_studys_cells_together(designer, settings):
    settings.LAB_MAX_RUN_GAMES = 50
    with pytest.raises(lab_bounds.LabError, match="all its cells together"):
        study(designer, games=20)  # 4 cells × 20 = 80 games
    assert not SimulationRun.objects.exists()
    settings.LAB_MAX_RUN_GAMES = 0
    settings.LAB_MAX_QUEUED_GAMES = 30
    with pytest.raises(lab_bounds.LabError, match="this study asks for 40"):
        study(designer, games=10)
    settings.LAB_MAX_QUEUED_GAMES = 0
    study(designer, games=1)
    with pytest.raises(lab_bounds.LabError, match="already have a run going"):
        study(designer, games=1)


def test_a_study_needs_two_rulesets_and_players_the_game_allows(designer):
    with pytest.raises(lab_bounds.LabError, match="two or more"):
        study_start.start(
            designer, GAME, [builtin(GAME, DRAFT4)] * 2, players=[4], games=5, bots=["sensible"]
        )
    with pytest.raises(lab_bounds.LabError, match="3 to 8 players"):
        study(designer, players=(2, 3))


def test_the_answer_names_the_direction_in_words(designer):
    """Draft 3 against draft 4: draft 3's bard scores 1 VP for a step some matched, draft 4's
    2 VP, so the bard's share of the points is lower under draft 3; the sentence says 'lower'
    with a positive interval, never a sign the reader has to turn round."""
    top = study_start.start(
        designer,
        GAME,
        [builtin(GAME, DRAFT4), builtin(GAME, DRAFT3)],
        players=[4],
        games=30,
        bots=["sensible"],
        seed=7,
    )
    lab_chunks.run_everything(top)
    top.refresh_from_db()
    view = study_reading.view_of(top)
    cells = {c.ruleset: c.run for c in view.cells}
    share4 = cells[0].figures["bard_share"]["value"]
    share3 = cells[1].figures["bard_share"]["value"]
    assert share3 < share4
    with translation.override("en"):
        said = study_answer.answer(study_reading.view_of(top))
    bard = [s for s in said if "bard share" in s or "bard’s share" in s or "bard's share" in s]
    assert bard, said
    assert bard[0].startswith(
        "Amnesia Stories draft 3, version 1 against Amnesia Stories draft 4, version 1, at 4 players:"
    )
    assert " lower (" in bard[0] and "−" not in bard[0] and "-" not in bard[0].split(":")[1]
    assert "points" in bard[0]
    # In Portuguese the direction agrees with any figure's name, feminine or plural ("A fração
    # dos pontos do bardo fica 4,5 pontos percentuais mais alto" did not): no adjective.
    with translation.override("pt-br"):
        said = study_answer.answer(study_reading.view_of(top))
    bard = [s for s in said if "fração dos pontos do bardo" in s]
    assert bard and " a menos (de " in bard[0], said
    assert not any(re.search(r"mais (alto|baixo)|quase igual", s) for s in said), said


def test_the_study_page_answers_in_sentences_with_charts_and_histograms(client, designer):
    grid = [{"kind": "param", "name": "clarity", "values": [0.2, 0.8]}]
    top = study(designer, games=10, grid=grid)
    client.force_login(designer)
    url = reverse("playtests:study", args=[top.pk])
    page = client.get(url).content.decode()
    assert 'data-status="queued"' in page and "0 of 80 games" in page
    lab_chunks.run_everything(top)
    page = client.get(url).content.decode()
    assert 'data-status="done"' in page and 'value="80"' in page
    assert page.count("<svg") >= 3  # each headline figure a player count, and the histograms
    assert "Final VP of every seat" in page and "Length in moves" in page
    answer = page.split('data-testid="study-answer"')[1].split("</div>")[0]
    assert "against Amnesia Stories draft 4, version 1, at 3 players" in answer
    assert "at 4 players" in answer
    # The run page of a study sends the reader to the study.
    assert client.get(reverse("playtests:run_detail", args=[top.pk])).url == url
    # The histograms' axis is the share of the games in a bar, in the reader's words (it read
    # "Compartilhar" and "共有": the verb to share); Portuguese says VP as PV.
    view = study_reading.view_of(top)
    for language, words, not_these in (
        ("pt-br", ["Proporção", "PV finais de cada lugar"], ["Compartilhar", "VP"]),
        ("ja", ["割合", "各席の最終VP"], ["共有"]),
    ):
        with translation.override(language):
            drawn = "".join(h["title"] + h["svg"] for h in study_charts.histograms(view))
        assert all(w in drawn for w in words), (language, words)
        assert not any(w in drawn for w in not_these), (language, not_these)
        if language == "ja":  # a bar's range of values as Japanese writes one: 2〜5, not 2–5
            assert re.search(r"\d〜\d", drawn) and not re.search(r"\d–\d", drawn)


def test_a_run_and_a_sweep_open_as_studies(client, designer):
    run = lab_start.start(
        designer, GAME, builtin(GAME, DRAFT4), players=4, games=10, bots=["sensible"], seed=2
    )
    lab_chunks.run_everything(run)
    client.force_login(designer)
    page = client.get(reverse("playtests:study", args=[run.pk])).content.decode()
    assert "Amnesia Stories draft 4, version 1, at 4 players:" in page
    sweep = lab_start.start(
        designer,
        GAME,
        builtin(GAME, DRAFT4),
        players=4,
        games=10,
        bots=["sensible"],
        sweep={"kind": "option", "name": "bard_points", "values": [1, 3]},
    )
    lab_chunks.run_everything(sweep)
    page = client.get(reverse("playtests:study", args=[sweep.pk])).content.decode()
    assert 'data-status="done"' in page and "<svg" in page


def test_a_study_is_its_owners_and_the_games_designers(client, designer, other):
    top = study(designer, games=1)
    client.force_login(other)
    assert client.get(reverse("playtests:study", args=[top.pk])).status_code in (403, 404)
    client.logout()
    response = client.get(reverse("playtests:study", args=[top.pk]))
    assert response.status_code == 302  # to the log-in page


def test_the_form_offers_lists_and_starts_a_study(client, designer):
    client.force_login(designer)
    url = reverse("playtests:study_new", args=[GAME])
    page = client.get(url).content.decode()
    assert "Amnesia Stories draft 3, version 2" in page
    assert "param:clarity" in page  # a choice's value, never shown as its text
    form = {
        "baseline": builtin(GAME, DRAFT4).pk,
        "others": [builtin(GAME, DRAFT3).pk],
        "players_from": 3,
        "players_to": 4,
        "games": 5,
        "bots": ["sensible"],
        "sweep1": "param:clarity",
        "values1": "0.2, 0.8",
        "sweep2": "",
        "values2": "",
        "seed": 1,
    }
    bad = client.post(url, {**form, "values1": "0.2, 1.5"})
    assert bad.status_code == 400 and "1.5" in bad.content.decode()
    assert not SimulationRun.objects.exists()
    response = client.post(url, form)
    top = SimulationRun.objects.get(parent__isnull=True)
    assert response.url == reverse("playtests:study", args=[top.pk])
    assert top.sweep["grid"] == [{"kind": "param", "name": "clarity", "values": [0.2, 0.8]}]
    assert top.children.count() == 8


def test_the_study_form_shows_no_code_name_in_japanese(client, designer):
    client.force_login(designer)
    with translation.override("ja"):
        response = client.get(
            reverse("playtests:study_new", args=[GAME]), HTTP_ACCEPT_LANGUAGE="ja"
        )
    main = response.content.decode().split("<main", 1)[1].split(">", 1)[1]
    text = re.sub(r"<[^>]+>", " ", main.split("</main>")[0])
    assert not code_names(text), code_names(text)


def test_a_cells_figures_are_worked_out_once_at_its_end(designer):
    """A study's page shows no figures before its answer, so its cells skip the lab's progress
    merges (each reads every kept game and bootstraps every figure): the games done move on,
    the figures come with the cell's last chunk."""
    top = study(designer, games=10, players=(4,))
    cell = top.children.order_by("pk").first()
    lab_chunks.play_chunk(cell.pk, 0)
    cell.refresh_from_db()
    assert cell.games_done == 5 and cell.figures == {}
    lab_chunks.play_chunk(cell.pk, 1)
    cell.refresh_from_db()
    assert cell.status == "done" and cell.figures["moves"]["n"] == 10


def test_cancelling_a_study_takes_its_cells_chunks_off_the_queue(client, designer):
    top = study(designer, games=10, players=(4,))
    first = top.children.order_by("pk").first()
    lab_chunks.play_chunk(first.pk, 0)
    client.force_login(designer)
    response = client.post(reverse("playtests:run_cancel", args=[top.pk]))
    assert response.status_code == 302
    top.refresh_from_db()
    assert top.status == "partial" and top.games_done == 5
    assert not DBTaskResult.objects.filter(queue_name="long", status="READY").exists()


@pytest.mark.parametrize("players", [(3, 4), (4,)])
def test_a_bots_edge_is_charted_in_signed_points_not_percent(designer, players):
    """A bot's edge is a difference (its share less its fair share): its chart's axis says
    points, as its sentences do, and its values are signed; it read "(%)", a level. Across
    two player counts a line, at one a bar each ruleset."""
    top = study(designer, games=10, players=players, bots=["sensible", "random"])
    lab_chunks.run_everything(top)
    top.refresh_from_db()
    view = study_reading.view_of(top)
    edges = sorted(
        {k for c in view.cells for k in c.run.figures if k.startswith("bot.") and "_edge" in k}
    )
    assert edges, [c.run.figures for c in view.cells]
    for language, points in (
        ("en", "(points)"),
        ("pt-br", "(pontos percentuais)"),
        ("ja", "（ポイント）"),
    ):
        with translation.override(language):
            drawn = "".join(
                c["svg"] for name in edges for c in study_charts.figure_charts(view, name)
            )
            level = "".join(c["svg"] for c in study_charts.figure_charts(view, "finished"))
        assert drawn.count(points) >= len(edges), (language, drawn)
        assert "(%)" not in drawn and "（%）" not in drawn, (language, drawn)
        assert "+" in drawn or "−" in drawn, (language, drawn)
        # A share that is a level still says percent.
        assert points not in level and ("(%)" in level or "（%）" in level), (language, level)
