"""axe-core over the site's main pages, in Chromium: no critical and no serious violation.

axe comes bundled with ``axe-playwright-python`` (no network). Each page is checked as a
visitor first sees it; the tables are mid-game, so their moves, forms and boards are on the
page. Run on its own after a merge: ``pytest -n 0 tests/browser/test_accessibility.py``.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Group
from django.urls import reverse
from playwright.sync_api import expect

from games.playtests.models import DESIGNERS_GROUP
from games.rules import get_game
from games.services import new_tables, reading, writing
from stories.samples import sample_script
from tests.browser.helpers import log_in, settled, wait_for
from tests.playtests.conftest import builtin, many_reports
from tests.tables import contest_in_play

BLOCKING = {"critical", "serious"}
AXE = Axe()
# Only the violations come back (axe-playwright-python's default): their nodes in full, not
# every node that passed.
AXE_OPTIONS = {"resultTypes": ["violations"]}
# axe's rules, among those it runs by default, that read the colours on the page (its tag
# "cat.color" without color-contrast-enhanced, AAA and off by default): what the light palette
# can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
# Every animation on the page at its end: a transition started by a change of palette shows
# in document.getAnimations() (which brings the style up to date first) until it has run.
DRAWN_AFTER_TRANSITIONS = "() => document.getAnimations().every((a) => a.playState === 'finished')"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.STORY_CACHE_DIR = str(tmp_path / "cache")


def blocking(page, url: str) -> list[str]:
    """The critical and serious violations axe finds on ``url``, one line per element, in
    the dark palette (the default) and the light one (a device that asks for it).

    The page is loaded once, in the dark palette, and axe run on it with all its rules; then
    the device asks for the light palette and axe runs again with the rules that read colours
    (``COLOUR_RULES``). The light palette is a ``color-scheme`` and custom properties of colour
    and shadow, nothing else (static/css/app.css's ``prefers-color-scheme: light``): the
    markup, the layout and what is visible are the same, so every other rule would find on the
    second pass what it found on the first. (Loading the page again for the light palette and running every rule over
    it cost a sixth of this module's CPU time, Chromium's included: 30.7 s against 26 s.)
    Colours are axe's costliest rule all the same, some two thirds of a run."""
    page.emulate_media(color_scheme="dark")
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response)
    # Drawn and settled: its resources and fonts loaded, no htmx request or swap under
    # way. (Playwright's "networkidle", waited for here before, is half a second with no
    # request at all, and a live page asks the server every few seconds: it cost at least
    # 0.5 s a page and scheme, 13 s of this module's 40.)
    settled(page)
    page.evaluate(AXE.axe_script)  # axe, once a page (Axe.run would inject it at each run)
    lines = violations(page, url, "dark", AXE_OPTIONS)
    page.emulate_media(color_scheme="light")
    # The new colours reached, not caught half-way through their CSS transitions (the
    # buttons' background and border colours ease over 0.15 s).
    wait_for(page, DRAWN_AFTER_TRANSITIONS)
    return lines + violations(
        page, url, "light", AXE_OPTIONS | {"runOnly": {"type": "rule", "values": COLOUR_RULES}}
    )


def violations(page, url: str, scheme: str, options: dict) -> list[str]:
    found = page.evaluate("(options) => axe.run(document, options)", options)["violations"]
    return [
        f"{url} ({scheme}): {v['id']} ({v['impact']}): {v['help']} at {node['target']}"
        f" — {node.get('failureSummary', '')}"
        for v in found
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


def check(page, urls: list[str]) -> None:
    problems = [line for url in urls for line in blocking(page, url)]
    assert not problems, "\n".join(["axe found:", *problems])


def test_pages_anyone_may_open(page) -> None:
    check(page, ["/", "/stories/", reverse("playtests:public_report", args=["amnesia"])])


def contest_after_a_contest(gm):
    """A contest table in its penalties: the board shows who won and who lost."""
    table = contest_in_play(gm, seed=3)
    challenge = {"do": "challenge", "target": "Bo", "contest": "pies", "attribute": "muscle"}
    writing.play_many(table, [{"by": "Ana", **challenge, "named": True}], None)
    writing.play_many(table, [{"by": "Bo", "do": "accept", "attribute": "coolness"}], None)
    referee = get_game("contest")
    while reading.state_of(table)["phase"] == "contest":
        state = reading.state_of(table)
        name, play = next(
            (n, m)
            for n in ("Ana", "Bo")
            for m in referee.legal_moves(state, n)
            if m["do"] == "play"
        )
        writing.play_many(
            table, [{"by": name, "do": "play", "card": play["choices"]["card"][0]}], None
        )
    assert reading.state_of(table)["phase"] == "penalty"
    return table


@pytest.mark.long
def test_a_game_masters_pages(page, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    amnesia = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno", "Caio"], seed=1)
    writing.play_many(amnesia, [{"by": "Ana", "do": "continue"}], 0, gm)  # the narration box shows
    challenge = new_tables.create_table(
        gm, "amnesia", ["Ana", "Bruno"], seed=1, deck_mode="physical"
    )
    for move in ({"do": "continue"}, {"do": "insist", "text": "No."}, {"do": "refuse"}):
        by = "Bruno" if move["do"] == "insist" else "Ana"
        writing.play_many(challenge, [{"by": by, **move}], None, gm)  # the card grid shows
    stories = new_tables.create_table(gm, "amnesia_stories", ["Ana", "Bruno", "Caio"], seed=2)
    told = new_tables.create_table(gm, "amnesia_stories", ["Ana", "Bruno", "Caio"], seed=2)
    journey = reading.state_of(told)["journey"]
    writing.play_many(
        told, [{"by": "Ana", "do": "tell", "story": journey[:3], "text": "Off."}], 0, gm
    )
    contest = contest_after_a_contest(gm)
    finished = new_tables.import_script(sample_script("en"), gm, name="Room 714")
    page.goto(reverse("stories:for_table", args=[finished.pk]))
    page.get_by_test_id("make-book").click()  # the draft is made by a POST, never a GET
    expect(page.locator(".book-title")).to_have_text("Room 714")
    story = page.url
    check(
        page,
        [
            "/",
            "/tables/new/?game=amnesia",
            amnesia.get_absolute_url(),
            challenge.get_absolute_url(),
            stories.get_absolute_url(),
            reverse("amnesia_stories:answer", args=[told.pk, 0]),  # pass the laptop
            reverse("amnesia_stories:projector", args=[told.pk]),
            contest.get_absolute_url(),
            reverse("contest:seat", args=[contest.seats.get(name="Ana").token]),
            # the players' own phones in the other two games
            reverse("amnesia:seat", args=[amnesia.seats.get(name="Bruno").token]),
            reverse("amnesia_stories:seat", args=[told.seats.get(name="Bruno").token]),
            story,
            reverse("stories:for_table", args=[amnesia.pk]),  # no draft yet: the button
        ],
    )


def test_the_designers_dashboard(page, django_user_model) -> None:
    designer = log_in(page, django_user_model, username="designer")
    designer.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    owner = django_user_model.objects.create_user(username="host")
    # Reports to chart: the dashboard with its figures, charts and impressions drawn.
    many_reports(owner, 4, [builtin("amnesia_stories", "Amnesia Stories draft 4")])
    check(page, [reverse("playtests:dashboard", args=["amnesia_stories"])])
