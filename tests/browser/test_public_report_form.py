"""The public report form in Chromium: a failed form opens on its error summary, whose links
take the focus to each field; optional answers stay optional."""

from __future__ import annotations

from playwright.sync_api import expect

from games.playtests import forms as playtest_forms
from games.playtests.models import ExternalReport, Impression


def test_errors_take_the_focus_and_lead_to_each_field(page, monkeypatch) -> None:
    # The form refuses a post sent faster than a person types; this person is a script.
    monkeypatch.setattr(playtest_forms, "MIN_FILL_SECONDS", 0)
    page.goto("/playtests/report/amnesia_stories/")
    # a name typed in a player's box, no rating: optional stays optional
    page.locator("#id_p-0-player").fill("Dora")
    page.locator("#id_p-0-best_moment").fill("The shipwreck")
    page.get_by_role("button", name="Send the report").click()

    summary = page.get_by_test_id("error-summary")
    expect(summary).to_be_visible()
    expect(summary).to_be_focused()
    # the players, the length (the draft is the newest one unless changed: issue 26)
    expect(summary.get_by_role("link")).to_have_count(2)
    assert page.evaluate("() => window.scrollY") < 200  # at the top, not below the fold

    summary.get_by_role("link", name="Number of players: This field is required.").click()
    expect(page.locator("#id_players")).to_be_focused()
    page.locator("#id_players").fill("4")
    page.locator("#id_duration_minutes").fill("45")
    page.locator("#id_draft").fill("Draft 5 at the club")
    page.get_by_role("button", name="Send the report").click()

    expect(page.get_by_role("heading", name="Thank you!")).to_be_visible()
    report = ExternalReport.objects.get()
    assert report.publish_consent == ExternalReport.Consent.NO  # never asked for, never given
    impression = Impression.objects.get()
    assert (impression.player, impression.fun, impression.best_moment) == (
        "Dora",
        None,
        "The shipwreck",
    )


def test_without_script_the_summary_still_takes_the_focus(
    browser, transactional_db, live_server, monkeypatch
) -> None:
    monkeypatch.setattr(playtest_forms, "MIN_FILL_SECONDS", 0)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/playtests/report/amnesia_stories/")
        page.get_by_role("button", name="Send the report").click()
        summary = page.get_by_test_id("error-summary")
        expect(summary).to_be_focused()  # its autofocus attribute, no script
    finally:
        context.close()
