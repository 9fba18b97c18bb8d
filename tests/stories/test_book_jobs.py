"""The book off the request (stories.jobs): kept per version, language and page size; built
again after an edit; a long one printed by the worker while a page waits; a failed build
reported in words; one interrupted by a restart started again. Real WeasyPrint throughout."""

from __future__ import annotations

import socket
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from stories import jobs, services
from stories import pdf as story_pdf
from stories.models import BookBuild
from tests.stories.conftest import make_story

pytestmark = pytest.mark.django_db

Status = BookBuild.Status


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """Every WeasyPrint run of a book (its language), the real one underneath."""
    calls: list[str] = []
    real = story_pdf.render_book_pdf

    def counting(book, size="a5"):
        calls.append(book.language)
        return real(book, size)

    monkeypatch.setattr(story_pdf, "render_book_pdf", counting)
    return calls


@pytest.fixture
def long_books(monkeypatch):
    """Every book counts as long (the sample stories have a handful of passages)."""
    monkeypatch.setattr(jobs, "LONG", 2)


def pdf_url(story, size="a5") -> str:
    return reverse("stories:pdf", args=[story.pk]) + f"?size={size}"


def status_url(story, size="a5") -> str:
    return reverse("stories:pdf_status", args=[story.pk]) + f"?size={size}"


def test_a_short_book_is_printed_once_and_kept(gm, gm_client, renders):
    story = make_story(gm, "en")
    first = gm_client.get(pdf_url(story))
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    again = gm_client.get(pdf_url(story))
    assert again.content == first.content
    assert renders == ["en"]
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.READY and build.version == jobs.version(story)
    assert jobs.pdf_path(build).read_bytes() == first.content


def test_kept_per_language_and_page_size(gm, gm_client, renders):
    story = make_story(gm, "en")
    english = gm_client.get(pdf_url(story)).content
    story.language = "pt-br"
    story.save()
    portuguese = gm_client.get(pdf_url(story)).content
    assert portuguese != english
    gm_client.get(pdf_url(story, "a4"))
    story.language = "en"
    story.save()
    assert gm_client.get(pdf_url(story)).content == english  # still kept
    assert renders == ["en", "pt-br", "pt-br"]
    assert BookBuild.objects.filter(story=story, status=Status.READY).count() == 3


def test_built_again_after_an_edit_and_the_old_version_dropped(gm, gm_client, renders):
    story = make_story(gm, "en")
    gm_client.get(pdf_url(story))
    old = BookBuild.objects.get(story=story)
    seq = services.make_book(story).chapters[0].passages[0].seq
    services.edit_narration(story, seq, "She wakes, and the floor is warm.", gm)
    assert jobs.version(story) != old.version
    gm_client.get(pdf_url(story))
    assert len(renders) == 2
    assert list(BookBuild.objects.filter(story=story).values_list("version", flat=True)) == [
        jobs.version(story)
    ]
    assert not jobs.pdf_path(old).exists()


def test_a_long_book_is_printed_by_the_worker_while_a_page_waits(
    gm, gm_client, renders, long_books
):
    story = make_story(gm, "en")
    asked = gm_client.get(pdf_url(story))
    assert asked.status_code == 302 and asked["Location"] == status_url(story)
    assert renders == []  # nothing printed in the request
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.QUEUED and build.passages > 2
    waiting = gm_client.get(status_url(story))
    assert waiting.status_code == 200
    page = waiting.content.decode()
    assert 'http-equiv="refresh"' in page and "waiting to be printed" in page
    detail = gm_client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    assert str(Status.QUEUED.label) in detail  # the phase on the story page
    assert status_url(story) in detail.replace("&amp;", "&")

    assert jobs.run_queued() == 1  # what the worker thread does
    assert renders == ["en"]
    ready = gm_client.get(status_url(story))
    assert ready.status_code == 302 and ready["Location"] == pdf_url(story)
    book = gm_client.get(pdf_url(story))
    assert book.status_code == 200 and book.content.startswith(b"%PDF")
    assert renders == ["en"]


