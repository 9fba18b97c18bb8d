"""The book off the request (stories.printing): kept per version, language and page size;
built again after an edit; a long one asked for by a POST, queued as a task (Django's Tasks on
the database) and printed by a worker while a page follows it; a failed build reported in
words; one whose worker was lost run again; one stopped on request. Real WeasyPrint and the
real worker loop (in this process here; as real processes in test_book_workers.py)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.workers import work
from amnesia_site.workers.models import WorkerBeat
from stories import pdf as story_pdf
from stories import printing, services
from stories.models import BookBuild
from tests.stories.conftest import PLAYED_AT, make_story
from tests.workers import run_queued

# The same sample story, played at the same time, is printed by most tests: WeasyPrint makes
# its book once (weasyprint_once, tests/stories/conftest.py); each test's printing still counts.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("weasyprint_once"),
    pytest.mark.xdist_group("books"),  # with the other modules that print the same books
]

Status = BookBuild.Status


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """Every WeasyPrint run of a book (its language): in a request or by a worker, the real
    one underneath."""
    calls: list[str] = []
    real, real_lay_out = story_pdf.render_book_pdf, story_pdf.lay_out_book

    def counting(book, size="a5"):
        calls.append(book.language)
        return real(book, size)

    def counting_lay_out(book, size="a5"):
        calls.append(book.language)
        return real_lay_out(book, size)

    monkeypatch.setattr(story_pdf, "render_book_pdf", counting)
    monkeypatch.setattr(story_pdf, "lay_out_book", counting_lay_out)
    return calls


@pytest.fixture
def long_books(settings):
    """Every book counts as long (the sample stories have a handful of passages)."""
    settings.BOOK_LONG_PASSAGES = 2


def pdf_url(story, size="a5") -> str:
    return reverse("stories:pdf", args=[story.pk]) + f"?size={size}"


def status_url(story, size="a5") -> str:
    return reverse("stories:pdf_status", args=[story.pk]) + f"?size={size}"


def tasks() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.order_by("enqueued_at"))


def download(client, story, size="a5"):
    """A book as a reader gets it: asked for (the POST of the story page's size button, which
    prints a short book and sends the reader to its download), then downloaded."""
    asked = client.post(status_url(story, size))
    assert asked.status_code == 302
    return client.get(asked["Location"])


def test_a_short_book_is_printed_once_and_kept(gm, gm_client, renders):
    story = make_story(gm, "en", at=PLAYED_AT)
    # A download's GET prints nothing: it sends the reader to the page that asks for the book.
    sent = gm_client.get(pdf_url(story))
    assert sent.status_code == 302 and sent["Location"] == status_url(story)
    page = gm_client.get(status_url(story)).content.decode()
    assert "it is printed when you ask for it" in page and 'data-testid="book-ask"' in page
    detail = gm_client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    assert 'data-testid="book-ask-a5"' in detail  # the story page's button posts
    assert renders == [] and not BookBuild.objects.exists()
    asked = gm_client.post(status_url(story))
    assert asked.status_code == 302 and asked["Location"] == pdf_url(story)
    first = gm_client.get(pdf_url(story))
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    again = download(gm_client, story)
    assert again.content == first.content
    assert renders == ["en"]
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.READY and build.version == printing.version(story)
    assert printing.pdf_path(build).read_bytes() == first.content
    assert tasks() == []  # nothing queued for a short book


def test_kept_per_language_and_page_size(gm, gm_client, renders):
    story = make_story(gm, "en", at=PLAYED_AT)
    english = download(gm_client, story).content
    story.language = "pt-br"
    story.save()
    portuguese = download(gm_client, story).content
    assert portuguese != english
    download(gm_client, story, "a4")
    story.language = "en"
    story.save()
    assert download(gm_client, story).content == english  # still kept
    assert renders == ["en", "pt-br", "pt-br"]
    assert BookBuild.objects.filter(story=story, status=Status.READY).count() == 3


def test_built_again_after_an_edit_and_the_old_version_dropped(gm, gm_client, renders):
    story = make_story(gm, "en", at=PLAYED_AT)
    download(gm_client, story)
    old = BookBuild.objects.get(story=story)
    seq = services.make_book(story).chapters[0].passages[0].seq
    services.edit_narration(story, seq, "She wakes, and the floor is warm.", gm)
    assert printing.version(story) != old.version
    download(gm_client, story)
    assert len(renders) == 2
    assert list(BookBuild.objects.filter(story=story).values_list("version", flat=True)) == [
        printing.version(story)
    ]
    assert not printing.pdf_path(old).exists()


def test_a_long_book_is_asked_for_by_a_post_and_printed_by_the_worker(
    gm, gm_client, renders, long_books
):
    story = make_story(gm, "en", at=PLAYED_AT)
    asked = gm_client.get(pdf_url(story))
    assert asked.status_code == 302 and asked["Location"] == status_url(story)
    page = gm_client.get(status_url(story))
    assert page.status_code == 200
    text = page.content.decode()
    assert "not printed yet" in text and 'data-testid="book-ask"' in text
    assert 'hx-trigger="every' not in text  # nothing to follow yet
    assert renders == [] and tasks() == []  # a GET only reads: nothing printed, nothing queued

    assert gm_client.post(status_url(story))["Location"] == status_url(story)
    assert gm_client.post(status_url(story)).status_code == 302  # asked twice: queued once
    build = BookBuild.objects.get(story=story)
    (task,) = tasks()
    assert build.status == Status.QUEUED and build.task_id == str(task.pk)
    assert task.queue_name == work.BOOKS and task.status == TaskResultStatus.READY
    waiting = gm_client.get(status_url(story)).content.decode()
    assert 'hx-trigger="every 2s"' in waiting  # followed live
    assert "it is next in the queue" in waiting
    assert "No printer is running right now" in waiting  # no worker answers
    detail = gm_client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    assert str(Status.QUEUED.label) in detail  # the phase on the story page
    assert status_url(story) in detail.replace("&amp;", "&")

    assert run_queued() == 1  # what a worker does
    assert renders == ["en"]
    build.refresh_from_db()
    assert build.status == Status.READY and build.attempts == 1 and build.phase == ""
    assert DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.SUCCESSFUL
    ready = gm_client.get(status_url(story))
    assert ready.status_code == 302 and ready["Location"] == pdf_url(story)
    polled = gm_client.get(status_url(story), headers={"HX-Request": "true"})
    assert polled.status_code == 200 and "The book is ready." in polled.content.decode()
    assert pdf_url(story) in polled.content.decode().replace("&amp;", "&")
    book = gm_client.get(pdf_url(story))
    assert book.status_code == 200 and book.content.startswith(b"%PDF")
    assert renders == ["en"]


def test_the_place_in_the_queue_and_a_worker_that_answers(gm, gm_client, long_books):
    first, second = make_story(gm, "en"), make_story(gm, "en", title="Another")
    gm_client.post(status_url(first))
    gm_client.post(status_url(second))
    page = gm_client.get(status_url(second)).content.decode()
    assert "1 book is before it in the queue" in page
    WorkerBeat.objects.create(
        worker_id="elsewhere-1-abc",
        host="another-machine",
        pid=1,
        process_started=0,
        queues="books",
        beat_at=timezone.now(),
    )
    assert "No printer is running" not in gm_client.get(status_url(second)).content.decode()
    # A worker of the long runs only does not print books.
    WorkerBeat.objects.update(queues="long")
    assert "No printer is running" in gm_client.get(status_url(second)).content.decode()


def test_a_kept_long_book_downloads_without_building_it(gm, gm_client, long_books, monkeypatch):
    story = make_story(gm, "en", at=PLAYED_AT)
    gm_client.post(status_url(story))
    run_queued()

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
    story = make_story(gm, "en", at=PLAYED_AT)
    gm_client.post(status_url(story))
    real = story_pdf.lay_out_book

    def broken(book, size="a5"):
        raise RuntimeError("the printer ran out of ink")

    monkeypatch.setattr(story_pdf, "lay_out_book", broken)
    run_queued()
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.FAILED
    assert build.error == "The book could not be printed: the printer ran out of ink"
    page = gm_client.get(status_url(story))
    assert page.status_code == 200
    text = page.content.decode()
    assert "The book could not be printed: the printer ran out of ink" in text
    assert 'hx-trigger="every' not in text  # nothing to wait for
    detail = gm_client.get(reverse("stories:detail", args=[story.pk])).content.decode()
    assert str(Status.FAILED.label) in detail

    monkeypatch.setattr(story_pdf, "lay_out_book", real)
    assert gm_client.post(status_url(story)).status_code == 302
    assert BookBuild.objects.get(pk=build.pk).status == Status.QUEUED
    assert len(tasks()) == 2
    run_queued()
    assert gm_client.get(pdf_url(story)).content.startswith(b"%PDF")


def _taken_by(worker: WorkerBeat, story) -> BookBuild:
    """The story's build queued, and its task taken by ``worker`` (which then died)."""
    build = printing.ask(story, "a5")
    task = DBTaskResult.objects.get(pk=build.task_id)
    task.claim(worker.worker_id)
    BookBuild.objects.filter(pk=build.pk).update(
        status=Status.RENDERING, phase=BookBuild.Phase.LAYOUT, worker=worker.worker_id, attempts=1
    )
    return build


