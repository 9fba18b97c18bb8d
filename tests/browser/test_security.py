"""The pages under the site's Content Security Policy, in Chromium: no violation anywhere a
game is played or a story read; and a move the server could not apply (the database busy, the
connection lost) leaves the form and its narration as they were, with the reason above it."""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory
from django.urls import reverse
from playwright.sync_api import expect

from amnesia_site.errors import database_busy
from games import registry
from games.services import new_tables, reading, writing
from stories.models import Story
from tests.browser.helpers import log_in, settled
from tests.stories.conftest import make_story

# Collected in the page itself (Playwright adds it through the DevTools protocol, which the
# policy does not govern), beside what Chromium prints to the console.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} in ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch_csp(page) -> list[str]:
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.add_init_script(WATCH)
    return console


def violations(page, console: list[str]) -> list[str]:
    return console + page.evaluate("() => window.__csp")


def visit(page, console: list[str], url: str) -> None:
    page.goto(url)
    expect(page.locator("main")).to_be_visible()
    settled(page)  # what the page loads as it is drawn (its fonts, an htmx panel) included
    assert violations(page, console) == [], url


def test_the_watch_sees_a_violation(page) -> None:
    """Proof that the listeners below would report one: an inline script, refused."""
    console = watch_csp(page)
    page.goto("/accounts/login/")
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.ran = true'; document.body.append(s); }"
        )
    assert page.evaluate("() => window.ran === undefined")
    found = violations(page, console)
    assert any("script-src" in v for v in found), found


@pytest.mark.long
def test_no_page_of_a_game_or_a_story_breaks_the_policy(page, django_user_model) -> None:
    console = watch_csp(page)
    visit(page, console, "/accounts/login/")  # the login page, as a visitor comes to it
    gm = log_in(page, django_user_model)  # the page after it, "/", is visited below

    amnesia = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=4)
    stories = new_tables.create_table(gm, "amnesia_stories", ["Ana", "Bo", "Cy"], name="Feet")
    contest = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="physical")
    for url in (
        "/",
        *(f"{reverse('games:table_new')}?game={game}" for game, _label in registry.choices()),
        amnesia.get_absolute_url(),
        stories.get_absolute_url(),
        reverse("amnesia_stories:projector", args=[stories.pk]),
        contest.get_absolute_url(),
        reverse("contest:character_new"),
        reverse("contest:seat", args=[contest.seats.get(name="Ana").token]),
    ):
        visit(page, console, url)

    # A move through htmx: the swapped panel keeps to the policy too.
    page.goto(amnesia.get_absolute_url())
    panel = page.locator("#table-panel")
    panel.get_by_role("button", name=re.compile("Continue the story")).click()
    expect(panel.locator(".actions h2")).to_have_text("Ana narrates")
    assert violations(page, console) == []

    # The story: the author's page, and the secret link as a reader sees it.
    story = make_story(gm, visibility=Story.Visibility.UNLISTED, published=True)
    visit(page, console, story.get_absolute_url())
    visit(page, console, f"/stories/s/{story.secret}/")
    visit(page, console, reverse("stories:archive"))


def busy_answer() -> tuple[int, dict[str, str], str]:
    """What the server answers an htmx move when the database is busy (amnesia_site.errors)."""
    request = RequestFactory().post("/", HTTP_HX_REQUEST="true")
    request.htmx = True
    response = database_busy(request)
    return response.status_code, dict(response.items()), response.content.decode()


def test_a_busy_server_or_a_lost_connection_keeps_the_narration(page, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=4)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    page.goto(table.get_absolute_url())
    panel = page.locator("#table-panel")
    box = page.locator("#narration")
    box.fill("She wakes with blood on her hands.")
    end_scene = panel.get_by_role("button", name=re.compile("End the scene"))

    status, headers, body = busy_answer()
    assert status == 503
    page.route(
        re.compile(r"/move/$"),
        lambda route: route.fulfill(status=status, headers=headers, body=body),
    )
    end_scene.click()
    notice = page.locator("[data-request-notice]")
    expect(notice).to_have_text(re.compile(r"^The table is busy, so nothing you sent was applied"))
    expect(notice).to_have_attribute("role", "alert")
    # Nothing was swapped: the same panel, the narration as typed, the button there to resend.
    expect(panel).to_have_attribute("data-seq", "1")
    expect(box).to_have_value("She wakes with blood on her hands.")
    expect(end_scene).to_be_visible()

    # The connection drops: the same, in other words.
    page.unroute(re.compile(r"/move/$"))
    page.route(re.compile(r"/move/$"), lambda route: route.abort("internetdisconnected"))
    end_scene.click()
    expect(notice).to_have_text(re.compile(r"^The connection was lost, so nothing was sent"))
    expect(notice).to_have_count(1)
    expect(box).to_have_value("She wakes with blood on her hands.")

    # Sent again once the server answers: played, and the notice goes with the old panel.
    page.unroute(re.compile(r"/move/$"))
    end_scene.click()
    expect(panel.locator(".actions h2")).to_have_text("Bruno’s turn")
    expect(notice).to_have_count(0)
    expect(panel.locator(".story")).to_contain_text("She wakes with blood on her hands.")
    assert reading.live_moves(table)[-1].text == "She wakes with blood on her hands."
