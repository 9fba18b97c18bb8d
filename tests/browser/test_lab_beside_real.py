"""The lab beside the real tables, in Chromium: two real tables of Amnesia Stories draft 4
finished, their players' impressions sent from phones; a run and a study of the same
ruleset; the run's page sets each real figure beside its simulated band, with minutes at the
real tables' pace and the design questions; one simulated game opened by its number and
stepped through, each seat's view in words; the dashboard sets each real figure beside its
band with minutes at the real pace and gathers the written answers; and the report PDF holds
the study's sentences."""

from __future__ import annotations

import re

from django.contrib.auth.models import Group
from playwright.sync_api import expect

from games.models import Table
from games.playtests import lab_chunks, lab_start, study_answer, study_reading, study_start
from games.playtests.models import DESIGNERS_GROUP
from tests.pdfs import all_text
from tests.playtests.conftest import builtin, finished_table

from .helpers import log_in

GAME = "amnesia_stories"
PHONE = {"width": 390, "height": 844}


def test_real_tables_beside_the_lab(page, browser, live_server, django_user_model, settings):
    settings.LAB_CHUNK_GAMES = 6
    settings.LAB_YIELD_SECONDS = 0
    designer = log_in(page, django_user_model, username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    host = django_user_model.objects.create_user(username="host")
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    draft3 = builtin(GAME, "Amnesia Stories draft 3")
    tables = [
        finished_table(
            host,
            "amnesia_stories/01_judging_branches",
            every=every,
            ruleset=draft4,
            report_sharing=Table.ReportSharing.NAMES,
        )
        for every in (40, 80)
    ]
    # Each table's first player sends their impressions from a phone, by the seat's link.
    for number, table in enumerate(tables, 1):
        seat = table.seats.order_by("position").first()
        context = browser.new_context(
            base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
        )
        phone = context.new_page()
        phone.goto(f"/playtests/seat/{seat.token}/impression/")
        phone.locator('textarea[name="best_moment"]').fill(f"The bridge, table {number}.")
        phone.locator("main form button[type=submit]").first.tap()
        expect(phone.locator(".flash").first).to_contain_text("your impressions are saved")
        context.close()

    run = lab_start.start(designer, GAME, draft4, players=3, games=6, bots=["sensible"], seed=7)
    lab_chunks.run_everything(run)
    page.goto(f"/playtests/runs/{run.pk}/")
    beside = page.get_by_test_id("predicted")
    for figure in ("moves", "minutes", "lead_changes", "bard_share"):
        expect(beside.locator(f'tr[data-figure="{figure}"]')).to_be_visible()
    expect(beside.locator('tr[data-figure="minutes"]')).to_contain_text("real tables' pace")
    expect(beside.locator('tr[data-figure="moves"] td').nth(1)).to_have_text("2")  # n
    questions = page.get_by_test_id("design-questions")
    expect(questions).to_contain_text("At the pace of the real tables")
    expect(questions).to_contain_text("2 tables")
    expect(questions).to_contain_text("Does the lead change")

    # One simulated game, by its number, stepped through.
    page.get_by_test_id("open-game-number").fill("2")
    page.get_by_test_id("open-game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Game 2 of run #{run.pk}")
    step = page.get_by_test_id("replay-step")
    last = int(step.get_attribute("data-step"))
    assert last > 1
    page.get_by_test_id("step-first").click()
    expect(step).to_have_attribute("data-step", "0")
    page.get_by_test_id("step-next").click()
    expect(step).to_have_attribute("data-step", "1")
    expect(page.get_by_test_id("step-move")).to_contain_text("The sensible bot chose it")
    page.get_by_test_id("view-P2").click()
    view = page.get_by_test_id("replay-view")
    expect(view).to_contain_text("What P2 sees")
    expect(view.locator("dt", has_text="Victory points")).to_be_visible()  # in words
    expect(view.locator("pre")).to_have_count(0)
    expect(step).to_have_attribute("data-step", "1")
    page.get_by_test_id("step-next").click()
    expect(step).to_have_attribute("data-step", "2")
    expect(page).to_have_url(re.compile(r"step=2&seat=P2"))
    expect(page.get_by_test_id("replay-figures")).to_contain_text("Length in moves")

    # The dashboard sets each real figure beside the run's band, with its n, and the
    # minutes a simulated game lasts at the real tables' pace.
    page.goto(f"/playtests/dashboard/{GAME}/")
    beside = page.get_by_test_id("beside-real")
    expect(beside.get_by_test_id("real-pace")).to_contain_text("minutes a move (2 tables)")
    group = beside.locator(f'[data-testid="beside-group"][data-ruleset="{draft4.pk}"]')
    expect(group).to_contain_text(f"run #{run.pk}")
    expect(group.get_by_test_id("estimated-minutes")).to_contain_text("minutes")
    for figure in ("moves", "minutes", "lead_changes", "bard_share"):
        expect(group.locator(f'tr[data-figure="{figure}"] td').nth(1)).to_have_text("2")

    # The written answers, gathered on the dashboard, filtered by player count.
    said = page.get_by_test_id("impressions")
    said.get_by_test_id("impressions-players").select_option("3")
    said.get_by_test_id("impressions-filter").click()
    said = page.get_by_test_id("written-answers")
    expect(said).to_contain_text("The bridge, table 1.")
    expect(said).to_contain_text("The bridge, table 2.")

    # A study of the same ruleset against draft 3, and its report PDF.
    top = study_start.start(
        designer, GAME, [draft4, draft3], players=[3], games=6, bots=["sensible"], grid=None, seed=7
    )
    lab_chunks.run_everything(top)
    page.goto(f"/playtests/studies/{top.pk}/")
    link = page.get_by_test_id("study-pdf")
    expect(link).to_be_visible()
    response = page.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    text = " ".join(all_text(response.body(), " ").split())
    sentences = study_answer.answer(study_reading.view_of(top))
    assert sentences
    for sentence in sentences:
        assert " ".join(sentence.split()) in text, sentence
    assert "Real plays beside the simulation" in text
