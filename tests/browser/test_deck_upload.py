"""A deck uploaded through the real form, in Chromium: the page answers at once, says how
many pictures are ready and follows their cleaning by itself (its htmx poll) until the deck's
cards are there."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from amnesia_site.workers import work
from games.amnesia_stories import deck_queue
from games.amnesia_stories.models import CustomDeck
from tests.games.amnesia_stories.test_decks import IDS, good_files, make_zip
from tests.workers import run_queued

from .helpers import QUICK_HTMX_POLLS, log_in


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_the_deck_page_follows_the_pictures_being_prepared(page, django_user_model):
    log_in(page, django_user_model)
    page.add_init_script(QUICK_HTMX_POLLS)  # the deck's page asks every 0.4 s, not 2 s
    page.goto(reverse("amnesia_stories:deck_upload"))
    page.get_by_label("Deck name").fill("Forest deck")
    archive = make_zip(good_files())
    page.get_by_label("ZIP of images").set_input_files(
        files=[{"name": "deck.zip", "mimeType": "application/zip", "buffer": archive.read()}]
    )
    page.get_by_role("button", name="Upload and check").click()
    status = page.get_by_test_id("deck-status")
    expect(status).to_have_attribute("data-status", "cleaning")
    expect(status).to_contain_text(f"Preparing the pictures: 0 of {len(IDS)} ready.")

    deck = CustomDeck.objects.get()
    deck_queue.clean_pictures.call(deck.pk, 0, 5)  # a worker on its way
    expect(status).to_contain_text(f"Preparing the pictures: 5 of {len(IDS)} ready.")
    run_queued((work.PICTURES,))  # and done
    expect(status).to_have_attribute("data-status", "ready")
    expect(status.locator("img")).to_have_count(len(IDS))
    expect(page.get_by_role("link", name="Play with it")).to_be_visible()
