"""Work off the request: Django's Tasks (``django.tasks``) on the database, and what
django-tasks-db leaves to us.

The queues (settings.TASKS, ``QUEUES``):

- ``books`` (:data:`BOOKS`): the books people wait for (``stories.printing.build_book``);
  quick, a page follows each one.
- ``pictures`` (:data:`PICTURES`): the pictures of an uploaded deck, cleaned (decoded,
  stripped, resized) in chunks (``games.amnesia_stories.deck_queue``); a page follows each deck.
- ``long`` (:data:`LONG`): long runs (the simulations of many games), on workers of their
  own, so that a book never waits behind one. A long task is an ordinary task on this queue::

      from django.tasks import task
      from amnesia_site.workers.work import LONG, beat

      @task(queue_name=LONG)
      def simulate(run_id: int) -> None:
          for chunk in chunks(run_id):
              beat()            # alive: the worker is not taken for dead meanwhile
              ...               # one step; check the run's own cancel flag between steps

      simulate.enqueue(run.pk)  # inside the transaction that made the row, if any

``make run`` and ``make serve`` start one worker for each queue beside the site
(:func:`worker_commands`); more are ``manage.py worker --queues books`` (or ``long``,
``pictures``) on this
machine or another one that reaches the same PostgreSQL.

What django-tasks-db does not do, done here: a task whose worker died (killed, the machine
restarted) stays "running" there for good. Each worker keeps a ``WorkerBeat`` row, refreshed
every ``TASK_BEAT_SECONDS`` and by :func:`beat` between a task's steps; a running task whose
worker is gone (a process of this host that is no longer there) or silent for longer than
``TASK_STALE_AFTER`` seconds is made ready again (:func:`requeue_lost`), and a task must
therefore be safe to run twice (the book: ``stories.printing``). Progress and cancel live on
the task's own rows (``BookBuild``), never in the task result.
"""

from __future__ import annotations

import os
import socket
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psutil
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.workers.models import WorkerBeat

BOOKS = "books"
LONG = "long"
PICTURES = "pictures"
QUEUES = (BOOKS, LONG, PICTURES)

HOST = socket.gethostname()

# The worker this process is (set by ``manage.py worker``), for :func:`beat`.
_current: str = ""


def new_worker_id() -> str:
    """host-pid-token, within django-tasks-db's 64 characters."""
    return f"{HOST[:40]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def current_worker() -> str:
    return _current


def set_current_worker(worker_id: str) -> None:
    global _current
    _current = worker_id


def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def beat_every() -> timedelta:
    return _seconds("TASK_BEAT_SECONDS", 5)


def silent_after() -> timedelta:
    return _seconds("TASK_SILENT_AFTER", 30)


def stale_after() -> timedelta:
    return _seconds("TASK_STALE_AFTER", 600)


def beat() -> None:
    """Say that this process's worker is alive (between the steps of a long task)."""
    if _current:
        WorkerBeat.objects.filter(worker_id=_current).update(beat_at=timezone.now())


def process_started(pid: int) -> float | None:
    """When the process ``pid`` of this machine started, or None if there is none (a zombie,
    killed and not yet waited for, counts as none)."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process.create_time()
    except psutil.NoSuchProcess:
        return None
    except psutil.AccessDenied:
        return -1.0  # someone else's process: alive, start unknown


def gone(worker) -> bool:
    """Whether a worker (a ``WorkerBeat``) is known to be gone: one of this host whose process
    is not running any more (or is another process with its pid)."""
    if worker.host != HOST[:255]:
        return False
    started = process_started(worker.pid)
    if started is None:
        return True
    return started >= 0 and abs(started - worker.process_started) > 1.0


def lost(worker, now) -> bool:
    """Gone, or silent for longer than TASK_STALE_AFTER."""
    return gone(worker) or worker.beat_at < now - stale_after()


def requeue_lost(now=None) -> list[str]:
    """Make ready again the running tasks whose worker is lost (or has no row and started
    them longer ago than TASK_STALE_AFTER); the ids of the tasks made ready."""
    now = now or timezone.now()
    again: list[str] = []
    running = DBTaskResult.objects.running().only("id", "worker_ids", "started_at")
    for result in running:
        worker_id = result.worker_ids[-1] if result.worker_ids else ""
        worker = WorkerBeat.objects.filter(worker_id=worker_id).first()
        if worker is not None and not lost(worker, now):
            continue
        if worker is None and result.started_at and result.started_at > now - stale_after():
            continue  # a worker without a row (django-tasks-db's own): given the set time
        # The started_at compared: a worker that took it again meanwhile keeps it.
        made = DBTaskResult.objects.filter(
            pk=result.pk, status=TaskResultStatus.RUNNING, started_at=result.started_at
        ).update(status=TaskResultStatus.READY)
        if made:
            again.append(str(result.pk))
        if worker is not None:
            worker.delete()
    # The rows of idle workers that died: this host's gone ones, anyone's silent for a day.
    old = now - timedelta(days=1)
    for worker in WorkerBeat.objects.filter(Q(host=HOST[:255]) | Q(beat_at__lt=old)):
        if worker.beat_at < old or gone(worker):
            worker.delete()
    return again


def answering(queue: str) -> bool:
    """Whether a worker for ``queue`` is alive: it said so within TASK_SILENT_AFTER, or it is
    running a task and said so within TASK_STALE_AFTER (a long step says nothing)."""
    now = timezone.now()
    recent = Q(beat_at__gte=now - silent_after()) | Q(
        ~Q(task_id=""), beat_at__gte=now - stale_after()
    )
    for worker in WorkerBeat.objects.filter(recent):
        if queue in worker.queue_names() or "*" in worker.queue_names():
            if not gone(worker):
                return True
    return False


def pause_at(name: str) -> None:
    """Tests only (TASK_PAUSE_DIR set): stop at this point until the test lets the worker go.

    The worker writes ``<name>.<pid>.reached`` in the folder and waits for ``<name>.go``, so
    a test can hold a task between two steps, kill it there, or let two workers on at once
    (a barrier). Without the setting it does nothing."""
    folder = getattr(settings, "TASK_PAUSE_DIR", "")
    if not folder:
        return
    folder = Path(folder)
    (folder / f"{name}.{os.getpid()}.reached").touch()
    go = folder / f"{name}.go"
    deadline = time.monotonic() + 120  # a test that forgot its worker does not hang forever
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.02)


def worker_commands(python: str | None = None) -> dict[str, list[str]]:
    """The workers ``make run`` and ``make serve`` keep running beside the site: one for the
    books, one for the long runs, one for the uploaded pictures (so a book never waits behind a
    run or a deck, and a deck never behind a run). Without Django's system checks: ``serve`` and
    ``devserver`` (and runserver) ran them at their start, and each worker doing them again was
    half a second of CPU (the game contract replays every demo), again at each restart."""
    manage = [python or sys.executable, "manage.py", "worker", "--skip-checks"]
    return {
        "books worker": [*manage, "--queues", BOOKS],
        "long-run worker": [*manage, "--queues", LONG],
        "pictures worker": [*manage, "--queues", PICTURES],
    }
