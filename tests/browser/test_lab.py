"""The designer's lab in Chromium: start a run from the dashboard and follow it, cancel another,
read the figures and sentences, compare the two, save an option what-if as a ruleset that the
new-table form offers. The run's chunks are played by this test's process (``play_chunk``, what
a worker of the long queue calls), between the page's looks."""

from __future__ import annotations

import re

from django.contrib.auth.models import Group
from playwright.sync_api import expect

from games.models import Ruleset
from games.playtests import lab_chunks
from games.playtests.models import DESIGNERS_GROUP, SimulationRun

from .helpers import QUICK_HTMX_POLLS, log_in

GAME = "amnesia_stories"


BARD_POINTS = "Bard VP for a step some (not all) of the audience matched"


def fill_run(page, games: int, bard_points: str = "", sweep: tuple[str, str] | None = None) -> None:
    """The form as a designer fills it: every option, parameter and what-if by its label."""
    page.get_by_label("Ruleset version").select_option(label="Amnesia Stories draft 4, version 1")
    page.locator("[name=players]").fill("4")
    page.locator("[name=games]").fill(str(games))
    page.locator("[name=bots]").fill("sensible,random")
    if bard_points:
        page.get_by_test_id("run-settings").locator("summary").click()
        page.get_by_label(BARD_POINTS).fill(bard_points)
    if sweep:
        page.get_by_label("What-if: sweep this option or parameter").select_option(label=sweep[0])
        page.get_by_label("over these values").fill(sweep[1])
    # The run is read from the database right after (SimulationRun): wait for the form's own
    # answer, not only for the click, whose wait for the page it opens Playwright deprecates.
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Simulate", exact=True).click()


def test_designer_runs_compares_and_saves_a_what_if(page, django_user_model, settings) -> None:
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0
    designer = log_in(page, django_user_model, username="designer")
    page.add_init_script(QUICK_HTMX_POLLS)  # the run's page asks every 0.4 s, not 1 s
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])

    page.goto(f"/playtests/dashboard/{GAME}/")
    page.get_by_test_id("simulate").click()
    fill_run(page, 6)
    progress = page.get_by_test_id("run-progress")
    expect(progress).to_have_attribute("data-status", "queued")
    first = SimulationRun.objects.get()
    lab_chunks.play_chunk(first.pk, 0)
    expect(progress).to_have_attribute("data-done", "3")  # the bar moves on its own
    expect(progress).to_contain_text("3 of 6 games")
    lab_chunks.play_chunk(first.pk, 1)
    expect(progress).to_have_attribute("data-status", "done")
    sentences = page.get_by_test_id("run-sentences")
    expect(sentences).to_contain_text(
        "Amnesia Stories draft 4, version 1 at 4 players, 6 simulated games."
    )
    expect(sentences).to_contain_text("The first seat wins")
    share_row = page.get_by_test_id("run-figures").locator("tr[data-figure=bard_share]")
    expect(share_row).to_contain_text("The bard’s share of the points")
    expect(share_row.locator("td").last).to_have_text("6")

    # Another run, with a changed option: cancelled after one chunk, its games kept.
    page.goto(f"/playtests/lab/{GAME}/")
    fill_run(page, 9, bard_points="3")
    second = SimulationRun.objects.exclude(pk=first.pk).get()
    lab_chunks.play_chunk(second.pk, 0)
    expect(progress).to_have_attribute("data-done", "3")
    page.get_by_test_id("cancel-run").click()
    expect(progress).to_have_attribute("data-status", "partial")
    lab_chunks.play_chunk(second.pk, 1)  # a worker that takes a chunk now plays nothing
    second.refresh_from_db()
    assert second.games_done == 3

    # The two compared: each figure's difference with its interval.
    page.get_by_test_id("compare-with").select_option(str(first.pk))
    page.get_by_test_id("compare").click()
    expect(page.get_by_test_id("compare-direction")).to_have_text(
        "Amnesia Stories draft 4, version 1 against Amnesia Stories draft 4, version 1, "
        "at 4 players"
    )
    comparison = page.get_by_test_id("run-comparison")
    expect(comparison.locator("tr", has_text="The bard’s share of the points")).to_be_visible()
    expect(comparison.locator("tr", has_text="Final VP of seat 1")).to_contain_text("VP")

    # An option what-if, swept and drawn, one value saved as a named ruleset.
    page.goto(f"/playtests/lab/{GAME}/")
    fill_run(page, 3, sweep=(BARD_POINTS, "1,3"))
    sweep = SimulationRun.objects.get(parent__isnull=True, sweep__name="bard_points")
    lab_chunks.run_everything(sweep)
    expect(progress).to_have_attribute("data-status", "done")
    page.reload()
    expect(page.locator("svg.chart").first).to_be_visible()
    page.get_by_test_id("save-name-1").fill("Bard three")
    page.get_by_test_id("save-ruleset-1").click()
    expect(page).to_have_url(re.compile(f"/playtests/rulesets/{GAME}/"))
    saved = Ruleset.objects.get(game=GAME, name="Bard three")
    assert saved.options["bard_points"] == 3
    page.goto(f"/tables/new/?game={GAME}")
    expect(page.get_by_label("Ruleset").locator("option", has_text="Bard three")).to_have_count(1)
