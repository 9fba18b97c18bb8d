"""The book off the request: each version of a story's book is printed once and kept.

A book is kept per version of the story (``version``: a hash of everything that goes into it,
read in a few queries, without building the book), per language and per page size, as a file
in the archive's cache (``stories.cache``) beside a ``BookBuild`` row (one per version,
language and size: a unique constraint). A download of a kept book reads the row and the file.

A download (a GET) only reads: a kept book's bytes, or the page that says where its printing
stands. A book that is not kept is asked for (a POST from the reading page or that page:
:func:`ask`): a short one (at most BOOK_LONG_PASSAGES passages) is printed in that request and
kept; a long one queues the ``build_book`` task on the ``books`` queue (Django's Tasks,
``amnesia_site.workers``); a worker prints it, the row saying where it is (queued and its
place, the phase, ready, failed in words, stopped), and the page waiting for it follows the
row. A build whose task was lost is queued again by the workers (``amnesia_site.workers``),
never by a page.

A task may run twice (its worker died and it was queued again, or the book was asked for twice
at once): the row is taken by one run only (an update that only one can make), and the run
again of the task whose worker died takes it back; the file is written whole under a name of
its version, so the book is kept once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q
from django.tasks import task
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.accounts.models import display_name
from amnesia_site.workers import work
from games.images import write_atomically
from stories import pdf as story_pdf
from stories import services
from stories.books import BOOK_FORMAT, story_language
from stories.cache import cache_dir
from stories.models import BookBuild, NarrationEdit, Story

logger = logging.getLogger(__name__)

Status = BookBuild.Status
Phase = BookBuild.Phase
WAITING = (Status.QUEUED, Status.RENDERING)


def long_passages() -> int:
    """A book of more passages than this is printed by a worker, never in the request."""
    return int(getattr(settings, "BOOK_LONG_PASSAGES", 100))


def passages_of(book) -> int:
    return sum(len(c.passages) for c in book.chapters)


def version(story: Story) -> str:
    """A hash of what the story's book is made of: the log's length (every move and undo
    adds a row), the authors' edits, the players' labels, the title page, the dates and the
    design. Three small queries; the book itself is not built."""
    table = story.table
    edits = NarrationEdit.objects.filter(story=story).aggregate(n=Count("pk"), last=Max("pk"))
    owner = table.owner
    payload = [
        BOOK_FORMAT,
        services.design_hash(),
        table.game,
        table.last_seq,
        str(table.started_at),
        str(table.finished_at),
        table.status,
        [story.title, story.subtitle, story.blurb, story_language(story)],
        sorted(story.tags.values_list("name", flat=True)),
        story.cover.name if story.cover else "",
        [edits["n"], edits["last"]],
        list(table.seats.order_by("position").values_list("name", "alias")),
        display_name(owner),  # the name the book prints for the game master
    ]
    raw = json.dumps(payload, ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def pdf_path(build: BookBuild) -> Path:
    name = f"{build.story_id}-{build.page_size}-{build.language}-{build.version}.pdf"
    return cache_dir() / "pdf" / name


def _size(page_size: str) -> str:
    return page_size if page_size in story_pdf.PAGE_SIZES else story_pdf.DEFAULT_SIZE


def current(story: Story, page_size: str) -> BookBuild | None:
    """The build of the story's current version in this size, if one was asked for."""
    return BookBuild.objects.filter(
        story=story,
        page_size=_size(page_size),
        language=story_language(story),
        version=version(story),
    ).first()


def kept_pdf(build: BookBuild | None) -> bytes | None:
    """The kept book's bytes, or None (not ready; or its file was cleared: then it is not
    kept, whatever the row says, until it is asked for again). Only reads."""
    if build is None or build.status != Status.READY:
        return None
    try:
        return pdf_path(build).read_bytes()
    except FileNotFoundError:
        return None


def is_kept(build: BookBuild | None) -> bool:
    """Whether the build's book is kept (ready, and its file there), without reading it."""
    return build is not None and build.status == Status.READY and pdf_path(build).is_file()


def kept_book(story: Story, page_size: str) -> bytes | None:
    """The story's book in this size when its current version is kept (a GET only reads)."""
    return kept_pdf(current(story, page_size))


def _row(story: Story, page_size: str, key: str) -> BookBuild:
    """The build row of this version, language and size: made once (the unique constraint
    decides between two requests making it at the same moment)."""
    fields = {
        "story": story,
        "page_size": page_size,
        "language": story_language(story),
        "version": key,
    }
    try:
        with transaction.atomic():
            return BookBuild.objects.get_or_create(**fields)[0]
    except IntegrityError:  # another request made it meanwhile
        return BookBuild.objects.get(**fields)


def is_long(story: Story, book=None) -> bool:
    book = book or services.make_book(story)
    return passages_of(book) > long_passages()


def pending(build: BookBuild) -> bool:
    """Whether the build's task is still queued or running (a worker will get to it)."""
    return _task_pending(build.task_id)


def _task_pending(task_id: str) -> bool:
    if not task_id:
        return False
    return DBTaskResult.objects.filter(
        pk=task_id, status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
    ).exists()


