"""Real beside simulated, for every figure the real tables have: each real table's log gives
the figures the bots' games give (the report's ``engine``), so each stands beside its
simulated band with its n; minutes beside the estimate at the real pace; outside the band
said in words only with enough plays, after the false discovery correction."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games.playtests import lab_beside_real, lab_chunks, lab_start, service
from games.playtests.reports import FIGURES_VERSION
from tests.playtests.conftest import builtin, finished_table, many_reports

GAME = "amnesia_stories"


def test_a_real_tables_log_gives_the_simulations_figures_seats_from_the_start_player(gm):
    table = finished_table(gm, "amnesia_stories/01_judging_branches")
    report = service.ensure_report(table).figures
    assert report["version"] == FIGURES_VERSION
    engine = report["engine"]
    assert engine["moves"] == report["moves"]
    assert {"lead_changes", "behind_at_half_wins", "bard_share", "seat1.wins"} <= set(engine)
    assert not any(k.startswith("bot.") for k in engine)
    # Seat 1 is the start player, as in a simulation.
    start = report["seat_order"][0]
    assert engine["seat1.vp"] == report["scores"][start]


@pytest.mark.django_db
def test_every_shared_figure_stands_beside_its_band(designer, client, settings):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    run = lab_start.start(designer, GAME, draft4, players=3, games=6, bots=["sensible"], seed=5)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    many_reports(designer, 2, [draft4])
    seen = lab_beside_real.predicted(run, service.entries_for(designer, GAME))
    rows = {r["name"]: r for r in seen["rows"]}
    assert {"moves", "minutes", "lead_changes", "bard_share", "seat2.vp", "rounds"} <= set(rows)
    assert all(r["n"] == 2 for r in rows.values())
    assert rows["minutes"]["estimated"] and not rows["minutes"]["pointed"]
    assert seen["said"] == [] and seen["few"]  # two plays: nothing said
    many_reports(designer, 6, [draft4])
    seen = lab_beside_real.predicted(run, service.entries_for(designer, GAME))
    assert any(s.startswith("Real tables give Lead changes 0") for s in seen["said"])
    client.force_login(designer)
    page = client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    part = page.split('data-testid="predicted"', 1)[1].split("</section>", 1)[0]
    assert 'data-figure="lead_changes"' in part and "Lead changes" in part
    assert "estimated at the real tables" in part and "min" in part


def test_the_real_tables_measure_amnesias_refusals_and_the_contests_drinks_with_intervals():
    from games import registry

    amnesia = registry.kit("amnesia").playtest.bot_params
    reports = [
        {"figures": {"paid_suggestions": 4, "paid_refused": 1}},
        {"figures": {"paid_suggestions": 6, "paid_refused": 4}},
        {"figures": {"paid_suggestions": 0, "paid_refused": 0}},  # nothing to measure
    ]
    refuse = amnesia({}, reports)["refuse"]
    assert refuse["value"] == 0.5 and refuse["n"] == 2
    assert 0 < refuse["low"] < 0.5 < refuse["high"] < 1
    assert amnesia({}, [{"figures": {}}]) == {}
    # Insisting: 10 of 40 suggestions paid, on the bot's scale beside its free suggestions.
    insist = amnesia({}, [{"figures": {"paid_suggestions": 10, "free_suggestions": 30}}])
    insist = insist["insist"]
    assert insist["share"] == 0.25 and insist["n"] == 1
    assert insist["value"] == round(0.25 * 0.3 / (1 - 0.25 + 0.25 * 0.3), 2)  # 0.09
    assert insist["low"] < insist["value"] < insist["high"] < 0.25
    assert "25%" in insist["note"]
    contest = registry.kit("contest").playtest.bot_params
    drink = contest({}, [{"figures": {"drinks_total": 3, "cards_lost": {"Ana": 1, "Bia": 0}}}])
    assert drink["drink"]["value"] == 0.75 and drink["drink"]["n"] == 1
    assert drink["drink"]["low"] < 0.75 < drink["drink"]["high"]
    # How long a narrator keeps the story: 12 face-card take-overs over 400 moves and 3
    # listeners each, and 400 moves over 30 control turns kept.
    engine = {"moves": 400, "control_turns": 30, "take_control.face_card": 12}
    kept = contest({}, [{"figures": {"players": 4, "engine": engine}}])["take_control"]
    assert kept["value"] == 0.01 and kept["low"] < 0.01 < kept["high"]
    assert "13.3 moves" in kept["note"]
    # Each is a parameter of the game's bots, so "Simulate with it" starts a run.
    for game, found in (
        ("amnesia", {"refuse": refuse, "insist": insist}),
        ("contest", {**drink, "take_control": kept}),
    ):
        kit = registry.kit(game)
        assert set(found) <= set(kit.bots["sensible"].params)


@pytest.mark.django_db
def test_the_dashboard_sets_each_real_figure_beside_the_newest_simulation(
    designer, designer_client, settings
):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    url = reverse("playtests:dashboard", args=[GAME])
    # No real table: the minutes are unknown, and nothing is set beside anything.
    page = designer_client.get(url).content.decode()
    part = page.split('data-testid="beside-real"', 1)[1].split("</section>", 1)[0]
    assert "unknown without real tables" in part and "beside-group" not in part
    many_reports(designer, 8, [draft4])
    page = designer_client.get(url).content.decode()
    assert "no simulation of this version yet" in page
    old = lab_start.start(designer, GAME, draft4, players=3, games=3, bots=["sensible"], seed=4)
    lab_chunks.run_everything(old)
    run = lab_start.start(designer, GAME, draft4, players=3, games=6, bots=["sensible"], seed=5)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    page = html.unescape(designer_client.get(url).content.decode())
    part = page.split('data-testid="beside-real"', 1)[1].split("</section>", 1)[0]
    assert f"run #{run.pk}" in part and f"run #{old.pk}" not in part  # the newest
    assert "The real tables' pace:" in part and "(8 tables)" in part
    assert "At the real tables' pace a simulated game lasts" in part
    # The same rows, and the same words about the band, as the run's page (lab_beside_real.predicted).
    seen = lab_beside_real.predicted(run, service.entries_for(designer, GAME))
    assert len(seen["rows"]) > 5
    for row in seen["rows"]:
        assert f'data-figure="{row["name"]}"' in part
    assert seen["said"] and all(s in part for s in seen["said"])
