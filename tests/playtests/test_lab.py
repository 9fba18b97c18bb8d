"""The designer's lab: runs on the long queue in chunks, merged, cancelled, compared, shared.

The chunks are played in this process by calling the task's function (``lab_chunks.play_chunk``),
as a worker would; the run's tasks are really queued on the database (django-tasks-db)."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.models import Move, Ruleset
from games.playtests import (
    lab_beside_real,
    lab_bounds,
    lab_chunks,
    lab_reading,
    lab_start,
    lab_words,
)
from games.playtests.charts import _num as chart_num
from games.playtests.models import DESIGNERS_GROUP, SimulationChunk, SimulationRun
from games.services import new_tables, writing
from games.simulate import figures as F
from tests.codenames import code_names
from tests.playtests.conftest import builtin, page_in

GAME = "amnesia_stories"


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0  # no table is in play in these tests unless one says so


def start(user, games=8, seed=5, **kw):
    kw.setdefault("players", 4)
    kw.setdefault("bots", ["sensible", "random"])
    ruleset = kw.pop("ruleset", builtin(GAME, "Amnesia Stories draft 4"))
    return lab_start.start(user, GAME, ruleset, games=games, seed=seed, **kw)


def test_a_run_is_queued_in_chunks_on_the_long_queue_and_merged(designer):
    run = start(designer)
    assert run.status == "queued" and run.chunk_count == 3
    tasks = DBTaskResult.objects.filter(queue_name="long")
    assert tasks.count() == 3
    assert sorted(json.loads(json.dumps(t.args_kwargs))["args"][1] for t in tasks) == [0, 1, 2]
    lab_chunks.play_chunk(run.pk, 0)
    run.refresh_from_db()
    assert run.status == "running" and run.games_done == 3
    assert run.figures["finished"]["n"] == 3
    lab_chunks.play_chunk(run.pk, 1)
    lab_chunks.play_chunk(run.pk, 2)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 8 and run.finished_at
    assert run.figures["seat1.wins"]["n"] == 8
    assert run.ruleset_label == "Amnesia Stories draft 4@1" and run.app_version
    # A chunk played again (a lost worker's task run twice) is kept once.
    lab_chunks.play_chunk(run.pk, 1)
    assert SimulationChunk.objects.filter(run=run).count() == 3


def test_two_workers_give_the_figures_of_one(designer, other):
    """Chunks taken in another order by two workers (each keeps its own) merge into the
    figures one worker gets playing them in order."""
    one = start(designer, games=10, seed=11)
    lab_chunks.run_everything(one)
    Group.objects.get_or_create(name=DESIGNERS_GROUP)[0].user_set.add(other)
    two = start(other, games=10, seed=11)
    for index, worker in [(3, "w2"), (1, "w1"), (2, "w2"), (0, "w1")]:
        lab_chunks.play_chunk(two.pk, index)
        SimulationChunk.objects.filter(run=two, index=index).update(worker=worker)
    one.refresh_from_db()
    two.refresh_from_db()
    assert two.status == one.status == "done"
    assert two.figures == one.figures
    assert two.findings == one.findings
    # And they are the engine's own figures for these games, computed in one go.
    from games.simulate.engine import run as engine_run

    result = engine_run(lab_chunks.spec_of(one))
    assert F.summarize(result.records, 11) == one.figures


def test_one_running_run_per_designer(designer):
    start(designer)
    with pytest.raises(lab_bounds.LabError):
        start(designer)


def test_cancel_keeps_the_games_played_marked_partial(designer):
    run = start(designer, games=9)
    lab_chunks.play_chunk(run.pk, 0)
    lab_chunks.cancel(run)
    lab_chunks.play_chunk(run.pk, 1)  # a worker taking a chunk after the cancel does nothing
    run.refresh_from_db()
    assert run.status == "partial" and run.games_done == 3
    assert run.figures["finished"]["n"] == 3
    assert SimulationChunk.objects.filter(run=run).count() == 1
    # Nothing played: cancelled; and a new run may start.
    other_run = start(designer, games=3)
    lab_chunks.cancel(other_run)
    other_run.refresh_from_db()
    assert other_run.status == "cancelled"


def test_a_run_past_its_budget_stops_partial(designer):
    run = start(designer, games=9, budget=5)
    lab_chunks.play_chunk(run.pk, 0)
    SimulationChunk.objects.filter(run=run).update(seconds=5)  # its budget of working time
    lab_chunks.play_chunk(run.pk, 1)
    run.refresh_from_db()
    assert run.status == "partial" and run.games_done == 3 and run.error == "budget"


def test_a_chunk_yields_while_a_table_is_in_play(designer, gm, settings):
    settings.LAB_YIELD_SECONDS = 30
    settings.LAB_YIELD_MAX = 0.3
    settings.LAB_YIELD_PAUSE = 0.05
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=7)
    writing.play_many(table, [{"by": "Ana", "do": "continue", "text": "It began."}], 0)
    assert Move.objects.filter(at__gte=timezone.now() - timedelta(seconds=30)).exists()
    run = start(designer, games=3)
    lab_chunks.play_chunk(run.pk, 0)
    chunk = SimulationChunk.objects.get(run=run, index=0)
    assert chunk.yielded_seconds >= 0.3
    # With no recent move it does not wait.
    Move.objects.update(at=timezone.now() - timedelta(minutes=5))
    assert SimulationRun.objects.get(pk=run.pk).status == "done"
    run3 = start(designer, games=3, seed=9)
    lab_chunks.play_chunk(run3.pk, 0)
    assert SimulationChunk.objects.get(run=run3).yielded_seconds < 0.3


def test_sentences_say_the_first_seat_share_with_its_interval(designer):
    run = start(designer, games=8)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    text = " ".join(lab_reading.sentences(run))
    share = run.figures["seat1.wins"]
    assert "Amnesia Stories draft 4, version 1 at 4 players, 8 simulated games." in text
    assert (
        f"The first seat wins {lab_reading.pct(share['value'])} "
        f"({lab_reading.pct(share['low'])} to {lab_reading.pct(share['high'])}) of games" in text
    )
    assert "The bard earns" in text


def test_an_option_sweep_and_its_ruleset(designer, client):
    client.force_login(designer)
    url = reverse("playtests:lab", args=[GAME])
    response = client.post(
        url,
        {
            "ruleset": builtin(GAME, "Amnesia Stories draft 4").pk,
            "players": 4,
            "games": 5,
            "bots": "sensible",
            "seed": 3,
            "sweep_name": "bard_points",
            "sweep_values": "1,2,3",
        },
    )
    assert response.status_code == 302
    run = SimulationRun.objects.get(parent__isnull=True)
    assert run.sweep == {"kind": "option", "name": "bard_points", "values": [1, 2, 3]}
    children = list(run.children.order_by("pk"))
    assert [c.options["bard_points"] for c in children] == [1, 2, 3]
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    assert run.status == "done" and run.games_done == 15
    page = client.get(reverse("playtests:run_detail", args=[run.pk]) + "?figure=bard_share")
    body = page.content.decode()
    assert "<svg" in body
    assert (
        "The bard’s share of the points as Bard VP for a step some (not all) of the audience "
        "matched changes" in body
    )
    # The band is drawn, and an interval bar at each value, said in the chart's text
    # alternative with each value's interval (a share in percent).
    assert 'class="chart__band"' in body and body.count('class="chart__interval"') == 3
    share = SimulationRun.objects.get(pk=children[0].pk).figures["bard_share"]
    assert (
        f"{chart_num(share['value'] * 100)} "
        f"({chart_num(share['low'] * 100)}–{chart_num(share['high'] * 100)})" in body
    )
    response = client.post(
        reverse("playtests:run_save_ruleset", args=[children[2].pk]), {"name": "Three points"}
    )
    assert response.status_code == 302
    saved = Ruleset.objects.get(game=GAME, name="Three points")
    assert saved.options["bard_points"] == 3 and saved.owner == designer
    # Its changelog in words: the ruleset it came from and the option by its label.
    assert saved.changelog.startswith("From Amnesia Stories draft 4, version 1: ")
    assert "Bard VP for a step some (not all) of the audience matched: 3 (was 2)" in (
        saved.changelog
    )
    assert not code_names(saved.changelog), saved.changelog
    # The new-table form offers it.
    form = client.get(reverse("games:table_new"), {"game": GAME})
    assert form.status_code == 200 and "Three points" in form.content.decode()


def test_a_sweeps_chart_of_a_bots_edge_says_signed_points(designer, client):
    """A bot's edge over a sweep is a difference: its chart's axis says points (it said "(%)",
    a level) and its values, in the chart's text alternative, are signed."""
    client.force_login(designer)
    run = start(
        designer, games=5, seed=3, sweep={"kind": "option", "name": "bard_points", "values": [1, 2]}
    )
    lab_chunks.run_everything(run)
    child = run.children.order_by("pk").first()
    assert child is not None
    edges = sorted(k for k in child.figures if k.startswith("bot.") and "_edge" in k)
    assert edges, child.figures
    url = reverse("playtests:run_detail", args=[run.pk]) + f"?figure={edges[0]}"
    for language, points in (
        ("en", "(points)"),
        ("pt-br", "(pontos percentuais)"),
        ("ja", "（ポイント）"),
    ):
        client.cookies["django_language"] = language
        body = client.get(url).content.decode()
        svg = body.split("<svg", 1)[1].split("</svg>", 1)[0]
        assert points in svg and "(%)" not in svg and "（%）" not in svg, (language, svg)
        assert "+" in svg or "−" in svg, (language, svg)