def test_a_kept_long_book_downloads_without_building_it(gm, gm_client, long_books, monkeypatch):
    story = make_story(gm, "en")
    gm_client.get(pdf_url(story))
    jobs.run_queued()

    def no_book(_story):
        raise AssertionError("a kept book needs no building")

    monkeypatch.setattr(services, "make_book", no_book)
    started = time.perf_counter()
    response = gm_client.get(pdf_url(story))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert time.perf_counter() - started < 2  # the issue asks for 0.2 s; the bench prints it


def test_a_failed_build_is_reported_in_words_and_may_be_tried_again(
    gm, gm_client, long_books, monkeypatch
):
    story = make_story(gm, "en")
    gm_client.get(pdf_url(story))
    real = story_pdf.render_book_pdf

    def broken(book, size="a5"):
        raise RuntimeError("the printer ran out of ink")

    monkeypatch.setattr(story_pdf, "render_book_pdf", broken)
    jobs.run_queued()
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.FAILED
    assert build.error == "The book could not be printed: the printer ran out of ink"
    page = gm_client.get(status_url(story))
    assert page.status_code == 200
    text = page.content.decode()
    assert "The book could not be printed: the printer ran out of ink" in text
    assert 'http-equiv="refresh"' not in text  # nothing to wait for
    detail = gm_client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    assert str(Status.FAILED.label) in detail

    monkeypatch.setattr(story_pdf, "render_book_pdf", real)
    assert gm_client.post(status_url(story)).status_code == 302
    assert BookBuild.objects.get(pk=build.pk).status == Status.QUEUED
    jobs.run_queued()
    assert gm_client.get(pdf_url(story)).content.startswith(b"%PDF")


def test_a_build_interrupted_by_a_restart_is_started_again(gm, long_books, renders):
    story = make_story(gm, "en")
    assert isinstance(jobs.pdf_or_build(story, "a5"), BookBuild)
    # A process of this host that is gone (no such pid) had started it.
    dead = f"{socket.gethostname()}:999999999:gone"
    build = jobs.claim(worker=dead)
    assert build is not None and build.status == Status.RENDERING
    assert jobs.requeue_stale() == 1
    assert BookBuild.objects.get(pk=build.pk).status == Status.QUEUED
    jobs.run_queued()
    assert BookBuild.objects.get(pk=build.pk).status == Status.READY
    assert renders == ["en"]


def test_a_build_rendering_for_too_long_elsewhere_is_started_again(gm, long_books):
    story = make_story(gm, "en")
    jobs.pdf_or_build(story, "a5")
    build = jobs.claim(worker="another-host:1:abc")
    assert jobs.requeue_stale() == 0  # another host's process: it may still be at work
    BookBuild.objects.filter(pk=build.pk).update(
        started_at=timezone.now() - jobs.STALE_AFTER - timedelta(seconds=1)
    )
    assert jobs.requeue_stale() == 1
    assert BookBuild.objects.get(pk=build.pk).status == Status.QUEUED


def test_a_build_of_a_story_changed_meanwhile_says_so(gm, long_books):
    story = make_story(gm, "en")
    jobs.pdf_or_build(story, "a5")
    story.title = "Another title"
    story.save()
    jobs.run_queued()
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.FAILED
    assert "changed before its book was printed" in build.error


def test_the_shared_link_waits_and_downloads_too(gm, client, long_books):
    story = make_story(gm, "en", visibility="unlisted", published=True)
    url = reverse("stories:shared_pdf", args=[story.secret])
    asked = client.get(url)
    wait = reverse("stories:shared_pdf_status", args=[story.secret]) + "?size=a5"
    assert asked.status_code == 302 and asked["Location"] == wait
    jobs.run_queued()
    assert client.get(wait)["Location"] == url + "?size=a5"
    assert client.get(url).content.startswith(b"%PDF")


@pytest.mark.django_db(transaction=True)
def test_the_worker_thread_prints_the_book(gm, gm_client, long_books):
    """The real thing: the request queues the build and a thread of this process prints it
    (committed rows: the thread has its own database connection)."""
    story = make_story(gm, "en")
    assert gm_client.get(pdf_url(story)).status_code == 302
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        response = gm_client.get(status_url(story))
        if response.status_code == 302:
            break
        time.sleep(0.2)
    assert response.status_code == 302 and response["Location"] == pdf_url(story)
    assert gm_client.get(pdf_url(story)).content.startswith(b"%PDF")