def test_a_build_whose_worker_process_is_gone_is_run_again(gm, long_books, renders):
    story = make_story(gm, "en", at=PLAYED_AT)
    dead = WorkerBeat.objects.create(
        worker_id="here-999999-gone",
        host=work.HOST,
        pid=4_000_000,  # above any pid Linux hands out: no such process
        process_started=1.0,
        queues="books",
        beat_at=timezone.now(),  # it said it was alive a moment ago, and then it was killed
    )
    build = _taken_by(dead, story)
    assert run_queued() == 1  # the worker's first round finds the task lost and runs it
    build.refresh_from_db()
    assert build.status == Status.READY and build.attempts == 2
    assert renders == ["en"]
    task = DBTaskResult.objects.get(pk=build.task_id)
    assert task.status == TaskResultStatus.SUCCESSFUL and task.worker_ids[0] == dead.worker_id
    assert not WorkerBeat.objects.filter(pk=dead.pk).exists()


def test_a_build_silent_for_too_long_elsewhere_is_run_again(gm, long_books, settings):
    story = make_story(gm, "en", at=PLAYED_AT)
    away = WorkerBeat.objects.create(
        worker_id="another-host-1-abc",
        host="another-host",
        pid=1,
        process_started=1.0,
        queues="books",
        beat_at=timezone.now(),
    )
    build = _taken_by(away, story)
    assert work.requeue_lost() == []  # another machine's worker: it may still be at work
    WorkerBeat.objects.filter(pk=away.pk).update(
        beat_at=timezone.now() - timedelta(seconds=settings.TASK_STALE_AFTER + 1)
    )
    assert work.requeue_lost() == [build.task_id]
    assert DBTaskResult.objects.get(pk=build.task_id).status == TaskResultStatus.READY
    run_queued()
    assert BookBuild.objects.get(pk=build.pk).status == Status.READY