def test_compare_and_export(designer, client):
    client.force_login(designer)
    a = start(designer, games=6, seed=2)
    lab_chunks.run_everything(a)
    b = start(designer, games=6, seed=2, changed={"bard_points": 3})
    lab_chunks.run_everything(b)
    page = client.get(reverse("playtests:run_compare", args=[a.pk]), {"other": b.pk})
    assert page.status_code == 200
    rows = lab_reading.compare(a, b)
    share = next(r for r in rows if r["key"] == "bard_share")
    assert share["diff"] in page.content.decode()
    data = client.get(reverse("playtests:run_export", args=[a.pk, "json"])).json()
    a.refresh_from_db()
    # Each figure keeps its key and its values, with its label and meaning beside.
    assert {
        k: {n: v for n, v in f.items() if n not in ("label", "meaning")}
        for k, f in data["figures"].items()
    } == a.figures
    assert data["figures"]["bard_share"]["label"] == "The bard’s share of the points"
    assert data["seed"] == 2 and data["bots"]
    text = client.get(reverse("playtests:run_export", args=[a.pk, "csv"])).content.decode()
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:4] == ["run", "value", "figure", "label"]
    assert len(table) == len(a.figures) + 1
    bard = next(row for row in table if row[2] == "bard_share")
    assert bard[3] == "The bard’s share of the points" and "%" in bard[-1]
    assert client.get(reverse("playtests:run_export", args=[a.pk, "xml"])).status_code == 404


