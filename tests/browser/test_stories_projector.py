"""The Amnesia Stories projector and reveal counters (issue 26, items 3 and 7), in Chromium:
at a turn's Σ the projector shows each player's points, at the end the final standings and
the winner, as large as the rest of it; the counters count the questions (Σ is no question)
and the header names the turn being revealed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.amnesia_stories import reveal as reveal_state
from games.services import new_tables
from games.snapshot import Snapshot
from tests.browser.helpers import log_in
from tests.browser.journeys2 import QUICK_POLLS

SCRIPT = (
    Path(__file__).resolve().parents[1] / "scripts" / "amnesia_stories" / "01_judging_branches.json"
)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def imported(user, moves: int, name: str):
    script = json.loads(SCRIPT.read_text())["script"]
    script["moves"] = script["moves"][:moves]
    return new_tables.import_script(script, user, name=name)


def open_up_to(table, step: int) -> None:
    turn = reveal_state.on_screen(Snapshot(table).view)
    reveal_state.open_step(table, turn, step)


def rows(screen, testid: str) -> list[list[str]]:
    body = screen.get_by_test_id(testid).locator("tbody tr")
    return [
        [body.nth(i).locator("th").inner_text(), *body.nth(i).locator("td").all_inner_texts()]
        for i in range(body.count())
    ]


def font_px(locator) -> float:
    return float(locator.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))


def test_the_projector_shows_the_turns_points_at_sigma_and_the_final_table(
    page, django_user_model
) -> None:
    user = log_in(page, django_user_model)
    table = imported(user, 4, "Reveal")  # Ana's turn judged: Ana +4 (a red card), Bruno +3, Caio +1

    # The counters count the three questions; the header says turn 1 while it is revealed.
    page.goto(table.get_absolute_url())
    expect(page.locator("#reveal")).to_contain_text("0 of 3 steps open")
    # The projector asks every 0.4 s, not 3 s (the journeys' QUICK_POLLS): the same poll that
    # brings each step opened, only sooner.
    page.add_init_script(QUICK_POLLS)
    page.goto(f"/tables/{table.pk}/projector/")
    caption = page.locator(".projector-caption")
    expect(caption).to_contain_text("0 of 3 steps open")
    expect(caption.locator(".turn")).to_have_text("turn 1 of 3")
    open_up_to(table, 3)
    expect(caption).to_contain_text("3 of 3 steps open")  # the projector follows by itself

    # Σ: the turn's points, in type as large as the caption's.
    open_up_to(table, 4)
    points = page.get_by_test_id("projector-turn-points")
    expect(points).to_contain_text("the points of Ana’s story")
    assert rows(page, "projector-turn-points") == [
        ["Ana", "+4", "+1", "4"],
        ["Bruno", "+3", "0", "3"],
        ["Caio", "+1", "0", "1"],
    ]
    assert font_px(points.locator("td").first) >= font_px(caption)
    expect(caption.locator(".turn")).to_have_text("turn 2 of 3")  # Bruno's turn now

    # The end: the final standings (VP, red cards, their penalty) and the winner.
    ended = imported(user, 12, "Ended")
    open_up_to(ended, 4)
    page.goto(f"/tables/{ended.pk}/projector/")
    final = page.get_by_test_id("projector-final")
    expect(final.locator("h2")).to_have_text("Ana wins!")
    assert rows(page, "projector-final") == [
        ["Ana winner", "9", "1", "0", "9"],
        ["Bruno", "3", "0", "0", "3"],
        ["Caio", "6", "3", "−3", "3"],
    ]
    assert font_px(final.locator("td").first) >= font_px(page.locator(".projector-caption"))
    expect(page.get_by_test_id("projector-turn-points")).to_have_count(0)
