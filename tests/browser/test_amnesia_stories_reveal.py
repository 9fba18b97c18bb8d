"""The reveal in Chromium: a turn is judged, and until a step is opened nothing of its result
(a score, a point, a gain, a pick, a red card) is anywhere on the table page or on the
projector, which follows the opened step by itself."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.services import new_tables, reading
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.helpers import log_in
from tests.browser.journeys2 import QUICK_POLLS

SCRIPT = (
    Path(__file__).resolve().parents[1] / "scripts" / "amnesia_stories" / "01_judging_branches.json"
)
# Anything that reads as a result: "+2", "2 VP", a ticked match, "matched", "picked".
RESULT = re.compile(r"\+\s*\d|\d\s*VP\b|✓|✗|\bmatched\b|\bpicked\b|red card for")


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def judged_first_turn(user):
    """Ana told her story and all three answered (the script's first turn): judged, with
    Ana +4, Bruno +3, Caio +1 and a red card for Ana."""
    script = json.loads(SCRIPT.read_text())["script"]
    script["moves"] = script["moves"][:4]
    return new_tables.import_script(script, user, name="Reveal")


def scores(page) -> list[list[str]]:
    rows = page.locator("table.scoreboard tbody tr")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


def test_nothing_of_the_turn_shows_before_its_step(page, django_user_model) -> None:
    user = log_in(page, django_user_model)
    table = judged_first_turn(user)
    state = reading.state_of(table)
    assert state["vp"] == {"Ana": 4, "Bruno": 3, "Caio": 1}  # the referee has judged

    page.goto(table.get_absolute_url())
    projector = page.context.new_page()
    # The projector asks every 0.4 s, not 3 s (the journeys' QUICK_POLLS): the same poll that
    # brings each step opened on the laptop, only sooner.
    projector.add_init_script(QUICK_POLLS)
    projector.goto(f"/tables/{table.pk}/projector/")

    # Not one step open: the whole table page and the projector hold no result.
    for screen in (page, projector):
        text = screen.locator("body").inner_text()
        assert not RESULT.search(text), RESULT.search(text)
        assert "data-pick" not in screen.content()
    assert scores(page) == [["0", "0"], ["0", "0"], ["0", "0"]]
    by_turn = page.locator(".by-turn tbody tr").first.locator("td")
    expect(by_turn).to_have_text(["·", "·", "·"])
    expect(page.locator("#tale-1")).to_contain_text("Being revealed")
    expect(projector.locator(".projector-reveal li.closed")).to_have_count(3)

    # Step 1 (N): Bruno matched Ana; Ana +2, Bruno +1 appear, and nothing of step 2.
    page.keyboard.press("n")
    step = page.locator('#reveal [data-reveal-step="1"]')
    expect(step.locator(".outcome")).to_have_text("Some of the audience matched: Ana gets +2.")
    assert scores(page) == [["2", "0"], ["1", "0"], ["0", "0"]]
    expect(by_turn).to_have_text(["+2", "+1", "·"])
    expect(page.locator('#reveal [data-reveal-step="2"] .outcome')).to_have_count(0)
    # the projector follows by itself (its poll), to the same step
    expect(projector.locator('.projector-reveal li.open[data-reveal-step="1"]')).to_contain_text(
        "Ana picked 2", timeout=TIMEOUT_MS
    )
    expect(projector.locator(".projector-reveal li.closed")).to_have_count(2)

    # A reload keeps the step where it is.
    page.reload()
    expect(page.locator("#reveal .reveal-step.is-open")).to_have_count(1)
    assert scores(page) == [["2", "0"], ["1", "0"], ["0", "0"]]

    # Steps 2 and 3, then the turn's total (Bruno's set bonus): everything, at last.
    page.get_by_role("button", name=re.compile("Open step 2")).click()
    expect(page.locator("#reveal .reveal-step.is-open")).to_have_count(2)
    expect(page.locator('.actions a[href="#reveal"]')).to_have_text("To step 3 of the reveal")
    page.get_by_role("button", name=re.compile("Open step 3")).click()
    expect(page.locator('#reveal [data-reveal-step="3"] .outcome')).to_have_text(
        "Nobody matched: Ana gets a red card."
    )
    assert scores(page)[0] == ["4", "1"]
    expect(page.locator(".bonus")).to_have_count(0)
    # What is left is the turn's points, not a fourth step of a three-step story (in Japanese
    # "step" is the story's question: 設問4 named a question the story does not have).
    to_next = page.locator('.actions a[href="#reveal"]')
    expect(to_next).to_have_text("To the points of this turn")
    page.get_by_role("button", name=re.compile("Open the points")).click()
    expect(page.locator(".bonus")).to_contain_text("Bruno +2")
    assert scores(page) == [["4", "1"], ["3", "0"], ["1", "0"]]
    expect(by_turn).to_have_text(["+41", "+3", "+1"])
    expect(page.locator("#tale-1 .tale-gains")).to_contain_text("Bruno +3")
    # the next turn goes on, and the projector shows its slots again
    expect(page.locator(".actions h2")).to_have_text("Bruno is the bard")
    expect(projector.locator(".projector-reveal")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(projector.locator(".projector-caption")).to_contain_text("Bruno is the bard")