def test_who_sees_and_starts_runs(designer, other, client, django_user_model):
    run = start(designer, games=3)
    lab_chunks.run_everything(run)
    detail = reverse("playtests:run_detail", args=[run.pk])
    lab_url = reverse("playtests:lab", args=[GAME])
    # Not a designer: neither the lab nor the run, and no run is started.
    client.force_login(other)
    assert client.get(lab_url).status_code == 403
    assert (
        client.post(lab_url, {"players": 4, "games": 3, "bots": "random", "seed": 1}).status_code
        == 403
    )
    assert client.get(detail).status_code == 404
    # Another designer: the lab, but not this run until it is shared with them.
    second = django_user_model.objects.create_user(username="second")
    second.groups.add(Group.objects.get(name=DESIGNERS_GROUP))
    client.force_login(second)
    assert client.get(lab_url).status_code == 200
    assert client.get(detail).status_code == 404
    assert client.post(reverse("playtests:run_cancel", args=[run.pk])).status_code == 404
    assert client.post(reverse("playtests:run_delete", args=[run.pk])).status_code == 404
    assert (
        client.post(
            reverse("playtests:run_share", args=[run.pk]), {"username": "second"}
        ).status_code
        == 404
    )
    assert SimulationRun.objects.count() == 1 and not run.shared_with.exists()
    client.force_login(designer)
    client.post(reverse("playtests:run_share", args=[run.pk]), {"username": "second"})
    client.force_login(second)
    assert client.get(detail).status_code == 200
    # Shared is not owned: they may read it, not delete it.
    assert client.post(reverse("playtests:run_delete", args=[run.pk])).status_code == 404
    client.force_login(designer)
    assert client.post(reverse("playtests:run_delete", args=[run.pk])).status_code == 302
    assert not SimulationRun.objects.exists()


