"""``manage.py worker``: runs the queued tasks of some queues (``--queues books``, ``long``).

django-tasks-db's worker (its ``db_worker``) with what this site adds (see
``amnesia_site.workers.work``): a ``WorkerBeat`` row saying the worker is alive, and, every
TASK_BEAT_SECONDS, the running tasks of lost workers made ready again. ``make run`` and
``make serve`` start the site's workers; run more by hand, here or on another machine that
reaches the same PostgreSQL.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError, close_old_connections
from django.utils import timezone
from django_tasks_db.compat import DEFAULT_TASK_BACKEND_ALIAS
from django_tasks_db.management.commands.db_worker import Worker as DatabaseWorker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from amnesia_site.workers import work
from amnesia_site.workers.models import WorkerBeat

logger = logging.getLogger("amnesia_site.workers")


class Worker(DatabaseWorker):
    def __init__(self, *, queue_names: list[str], interval: float, batch: bool) -> None:
        super().__init__(
            queue_names=queue_names,
            interval=interval,
            batch=batch,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=False,
            max_tasks=None,
            worker_id=work.new_worker_id(),
            excluded_queue_names=[],
        )
        self._last_beat = 0.0

    def run(self) -> None:
        work.set_current_worker(self.worker_id)
        WorkerBeat.objects.create(
            worker_id=self.worker_id,
            host=work.HOST[:255],
            pid=os.getpid(),
            process_started=work.process_started(os.getpid()) or 0.0,
            queues=",".join(self.queue_names),
            beat_at=timezone.now(),
        )
        logger.info("Worker %s on %s", self.worker_id, ",".join(self.queue_names))
        try:
            self._loop()
        finally:
            close_old_connections()
            WorkerBeat.objects.filter(worker_id=self.worker_id).delete()

    def _loop(self) -> None:
        while self.running:
            close_old_connections()
            self._tick()
            taken, result = self._take()
            if result is not None:
                self.run_task(result)
            elif self.batch and taken:
                return  # --batch: nothing left to run
            elif self.running:
                time.sleep(self.interval)

    def _tick(self) -> None:
        """Say this worker is alive, and run again what lost workers left running (at most
        every TASK_BEAT_SECONDS)."""
        now = time.monotonic()
        if self._last_beat and now - self._last_beat < work.beat_every().total_seconds():
            return
        self._last_beat = now
        WorkerBeat.objects.filter(worker_id=self.worker_id).update(beat_at=timezone.now())
        for task_id in work.requeue_lost():
            logger.warning("Task %s: its worker is lost; it is queued again", task_id)

    def _take(self) -> tuple[bool, DBTaskResult | None]:
        """The next ready task of this worker's queues, claimed (django-tasks-db's way: a
        locked row, SKIP LOCKED on PostgreSQL, an exclusive transaction on SQLite)."""
        tasks = DBTaskResult.objects.ready().filter(
            backend_name=self.backend_name, queue_name__in=self.queue_names
        )
        try:
            with exclusive_transaction(tasks.db):
                result = tasks.get_locked()
                if result is not None:
                    result.claim(self.worker_id)
        except OperationalError as exc:
            if is_locked_database_exception(exc):
                return False, None  # busy: the next round
            raise
        return True, result

    def run_task(self, db_task_result: DBTaskResult) -> None:
        WorkerBeat.objects.filter(worker_id=self.worker_id).update(
            task_id=str(db_task_result.pk), beat_at=timezone.now()
        )
        try:
            super().run_task(db_task_result)
        finally:
            WorkerBeat.objects.filter(worker_id=self.worker_id).update(
                task_id="", beat_at=timezone.now()
            )


class Command(BaseCommand):
    help = "Run the queued tasks of some queues (books, long, pictures), until stopped."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--queues",
            default=work.BOOKS,
            help=f"comma-separated queues: {', '.join(work.QUEUES)} (default: %(default)s)",
        )
        parser.add_argument(
            "--interval", type=float, default=1.0, help="seconds between looks at an empty queue"
        )
        parser.add_argument("--batch", action="store_true", help="run what is queued, then exit")

    def handle(self, *args: Any, **opts: Any) -> None:
        queues = [q.strip() for q in opts["queues"].split(",") if q.strip()]
        unknown = [q for q in queues if q not in work.QUEUES]
        if not queues or unknown:
            raise CommandError(f"Queues are {', '.join(work.QUEUES)}; not {', '.join(unknown)}.")
        if opts["interval"] < 0:
            raise CommandError("--interval must be 0 or more.")
        if not logger.handlers:
            logger.addHandler(logging.StreamHandler(self.stderr))
            logger.setLevel(logging.INFO if opts["verbosity"] >= 1 else logging.WARNING)
            logger.propagate = False
        worker = Worker(queue_names=queues, interval=opts["interval"], batch=opts["batch"])
        worker.configure_signals()
        worker.run()
