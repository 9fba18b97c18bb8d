"""The languages in Chromium: the switcher's choice follows a logged-in person, a table made
in Japanese keeps its language, and its Japanese text is drawn with the bundled web font (the
machine's own CJK fonts are not needed: the font is fetched from the site, offline)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from amnesia_site.accounts.models import Profile
from games.models import Table
from tests.browser.helpers import log_in, wait_for

BUNDLED_FONT_LOADED = """() => [...document.fonts].some(
    (face) => face.family.replace(/"/g, "") === "Amnesia Serif JP" && face.status === "loaded")"""


def test_a_japanese_table_is_drawn_with_the_bundled_font(page, django_user_model) -> None:
    user = log_in(page, django_user_model)
    page.goto("/")
    page.get_by_label("Language").select_option("ja")
    page.locator(".language-form button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert Profile.objects.get(user=user).language == "ja"

    page.goto("/tables/new/?game=amnesia")
    expect(page.locator("#id_language")).to_have_value("ja")  # the maker's language
    page.locator("textarea[name=players]").fill("アナ\nブルーノ\n山田花子")
    page.locator("form.stacked-form button.button--primary").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get()
    assert table.language == "ja"

    # The names are on the page, and the browser fetched the bundled cut to draw them.
    expect(page.get_by_text("山田花子").first).to_be_visible()
    wait_for(page, BUNDLED_FONT_LOADED)
    used = page.evaluate("() => document.fonts.check('16px \"Amnesia Serif JP\"', '山田花子')")
    assert used