def test_real_plays_outside_the_band_are_pointed_out_only_when_enough(designer, client):
    from games.playtests import service
    from tests.playtests.conftest import many_reports

    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    run = start(designer, games=6, players=3, bots=["sensible"])
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    # Two real plays (the golden game, shorter than any simulated one): too few to say.
    many_reports(designer, 2, [draft4])
    seen = lab_beside_real.predicted(run, service.entries_for(designer, GAME))
    moves = next(r for r in seen["rows"] if r["name"] == "moves")
    assert moves["n"] == 2 and moves["outside"] and moves["real"] < run.figures["moves"]["low"]
    assert seen["said"] == [] and seen["few"]
    # Eight: pointed out, in words, after the correction.
    many_reports(designer, 6, [draft4])
    seen = lab_beside_real.predicted(run, service.entries_for(designer, GAME))
    moves = next(r for r in seen["rows"] if r["name"] == "moves")
    assert moves["n"] == 8 and moves["q"] < lab_beside_real.FDR
    assert any("Real tables end" in s and "8 plays" in s for s in seen["said"])
    client.force_login(designer)
    page = client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    assert "sooner than the simulation" in page and "8 plays" in page


@pytest.mark.usefixtures("weasyprint_once")  # the same run printed on both engines
def test_a_run_goes_into_the_playtest_report_pdf(designer, client, django_user_model):
    from tests.pdfs import all_text

    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    run = start(designer, games=6)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    client.force_login(designer)
    url = reverse("playtests:ruleset_pdf", args=[draft4.pk])
    response = client.get(url, {"run": run.pk})
    text = all_text(response.content, " ")
    text = " ".join(text.split())
    assert f"Simulated run #{run.pk}" in text
    assert "6 simulated games" in text and "The bard’s share of the points" in text
    assert not code_names(text), code_names(text)
    # Another designer's unshared run is not printed for them.
    second = django_user_model.objects.create_user(username="second")
    second.groups.add(Group.objects.get(name=DESIGNERS_GROUP))
    client.force_login(second)
    response = client.get(url, {"run": run.pk})
    text = all_text(response.content, " ")
    assert "Simulated run" not in text