def ask(story: Story, page_size: str) -> BookBuild:
    """Ask for the story's book in this size (a POST: the reading page's, or the page that
    waits for it). A kept book is not printed again; a short one is printed now and kept
    (its row READY); a long one's row is made or found under a lock, and the ``build_book``
    task queued unless a task for it is already queued or running. Queued in the same
    transaction as the row says so: both or neither."""
    page_size = _size(page_size)
    key = version(story)
    build = _row(story, page_size, key)
    if is_kept(build):
        return build
    if build.status not in WAITING and build.passages <= long_passages():
        book = services.make_book(story)
        passages = passages_of(book)
        if passages <= long_passages():  # short: printed in this request, nothing to wait for
            _keep(build, story_pdf.render_book_pdf(book, page_size), passages)
            return build
        BookBuild.objects.filter(pk=build.pk).update(passages=passages)
    with transaction.atomic():
        build = BookBuild.objects.select_for_update().get(
            story=story, page_size=page_size, language=story_language(story), version=key
        )
        if build.status == Status.READY and pdf_path(build).is_file():
            return build
        if build.status in WAITING and _task_pending(build.task_id):
            return build
        result = build_book.enqueue(build.pk)
        BookBuild.objects.filter(pk=build.pk).update(
            status=Status.QUEUED,
            phase="",
            error="",
            worker="",
            cancel_requested=False,
            task_id=str(result.id),
            queued_at=timezone.now(),
            finished_at=None,
        )
    build.refresh_from_db()
    return build


def cancel(build: BookBuild) -> None:
    """Stop a build: a queued one at once; one being printed at its next phase (the worker
    reads the flag)."""
    BookBuild.objects.filter(pk=build.pk, status=Status.QUEUED).update(
        status=Status.CANCELLED, finished_at=timezone.now()
    )
    BookBuild.objects.filter(pk=build.pk, status=Status.RENDERING).update(cancel_requested=True)
    build.refresh_from_db()


def place_in_queue(build: BookBuild) -> int:
    """How many books are queued before this one (0: it is next)."""
    return BookBuild.objects.filter(status=Status.QUEUED, queued_at__lt=build.queued_at).count()


def _keep(build: BookBuild, data: bytes, passages: int) -> None:
    write_atomically(pdf_path(build), data)
    BookBuild.objects.filter(pk=build.pk).update(
        status=Status.READY,
        phase="",
        passages=passages,
        error="",
        finished_at=timezone.now(),
    )
    build.status = Status.READY
    # Older versions of this book (same story, size and language) are of no more use.
    older = BookBuild.objects.filter(
        story_id=build.story_id, page_size=build.page_size, language=build.language
    ).exclude(pk=build.pk)
    for old in older:
        pdf_path(old).unlink(missing_ok=True)
    older.delete()


# -- the task -----------------------------------------------------------------------------
class _Stopped(Exception):
    pass


class _Changed(Exception):
    pass


def _phase(build: BookBuild, phase: str) -> None:
    """Enter a phase: the row says it (and that the worker is alive), the cancel flag is
    read, and a test may hold the worker here (TASK_PAUSE_DIR)."""
    now = timezone.now()
    BookBuild.objects.filter(pk=build.pk).update(phase=phase, heartbeat_at=now)
    work.beat()
    if BookBuild.objects.filter(pk=build.pk, cancel_requested=True).exists():
        raise _Stopped()
    work.pause_at(f"book-{build.pk}-{phase}")


@task(queue_name=work.BOOKS, takes_context=True)
def build_book(context, build_id: int) -> str:
    """Print one book and keep it; a failure is kept on the row, in words. Safe to run twice:
    only one run takes the row (see the module)."""
    task_id = str(context.task_result.id)
    work.pause_at(f"book-{build_id}-claim")
    now = timezone.now()
    taken = (
        BookBuild.objects.filter(pk=build_id)
        .filter(Q(status=Status.QUEUED) | Q(status=Status.RENDERING, task_id=task_id))
        .update(
            status=Status.RENDERING,
            phase=Phase.READING,
            task_id=task_id,
            worker=work.current_worker(),
            started_at=now,
            heartbeat_at=now,
            attempts=F("attempts") + 1,
        )
    )
    if not taken:
        return "taken elsewhere, stopped or gone"
    build = BookBuild.objects.get(pk=build_id)
    try:
        _print(build)
    except _Stopped:
        BookBuild.objects.filter(pk=build.pk).update(
            status=Status.CANCELLED, phase="", finished_at=timezone.now()
        )
        return "stopped"
    except _Changed:
        _fail(build, _("The story changed before its book was printed: ask for it again."))
        return "failed"
    except Exception as exc:  # the row must say what happened, whatever it was
        logger.exception("Book %s could not be printed", build.pk)
        _fail(build, _("The book could not be printed: %(why)s") % {"why": _why(exc)})
        return "failed"
    return "ready"


def _print(build: BookBuild) -> None:
    _phase(build, Phase.READING)
    story = Story.objects.select_related("table", "table__owner").get(pk=build.story_id)
    if version(story) != build.version or story_language(story) != build.language:
        raise _Changed()
    started = time.perf_counter()
    book = services.make_book(story)
    passages = passages_of(book)
    BookBuild.objects.filter(pk=build.pk).update(passages=passages)
    _phase(build, Phase.LAYOUT)
    document = story_pdf.lay_out_book(book, build.page_size)
    _phase(build, Phase.WRITING)
    data = document.write_pdf()
    logger.info("Book %s printed in %.1fs", build.pk, time.perf_counter() - started)
    _keep(build, data, passages)


def _why(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    return text or exc.__class__.__name__


def _fail(build: BookBuild, message: str) -> None:
    BookBuild.objects.filter(pk=build.pk).update(
        status=Status.FAILED, phase="", error=message, finished_at=timezone.now()
    )
    build.status, build.error = Status.FAILED, message
