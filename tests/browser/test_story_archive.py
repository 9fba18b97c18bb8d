"""In Chromium: a finished game's story is polished, published, found in the archive and
downloaded as a PDF."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from games.services import new_tables
from stories.samples import ENGLISH, sample_script
from tests.browser.helpers import log_in


def test_publish_find_and_download_a_story(page, django_user_model, settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "cache")
    settings.MEDIA_ROOT = str(tmp_path / "media")
    gm = log_in(page, django_user_model)
    # The game was played up to its last move (test_amnesia_game plays moves by clicking);
    # it is finished here, in the page, with everyone's agreement.
    script = sample_script("en")
    last = script["moves"].pop()
    assert last["do"] == "end_story"
    table = new_tables.import_script(script, gm, name="Room 714")
    assert table.status == "active"
    page.goto(f"/tables/{table.pk}/")
    for name in last["agreed"]:
        page.locator(".end-story").get_by_label(name).check()
    page.locator(".end-story textarea").fill(last.get("text", ""))
    page.get_by_role("button", name="End the story").click()
    expect(page.locator(".actions h2")).to_have_text("The story is over")
    table.refresh_from_db()
    assert table.status == "finished"

    # From the table to its story: a private draft titled after the table.
    page.get_by_test_id("story-link").click()
    expect(page.locator(".book-title")).to_have_text("Room 714")
    expect(page.get_by_test_id("story-tools")).to_contain_text("Draft")
    expect(page.locator(".chapter-title").first).to_have_text(re.compile("Chapter 1", re.I))

    # Polish the first passage.
    page.locator(".passage .edit-link").first.click()
    page.get_by_label("Narration").fill("She wakes, and the floor is warm as a hand.")
    page.get_by_role("button", name="Save this version").click()
    expect(page.locator(".passage").first).to_contain_text("the floor is warm as a hand")

    # Name the book.
    page.get_by_role("link", name="Edit the title page").click()
    page.get_by_label(re.compile(r"^Title:?$")).fill("The Warm Floor")
    page.get_by_label("Subtitle").fill("An Amnesia story")
    page.get_by_label("Tags").fill("noir, hospital")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".book-title")).to_have_text("The Warm Floor")

    # Publish it, public.
    page.get_by_label("Visibility").select_option("public")
    page.get_by_role("button", name="Publish", exact=True).click()
    expect(page.get_by_test_id("story-tools")).to_contain_text("Published")

    # A reader who is not logged in finds it in the archive by a word of its narration.
    page.context.clear_cookies()
    page.goto("/stories/")
    page.get_by_label("Search").fill("warm as a hand")
    page.get_by_role("button", name="Search").click()
    # The archive before the search already lists one story: wait for the search's own page.
    expect(page).to_have_url(re.compile(r"[?&]q=warm"))
    results = page.locator(".archive-item")
    expect(results).to_have_count(1)
    expect(results.first).to_contain_text("The Warm Floor")
    page.get_by_role("link", name="noir").first.click()
    expect(page).to_have_url(re.compile(r"[?&]tag=noir"))
    expect(page.locator(".archive-item")).to_have_count(1)
    page.get_by_role("link", name="The Warm Floor").click()
    expect(page.locator(".book-title")).to_have_text("The Warm Floor")
    expect(page.locator(".book")).to_contain_text(ENGLISH["memory"])
    expect(page.locator(".edit-link")).to_have_count(0)

    # A book not kept yet is asked for with a POST (a short one is printed in it), then downloads.
    # The printing happens inside the request: a machine busy with other work takes more than
    # the suite's 10 s for it (seen at 4x load), so this step waits up to a minute.
    with page.expect_download(timeout=60_000) as download_info:
        page.get_by_role("button", name="A5").click(timeout=60_000)
    download = download_info.value
    assert download.suggested_filename == "the-warm-floor-a5.pdf"
    data = Path(download.path()).read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(data) > 20_000
