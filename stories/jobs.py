"""The book off the request: each version of a story's book is printed once and kept.

A book is kept per version of the story (``version``: a hash of everything that goes into it,
read in a few queries, without building the book), per language and per page size, as a file
in the archive's cache (``stories.cache``) beside a ``BookBuild`` row. A download of a kept
book reads the row and the file. A short book (at most ``LONG`` passages) missing from the
cache is printed in the request that asks for it; a long one by a worker thread of the web
process (``kick``), the row saying where it is (queued, rendering, ready, failed), so that
any web process can answer the page that waits for it. A row left "rendering" by a process
that is gone (a restart), or for longer than ``STALE_AFTER``, is queued again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

from django.db import IntegrityError, close_old_connections, connection, transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from amnesia_site.accounts.models import display_name
from games.images import write_atomically
from stories import pdf as story_pdf
from stories import services
from stories.books import BOOK_FORMAT, story_language
from stories.cache import cache_dir
from stories.models import BookBuild, NarrationEdit, Story

logger = logging.getLogger(__name__)

# A book of more passages than this is printed by a worker, never in the request.
LONG = 100
# A build "rendering" for longer than this is taken for lost (its process died elsewhere).
STALE_AFTER = timedelta(minutes=10)
# This process's name on the rows it renders: host, pid, and a token of this start.
WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

Status = BookBuild.Status


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
    """The kept book's bytes, or None (not ready; or its file was cleared: built again)."""
    if build is None or build.status != Status.READY:
        return None
    try:
        return pdf_path(build).read_bytes()
    except FileNotFoundError:
        BookBuild.objects.filter(pk=build.pk, status=Status.READY).update(status=Status.QUEUED)
        build.status = Status.QUEUED
        return None


def pdf_or_build(story: Story, page_size: str) -> bytes | BookBuild:
    """The story's book: its bytes when kept or short (printed now), else its build row
    (queued for a worker, or already on its way)."""
    page_size = _size(page_size)
    key = version(story)
    build, _created = _row(story, page_size, key)
    data = kept_pdf(build)
    if data is not None:
        return data
    if build.status in (Status.QUEUED, Status.RENDERING) and build.passages > LONG:
        requeue_stale()
        kick()
        return build
    book = services.make_book(story)
    passages = sum(len(c.passages) for c in book.chapters)
    if passages > LONG:
        BookBuild.objects.filter(pk=build.pk).update(passages=passages)
        build.passages = passages
        kick()
        return build
    # A short book: printed in this request (nothing to wait for), the row saying so.
    BookBuild.objects.filter(pk=build.pk).update(
        status=Status.RENDERING, worker=WORKER, started_at=timezone.now(), passages=passages
    )
    data = story_pdf.render_book_pdf(book, page_size)
    _keep(build, data, passages)
    return data


def _row(story: Story, page_size: str, key: str) -> tuple[BookBuild, bool]:
    try:
        with transaction.atomic():
            return BookBuild.objects.get_or_create(
                story=story, page_size=page_size, language=story_language(story), version=key
            )
    except IntegrityError:  # another request made it meanwhile
        return BookBuild.objects.get(
            story=story, page_size=page_size, language=story_language(story), version=key
        ), False


def _keep(build: BookBuild, data: bytes, passages: int) -> None:
    write_atomically(pdf_path(build), data)
    BookBuild.objects.filter(pk=build.pk).update(
        status=Status.READY, passages=passages, error="", finished_at=timezone.now()
    )
    build.status = Status.READY
    # Older versions of this book (same story, size and language) are of no more use.
    older = BookBuild.objects.filter(
        story_id=build.story_id, page_size=build.page_size, language=build.language
    ).exclude(pk=build.pk)
    for old in older:
        pdf_path(old).unlink(missing_ok=True)
    older.delete()


def retry(build: BookBuild) -> None:
    """Ask again for a build that failed."""
    BookBuild.objects.filter(pk=build.pk, status=Status.FAILED).update(
        status=Status.QUEUED, error="", worker=""
    )
    kick()


