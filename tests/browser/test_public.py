"""A visitor with no account, in a real browser on a phone: the home page shows the three
games with their pictures, the rules open without logging in, and one press of the demo button
lands on the demo tables, whose page leads to the rules as that table plays them."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from games import registry

PHONE = {"width": 390, "height": 844}


def test_a_visitor_reads_the_rules_and_tries_the_demo(page, tmp_path) -> None:
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 - the command's chatter
    errors: list[str] = []
    # Every request answered, but the favicon (not this page's to provide).
    page.on(
        "response",
        lambda r: (
            r.status >= 400 and "favicon" not in r.url and errors.append(f"{r.status} {r.url}")
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size(PHONE)
    page.goto("/")
    for kit in registry.kits():
        expect(page.get_by_role("heading", name=str(kit.title), exact=True)).to_be_visible()
    pictures = page.locator(".game-card__picture")
    expect(pictures).to_have_count(len(registry.kits()))
    for index in range(pictures.count()):  # every picture loaded (a local SVG)
        assert pictures.nth(index).evaluate("img => img.complete && img.naturalWidth > 0")
    page.screenshot(path=str(tmp_path / "home.png"), full_page=True)

    page.get_by_role("link", name="How Contest plays").click()
    expect(page.get_by_role("heading", name="Contest: how it plays")).to_be_visible()
    expect(page.get_by_role("heading", name="Advice for the storytellers")).to_be_visible()
    expect(page.get_by_test_id("rules-credit")).to_have_text("A game by Phillip Foster.")
    page.screenshot(path=str(tmp_path / "rules.png"), full_page=True)

    page.goto("/")
    page.get_by_role("button", name="Try the demo tables").click()
    expect(page.get_by_test_id("current-user")).to_have_text("demo")
    page.get_by_role("link", name="The stranger’s ring").or_(
        page.get_by_role("link", name="The stranger's ring")
    ).first.click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    page.get_by_role("link", name="Rules of this table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/rules/$"))
    expect(page.get_by_text(re.compile("These are the rules as the table"))).to_be_visible()
    assert errors == []


def test_the_public_pages_pass_axe(page) -> None:
    """No critical or serious accessibility violation on the pages a visitor reads first (the
    check needs axe-playwright-python, the accessibility suite's dependency)."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 - the command's chatter
    axe = axe_module.Axe()
    found = {}
    for path in ["/", "/rules/amnesia/", "/rules/amnesia_stories/", "/rules/contest/", "/nope/"]:
        page.goto(path)
        results = axe.run(page)
        found[path] = [
            (v["id"], v["impact"])
            for v in results.response["violations"]
            if v["impact"] in ("critical", "serious")
        ]
    assert found == {path: [] for path in found}
