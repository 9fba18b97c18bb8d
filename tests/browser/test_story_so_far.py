"""The table page shows the last scenes of a long game; "Show earlier scenes" puts the
earlier ones in place above them (htmx), page by page, back to the first scene."""

from __future__ import annotations

from playwright.sync_api import expect

from games import story as kept_story
from games.services import new_tables
from tests.browser.helpers import log_in
from tests.games.amnesia.test_story_long import long_script_of


def test_earlier_scenes_load_in_place_back_to_the_first(page, django_user_model, monkeypatch):
    monkeypatch.setattr(kept_story, "PAGE", 4)  # the live server runs in this process
    gm = log_in(page, django_user_model)
    table = new_tables.import_script(long_script_of(40), gm)
    page.goto(table.get_absolute_url())
    story = page.locator("section.story")
    scenes = story.locator("article.story-entry")
    expect(scenes).to_have_count(4 - story.locator(".story-pass").count())

    def scene_numbers() -> list[int]:
        headings = story.locator("article.story-entry h3").all_inner_texts()
        return [int(h.split()[1]) for h in headings if h.startswith("Scene ")]

    first = scene_numbers()
    assert first and first[0] > 1  # the last scenes only
    earlier = story.get_by_role("link", name="Show earlier scenes")
    for _ in range(20):
        if earlier.count() == 0:
            break
        shown = scenes.count()
        earlier.first.click()
        expect(scenes).not_to_have_count(shown)  # the earlier scenes came
    expect(earlier).to_have_count(0)
    numbers = scene_numbers()
    assert numbers == list(range(1, numbers[-1] + 1))  # every scene, in order, once
    assert numbers[-len(first) :] == first