def test_a_build_of_a_story_changed_meanwhile_says_so(gm, gm_client, long_books):
    story = make_story(gm, "en", at=PLAYED_AT)
    gm_client.post(status_url(story))
    story.title = "Another title"
    story.save()
    run_queued()
    build = BookBuild.objects.get(story=story)
    assert build.status == Status.FAILED
    assert "changed before its book was printed" in build.error


def test_an_author_stops_a_build_queued_or_on_its_way(
    gm, gm_client, other_client, long_books, renders, monkeypatch
):
    story = make_story(gm, "en", at=PLAYED_AT, visibility="public", published=True)
    gm_client.post(status_url(story))
    other_client.post(status_url(story), {"action": "stop"})  # a reader may not stop it
    assert BookBuild.objects.get(story=story).status == Status.QUEUED
    gm_client.post(status_url(story), {"action": "stop"})
    assert BookBuild.objects.get(story=story).status == Status.CANCELLED
    run_queued()  # the queued task finds nothing to print
    assert renders == [] and BookBuild.objects.get(story=story).status == Status.CANCELLED
    assert "Printing was stopped." in gm_client.get(status_url(story)).content.decode()

    # Asked again, then stopped while the worker reads the story: it stops at the next phase.
    gm_client.post(status_url(story))
    build = BookBuild.objects.get(story=story)

    def stop_while_reading(name: str) -> None:
        if name == f"book-{build.pk}-reading":
            gm_client.post(status_url(story), {"action": "stop"})

    monkeypatch.setattr(work, "pause_at", stop_while_reading)
    run_queued()
    build.refresh_from_db()
    assert build.status == Status.CANCELLED and renders == []
    assert not printing.pdf_path(build).exists()


def test_the_shared_link_waits_and_downloads_too(gm, client, long_books):
    story = make_story(gm, "en", at=PLAYED_AT, visibility="unlisted", published=True)
    url = reverse("stories:shared_pdf", args=[story.secret])
    asked = client.get(url)
    wait = reverse("stories:shared_pdf_status", args=[story.secret]) + "?size=a5"
    assert asked.status_code == 302 and asked["Location"] == wait
    assert client.post(wait)["Location"] == wait
    run_queued()
    assert client.get(wait)["Location"] == url + "?size=a5"
    assert client.get(url).content.startswith(b"%PDF")


def test_a_build_whose_task_is_gone_may_be_asked_for_again(gm, gm_client, long_books):
    story = make_story(gm, "en", at=PLAYED_AT)
    gm_client.post(status_url(story))
    DBTaskResult.objects.all().delete()  # pruned, say: no worker will ever get to it
    page = gm_client.get(status_url(story)).content.decode()
    assert 'data-status="new"' in page and 'data-testid="book-ask"' in page
    assert 'hx-trigger="every' not in page  # nothing to follow: it would wait forever
    gm_client.post(status_url(story))
    assert len(tasks()) == 1
    run_queued()
    assert BookBuild.objects.get(story=story).status == Status.READY
