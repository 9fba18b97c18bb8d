"""Books printed by real ``manage.py worker`` processes on the test database (SQLite's file or
PostgreSQL): a book asked for while a long run holds a worker, two workers taking its build
at the same moment, and the one that took it killed with SIGKILL in the middle of the book.

Nothing here waits on luck: each worker stops at a pause point (TASK_PAUSE_DIR, see
``amnesia_site.workers.work.pause_at``) and the test waits for the state it needs (a file a
worker wrote there, a row), then lets it go or kills it."""

from __future__ import annotations

import os
import signal

import pytest
from django.urls import reverse
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.workers import work
from amnesia_site.workers.models import WorkerBeat
from stories import printing
from stories.models import BookBuild
from tests.stories.conftest import make_story
from tests.stories.long_run import hold
from tests.workers import let_go, reached, start_worker, stop, wait_for, worker_env

pytestmark = pytest.mark.django_db(transaction=True)

Status = BookBuild.Status


@pytest.fixture
def pauses(tmp_path):
    folder = tmp_path / "pauses"
    folder.mkdir()
    return folder


@pytest.fixture
def started(tmp_path):
    """Worker processes started by the test, stopped at its end whatever happened."""
    processes = []
    yield processes
    for process in processes:
        stop(process)


def kept_files(build: BookBuild) -> list:
    return sorted(printing.pdf_path(build).parent.glob(f"{build.story_id}-*.pdf"))


def test_a_book_raced_for_killed_and_printed_again_while_a_long_run_holds_its_worker(
    gm, gm_client, settings, pauses, started, tmp_path
):
    """One book's run through the workers, while a long run holds the long runs' worker the
    whole time: asked for on its page; two workers taking it at the same moment claim it once;
    the one that took it, killed with SIGKILL in the middle of the book, leaves a task that the
    books' worker (as make run and make serve start it) notices, runs and finishes, the long
    run still on; the book kept once. (One run of what were three tests: each started its own
    workers and printed its own book, a worker start being over a second of CPU, and each
    emptied every table after it.)"""
    settings.BOOK_LONG_PASSAGES = 2
    log = tmp_path / "workers.log"
    # The workers make run and make serve start: one for the books, one for the long runs.
    commands = work.worker_commands()
    run = hold.enqueue("long-run")
    started.append(start_worker(worker_env(pauses), *commands["long-run worker"][3:], log=log))
    wait_for(lambda: reached(pauses, "long-run"), "the long run under way", log=log)

    story = make_story(gm, "en")
    status = reverse("stories:pdf_status", args=[story.pk]) + "?size=a5"
    assert gm_client.post(status).status_code == 302
    build = BookBuild.objects.get(story=story)
    # A second task for the same build (two web processes asking at the very same moment,
    # say): two workers, one task each, both at the row at once.
    printing.build_book.enqueue(build.pk)
    for phase in ("reading", "writing"):
        let_go(pauses, f"book-{build.pk}-{phase}")
    racers = [
        start_worker(worker_env(pauses), "--queues", "books", "--batch", log=log) for _ in range(2)
    ]
    started.extend(racers)
    # The barrier: both workers hold their task at the row, then both go at once.
    wait_for(lambda: reached(pauses, f"book-{build.pk}-claim", 2), "two workers", log=log)
    books = DBTaskResult.objects.filter(queue_name="books")
    assert books.filter(status=TaskResultStatus.RUNNING).count() == 2
    let_go(pauses, f"book-{build.pk}-claim")

    # One took the row and stops at the page layout; the other found it taken and, its
    # queue empty, exits.
    layout = wait_for(
        lambda: list(pauses.glob(f"book-{build.pk}-layout.*.reached")), "the page layout", log=log
    )
    assert len(layout) == 1
    [taker] = [p for p in racers if p.pid == int(layout[0].name.split(".")[-2])]
    [other] = [p for p in racers if p is not taker]
    assert other.wait(timeout=120) == 0, log.read_text()
    assert not WorkerBeat.objects.filter(pid=other.pid).exists()  # its row cleared at exit
    build.refresh_from_db()
    assert (build.status, build.phase, build.attempts) == (Status.RENDERING, "layout", 1)
    assert list(books.exclude(pk=build.task_id).values_list("status", "return_value")) == [
        (TaskResultStatus.SUCCESSFUL, "taken elsewhere, stopped or gone")
    ]

    os.kill(taker.pid, signal.SIGKILL)
    taker.wait(timeout=10)
    task = DBTaskResult.objects.get(pk=build.task_id)
    assert task.status == TaskResultStatus.RUNNING  # django-tasks-db alone would leave it so

    # The books' worker (no pause points) notices the lost task and runs it.
    started.append(start_worker(worker_env(), *commands["books worker"][3:], log=log))
    wait_for(
        lambda: BookBuild.objects.filter(pk=build.pk, status=Status.READY).exists(),
        "the book printed",
        log=log,
    )
    assert DBTaskResult.objects.get(pk=run.id).status == TaskResultStatus.RUNNING  # still on
    assert gm_client.get(status)["Location"].endswith("/pdf/?size=a5")
    build.refresh_from_db()
    assert (build.status, build.phase, build.attempts) == (Status.READY, "", 2)
    task = wait_for(
        lambda: DBTaskResult.objects.filter(pk=task.pk, status=TaskResultStatus.SUCCESSFUL).first(),
        "the task finished",
        log=log,
    )
    assert len(task.worker_ids) == 2
    results = sorted(books.values_list("return_value", flat=True))
    assert results == ["ready", "taken elsewhere, stopped or gone"]
    assert BookBuild.objects.filter(story=story).count() == 1
    assert kept_files(build) == [printing.pdf_path(build)]
    assert printing.pdf_path(build).read_bytes().startswith(b"%PDF")
    assert not WorkerBeat.objects.filter(pid=taker.pid).exists()  # the dead one's row cleared

    let_go(pauses, "long-run")
    wait_for(
        lambda: DBTaskResult.objects.get(pk=run.id).status == TaskResultStatus.SUCCESSFUL,
        "the long run done",
        log=log,
    )