# -- the worker ---------------------------------------------------------------------------
def _gone(worker: str) -> bool:
    """Whether the process named ``worker`` is known to be gone: one of this host's that
    is not running, or not this process's start though it has its pid."""
    host, _sep, rest = worker.partition(":")
    pid, _sep, _token = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return worker != WORKER and not _running_here(worker)
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


_here: set[str] = set()  # the workers of this process (WORKER, and a test's own names)


def _running_here(worker: str) -> bool:
    return worker in _here


def requeue_stale() -> int:
    """Queue again the builds left "rendering" by a process that is gone (or for too long)."""
    stale = [
        b.pk
        for b in BookBuild.objects.filter(status=Status.RENDERING)
        if _gone(b.worker) or (b.started_at and timezone.now() - b.started_at > STALE_AFTER)
    ]
    if stale:
        BookBuild.objects.filter(pk__in=stale, status=Status.RENDERING).update(
            status=Status.QUEUED, worker=""
        )
    return len(stale)


def claim(worker: str = WORKER) -> BookBuild | None:
    """Take the oldest queued build for ``worker``: the row's update decides who got it."""
    for build in BookBuild.objects.filter(status=Status.QUEUED).order_by("created_at", "pk")[:5]:
        taken = BookBuild.objects.filter(pk=build.pk, status=Status.QUEUED).update(
            status=Status.RENDERING, worker=worker, started_at=timezone.now()
        )
        if taken:
            build.refresh_from_db()
            return build
    return None


def run(build: BookBuild) -> None:
    """Print one claimed build; a failure is kept on the row, in words."""
    try:
        story = Story.objects.select_related("table", "table__owner").get(pk=build.story_id)
        if version(story) != build.version or story_language(story) != build.language:
            raise _Changed()
        started = time.perf_counter()
        book = services.make_book(story)
        data = story_pdf.render_book_pdf(book, build.page_size)
        passages = sum(len(c.passages) for c in book.chapters)
        logger.info("Book %s printed in %.1fs", build.pk, time.perf_counter() - started)
    except _Changed:
        _fail(build, _("The story changed before its book was printed: ask for it again."))
        return
    except Exception as exc:  # the row must say what happened, whatever it was
        logger.exception("Book %s could not be printed", build.pk)
        _fail(build, _("The book could not be printed: %(why)s") % {"why": _why(exc)})
        return
    _keep(build, data, passages)


class _Changed(Exception):
    pass


def _why(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    return text or exc.__class__.__name__


def _fail(build: BookBuild, message: str) -> None:
    BookBuild.objects.filter(pk=build.pk).update(
        status=Status.FAILED, error=message, finished_at=timezone.now()
    )
    build.status, build.error = Status.FAILED, message


def run_queued(worker: str = WORKER) -> int:
    """Print every queued build, one after the other; how many were printed or failed."""
    _here.add(worker)
    done = 0
    requeue_stale()
    while (build := claim(worker)) is not None:
        run(build)
        done += 1
    return done


_lock = threading.Lock()
_thread: threading.Thread | None = None


def kick() -> None:
    """Make sure a worker thread of this process prints the queued builds, once the
    current transaction (which may have queued one) is committed."""
    transaction.on_commit(_start)


def _start() -> None:
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            _thread.again = True  # type: ignore[attr-defined]
            return
        _thread = threading.Thread(target=_work, name="book-printer", daemon=True)
        _thread.again = False  # type: ignore[attr-defined]
        _thread.start()


def _work() -> None:
    global _thread
    me = threading.current_thread()
    try:
        while True:
            close_old_connections()
            run_queued()
            with _lock:
                if not getattr(me, "again", False):
                    _thread = None  # the next kick starts a new thread
                    return
                me.again = False  # type: ignore[attr-defined]
    except Exception:  # a worker thread must not die silently: the row stays queued
        logger.exception("The book printer stopped")
        with _lock:
            _thread = None
    finally:
        connection.close()
