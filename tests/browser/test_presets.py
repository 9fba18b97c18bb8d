"""The draft 3 preset from the new-table form, in Chromium: one click fills its options in
place, four players start, and the table deals six slots and six journey cards."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import Table
from games.services import reading
from tests.browser.helpers import log_in


def test_the_draft_3_preset_starts_a_table_of_four(page, django_user_model, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"  # the card pictures are drawn on first use
    log_in(page, django_user_model)
    page.goto("/tables/new/?game=amnesia_stories")
    page.get_by_label(re.compile("Players, in seat order")).fill("Ana\nBruno\nCaio\nDuda")
    page.get_by_role("link", name="Draft 3", exact=True).click()
    expect(page.locator("[name=opt_choices]")).to_have_value("6")
    expect(page.locator("[name=opt_all_matched]")).to_have_value("zero_at_climax")
    expect(page.get_by_test_id("preset-changes")).to_contain_text("6 choices instead of 5")
    page.get_by_role("button", name="Start the table").click()
    expect(page.locator("#table-panel .slots img")).to_have_count(6)
    table = Table.objects.get()
    assert table.seats.count() == 4
    assert (table.ruleset.name, table.ruleset.version) == ("Amnesia Stories draft 3", 2)
    state = reading.state_of(table)
    assert (state["turns"], len(state["journey"]), state["deck_count"]) == (8, 6, 36)
