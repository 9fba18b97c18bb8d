"""Running the site's workers from a test: in this process (the queued tasks, one after the
other, on the test's own database connection), or as real ``manage.py worker`` processes
against the test database, with the pause points of ``amnesia_site.workers.work.pause_at``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.db import connection

from amnesia_site.workers import work
from amnesia_site.workers.management.commands import worker as command
from tests.serving import ROOT, database_url


def run_queued(queues: tuple[str, ...] = ("books",)) -> int:
    """What a worker does with what is queued now (``manage.py worker --batch``), here; how
    many tasks it ran. The test's transaction stays open (no connection is closed)."""
    runner = command.Worker(queue_names=list(queues), interval=0, batch=True)
    try:
        with mock.patch.object(command, "close_old_connections", lambda: None):
            runner.run()
    finally:
        work.set_current_worker("")
    return runner._run_tasks


def worker_env(pause_dir: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of a worker process on the test database, cache and media."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_", "COV_"))}
    env.update(
        DATABASE_URL=database_url(connection.settings_dict),
        STORY_CACHE_DIR=str(settings.STORY_CACHE_DIR),
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
        TASK_PAUSE_DIR=str(pause_dir or ""),
        LOG_LEVEL="ERROR",
        DEBUG="1",
    )
    env.update(extra)
    return env


def start_worker(env: dict[str, str], *args: str, log: Path) -> subprocess.Popen:
    """A ``manage.py worker`` process, without Django's system checks at its start (half a
    second of CPU each time; tests/games/test_checks.py runs them)."""
    command = [sys.executable, "manage.py", "worker", "--interval", "0.1", "--skip-checks", *args]
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)


def wait_for(condition, what: str, timeout: float = 90, log: Path | None = None):
    """Wait until ``condition()`` is true (a state reached, not a time guessed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise AssertionError(f"never happened: {what}\n{tail}")


def reached(pause_dir: Path, name: str, count: int = 1) -> bool:
    """Whether ``count`` workers stopped at the pause point ``name``."""
    return len(list(pause_dir.glob(f"{name}.*.reached"))) >= count


def let_go(pause_dir: Path, name: str) -> None:
    (pause_dir / f"{name}.go").touch()


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
