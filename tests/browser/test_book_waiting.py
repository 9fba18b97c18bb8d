"""The page waiting for a long book, in a real Chromium, with a real worker process printing
it: the reader asks for the book, the page follows the build by itself (its htmx poll) and
shows the phase the worker is in, then the book."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.stories.conftest import make_story
from tests.workers import let_go, reached, start_worker, stop, wait_for, worker_env

from .helpers import QUICK_HTMX_POLLS, log_in

SLOW_MS = 90_000  # a worker process starting on a busy machine


@pytest.fixture
def story_folders(settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path / "story-cache")
    settings.BOOK_LONG_PASSAGES = 2  # the sample story counts as long


def test_the_waiting_page_shows_the_phase_and_then_the_book(
    page, django_user_model, story_folders, tmp_path
):
    gm = log_in(page, django_user_model)
    page.add_init_script(QUICK_HTMX_POLLS)  # the waiting page asks every 0.4 s, not 2 s
    story = make_story(gm, "en")
    pauses = tmp_path / "pauses"
    pauses.mkdir()
    log = tmp_path / "worker.log"
    worker = start_worker(worker_env(pauses), "--queues", "books", log=log)
    try:
        page.goto(reverse("stories:pdf", args=[story.pk]) + "?size=a5")  # sent to wait
        status = page.get_by_test_id("book-status")
        expect(status).to_have_attribute("data-status", "new")
        page.get_by_test_id("book-ask").click()
        expect(status).to_have_attribute("data-status", "queued")

        build = story.builds.get()
        for phase in ("claim", "reading"):
            let_go(pauses, f"book-{build.pk}-{phase}")
        wait_for(lambda: reached(pauses, f"book-{build.pk}-layout"), "the layout", log=log)
        # The page, left alone, shows the phase the worker is in.
        expect(status).to_have_attribute("data-phase", "layout", timeout=SLOW_MS)
        expect(status.locator("[aria-current=step]")).to_have_text("Laying out the pages")
        expect(status).to_contain_text("The book is being printed")

        for phase in ("layout", "writing"):
            let_go(pauses, f"book-{build.pk}-{phase}")
        download = page.get_by_test_id("book-download")
        expect(download).to_be_visible(timeout=SLOW_MS)
        expect(status).to_contain_text("The book is ready.")
        book = page.request.get(download.get_attribute("href"))
        assert book.ok and book.body().startswith(b"%PDF")
    finally:
        stop(worker)