def test_the_listeners_agreement_measured_from_real_picks_is_offered(designer, client):
    from games.amnesia_stories.playtest import bot_params
    from tests.playtests.conftest import amnesia_stories_figures, many_reports

    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    many_reports(designer, 3, [draft4])
    figs = amnesia_stories_figures()["figures"]
    share = sum(figs["step_matches"]) / sum(figs["step_chances"])
    guess = 1 / draft4.options["choices"]
    expected = round(min(1, max(0, (share - guess) / (1 - guess))), 2)
    measured = lab_beside_real.measured_params(designer, GAME)
    assert [m["ruleset"] for m in measured] == [draft4]
    agreement = measured[0]["params"]["agreement"]
    assert (agreement["value"], agreement["n"], agreement["share"]) == (
        expected,
        3,
        round(share, 3),
    )
    assert agreement["low"] < expected < agreement["high"]  # its interval, on the bot's scale
    assert agreement["note"].startswith("Listeners matched the bard in ")
    assert bot_params(draft4.options, []) == {}
    client.force_login(designer)
    url = reverse("playtests:lab", args=[GAME])
    body = client.get(url).content.decode()
    # Its interval beside it, as the pages write one (it stood alone after the sentence,
    # "(3 plays). 0.44–0.59 Listeners matched…", and so in Japanese too).
    low, high = (
        lab_words.value_words(GAME, "param", "agreement", agreement[k]) for k in ("low", "high")
    )
    assert (
        f"the real plays measure Listeners’ agreement: {expected} ({low}–{high}) (3 plays)" in body
    )
    body = page_in(client, url, "ja")
    assert f"聞き手の一致：{expected}（{low}〜{high}）（3プレイ）。" in body
    # The link fills the form with the ruleset and the parameter, in its own field.
    body = client.get(url, {"ruleset": draft4.pk, "params": f"agreement={expected}"}).content
    assert f'name="param_agreement" value="{expected}"' in body.decode()


def test_the_run_page_says_when_no_worker_answers(designer, client):
    from amnesia_site.workers import work
    from amnesia_site.workers.models import WorkerBeat

    run = start(designer, games=3)
    client.force_login(designer)
    url = reverse("playtests:run_detail", args=[run.pk])
    assert "No worker for long runs answers" in client.get(url).content.decode()
    WorkerBeat.objects.create(
        worker_id="w-long",
        host="elsewhere",
        pid=1,
        process_started=0,
        queues=work.LONG,
        beat_at=timezone.now(),
    )
    assert "No worker for long runs answers" not in client.get(url).content.decode()


def test_the_sentences_in_portuguese_and_japanese(designer):
    from django.utils import translation

    run = start(designer, games=6)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    with translation.override("ja"):
        ja = " ".join(lab_reading.sentences(run))
    with translation.override("pt-br"):
        pt = " ".join(lab_reading.sentences(run))
    assert "4人、シミュレーション6ゲーム。" in ja and "最初の席が勝つのは全ゲームの" in ja
    assert "com 4 jogadores, 6 partidas simuladas." in pt and "O primeiro lugar vence" in pt


def test_a_parameter_sweep_is_not_a_ruleset(designer, client):
    run = start(
        designer, games=3, sweep={"kind": "param", "name": "agreement", "values": [0.3, 0.9]}
    )
    children = list(run.children.order_by("pk"))
    assert [c.params["agreement"] for c in children] == [0.3, 0.9]
    assert all(c.options == run.options and not c.changed for c in children)
    lab_chunks.run_everything(run)
    client.force_login(designer)
    page = client.get(reverse("playtests:run_detail", args=[run.pk]))
    assert page.status_code == 200 and "save-ruleset-0" not in page.content.decode()
    response = client.post(
        reverse("playtests:run_save_ruleset", args=[children[1].pk]), {"name": "Agreeable"}
    )
    assert response.status_code == 404
    assert not Ruleset.objects.filter(name="Agreeable").exists()
    # A parameter outside its range is refused in words.
    with pytest.raises(lab_bounds.LabError, match="agreement"):
        start(
            designer,
            games=3,
            seed=2,
            sweep={"kind": "param", "name": "agreement", "values": [0.5, 2]},
        )


def test_a_long_run_works_out_its_figures_now_and_then_and_all_at_the_end(designer, settings):
    """Many chunks: the games done follow every chunk, the figures (every kept game read and
    bootstrapped) only at PROGRESS_MERGES moments, at the end and when the run stops."""
    settings.LAB_CHUNK_GAMES = 1
    run = start(designer, games=lab_chunks.PROGRESS_MERGES * 2, seed=4)
    lab_chunks.play_chunk(run.pk, 0)
    run.refresh_from_db()
    assert run.games_done == 1 and run.figures == {}  # not one of the moments
    lab_chunks.play_chunk(run.pk, 1)
    run.refresh_from_db()
    assert run.games_done == 2 and run.figures["finished"]["n"] == 2
    lab_chunks.play_chunk(run.pk, 2)
    lab_chunks.cancel(run)
    run.refresh_from_db()
    assert run.status == "partial" and run.figures["finished"]["n"] == 3
    whole = start(designer, games=lab_chunks.PROGRESS_MERGES * 2, seed=4)
    lab_chunks.run_everything(whole)
    whole.refresh_from_db()
    from games.simulate.engine import run as engine_run

    expected = F.summarize(engine_run(lab_chunks.spec_of(whole)).records, 4)
    assert whole.status == "done" and whole.figures == expected


def test_a_bots_edge_on_the_run_page_reads_as_a_difference(designer, client):
    """A bot's edge is a difference (its share of the wins less its share of the seats): the
    run page said it as a level with an ASCII minus ("6.7%（-23%〜37%）" in Japanese); it says
    it signed, in percentage points, with the reader's minus, as the study pages say a
    difference ("+10.5 (+3.5 to +16.0) points"), in each language."""

    run = start(designer, games=8)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    edges = sorted(k for k in run.figures if k.endswith("_edge"))
    assert edges, sorted(run.figures)
    client.force_login(designer)
    unit = {"en": " points", "pt-br": " pontos percentuais", "ja": "ポイント"}
    for language, points in unit.items():
        page = page_in(client, reverse("playtests:run_detail", args=[run.pk]), language)
        for key in edges:
            row = page.split(f'data-figure="{key}"', 1)[1].split("</tr>", 1)[0]
            shown = row.split('<td class="num">', 1)[1].split("</td>", 1)[0]
            assert shown.endswith(points), (language, key, shown)
            assert "%" not in shown and "-" not in shown, (language, key, shown)
            # Each number signed (0 has no sign), the minus the reader's (U+2212).
            numbers = re.findall(r"[+−]?\d+(?:[.,]\d+)?", shown)
            assert len(numbers) == 3, (language, key, shown)
            assert all(n[0] in "+−" or float(n.replace(",", ".")) == 0 for n in numbers), shown


def test_a_study_is_left_out_of_a_runs_compare_list(designer, client):
    """A study appeared in a run page's "compare with" list as "what-if:" with nothing after
    (in Japanese "もしも："): its cells differ in ruleset and players, so a run compared with
    each of them says nothing, and the study compares its rulesets on its own page. It is
    left out of the list, and a comparison with it (either way) is no page; runs and sweeps
    stay in, named in words in every language."""

    from games.playtests import study_start

    run = start(designer, games=3)
    lab_chunks.run_everything(run)
    sweep = start(
        designer, games=3, sweep={"kind": "option", "name": "bard_points", "values": [2, 3]}
    )
    lab_chunks.run_everything(sweep)
    study = study_start.start(
        designer,
        GAME,
        [builtin(GAME, "Amnesia Stories draft 4"), builtin(GAME, "Amnesia Stories draft 3")],
        players=[4],
        games=3,
        bots=["sensible"],
    )
    client.force_login(designer)
    labels = {"en": "what-if:", "pt-br": "e se:", "ja": "もしも："}
    for language, what_if in labels.items():
        page = page_in(client, reverse("playtests:run_detail", args=[run.pk]), language)
        listed = page.split('data-testid="compare-with"', 1)[1].split("</select>", 1)[0]
        offered = dict(re.findall(r'<option value="(\d+)">([^<]*)</option>', listed))
        assert set(offered) == {str(sweep.pk)}, (language, offered)
        assert not any(re.search(re.escape(what_if) + r"\s*(\(|·|$)", t) for t in offered.values())
    compare = reverse("playtests:run_compare", args=[run.pk])
    assert client.get(compare, {"other": sweep.pk}).status_code == 200
    assert client.get(compare, {"other": study.pk}).status_code == 404
    back = reverse("playtests:run_compare", args=[study.pk])
    assert client.get(back, {"other": run.pk}).status_code == 404
