"""Benchmark: a study of the contest (``games.playtests.study_start``), 2 rulesets × 3 player
counts × 1,000 games, through the real long worker, with its page read while it runs.

    .venv/bin/python bench/study.py [--games 1000] [--workers 2] [--players 3 4 5]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_bench .venv/bin/python bench/study.py

Uses a scratch database of its own (a temporary SQLite file unless DATABASE_URL is given, which
it then migrates and writes to), the contest's built-in ruleset and a variant made here (7 cards
in hand), starts ``--workers`` processes of ``manage.py worker --queues long`` and reads the
study's page (what a designer following it loads each second) until the study is done. Prints
the wall time from start to the answer beside the machine's load average (1 minute, at the
start, the highest seen and at the end, and the number of cores), the CPU time (user + sys) the
workers took, which the load changes far less than the wall time, and this process's own
(reading the page and rendering the answer), the slowest read of the page while it ran, and the
time to render the answer once. Target: within 2 minutes on the project's
2-core machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


FOLLOW = {"HX-Request": "true", "HX-Target": "study-progress"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games in each cell")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    scratch = None
    if not os.environ.get("DATABASE_URL"):
        scratch = tempfile.mkdtemp(prefix="amnesia-study-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    os.environ.setdefault("LAB_YIELD_SECONDS", "0")  # no table is in play here
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    from games.models import Ruleset
    from games.playtests import study_start

    user, _created = get_user_model().objects.get_or_create(
        username="bench-study", defaults={"is_superuser": True}
    )
    base = Ruleset.objects.filter(game="contest").order_by("name", "version").first()
    assert base is not None, "the contest's built-in ruleset is missing"
    variant, _created = Ruleset.objects.get_or_create(
        game="contest",
        name="Contest: bench, 7 cards in hand",
        version=1,
        defaults={"options": {**base.options, "hand_size": 7}, "owner": user},
    )
    cores = os.cpu_count() or 1
    load_start = os.getloadavg()[0]
    own_before, workers_before = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    study = study_start.start(
        user,
        "contest",
        [base, variant],
        players=args.players,
        games=args.games,
        bots=["sensible"],
        budget=int(args.timeout),
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--queues", "long"],
            cwd=ROOT,
            env=dict(os.environ),
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(args.workers)
    ]
    client = Client()
    client.force_login(user)
    url = f"/playtests/studies/{study.pk}/"
    load_high = load_start
    slowest_read = 0.0
    reads = 0
    try:
        while True:
            # What the page asks each second while the study runs (its progress, by htmx).
            asked = time.monotonic()
            response = client.get(url, headers=FOLLOW)
            slowest_read = max(slowest_read, time.monotonic() - asked)
            reads += 1
            assert response.status_code == 200, response.status_code
            study.refresh_from_db()
            load_high = max(load_high, os.getloadavg()[0])
            if not study.active:
                break
            if time.monotonic() - began > args.timeout:
                print("timed out", flush=True)
                break
            time.sleep(1)
        wall = time.monotonic() - began
        asked = time.monotonic()
        page = client.get(url).content.decode()
        answer_seconds = time.monotonic() - asked
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
    # The workers' CPU time (user + sys), which the load does not change much as it does the
    # wall time: read once they have exited (a process's children count once waited for).
    workers_cpu = _cpu(resource.RUSAGE_CHILDREN) - workers_before
    own_cpu = _cpu(resource.RUSAGE_SELF) - own_before
    cells = len(args.players) * 2
    print(
        f"study of the contest: 2 rulesets × {len(args.players)} player counts × "
        f"{args.games:,} games = {study.games_done:,} of {cells * args.games:,} games, "
        f"{study.status}, in {wall:.1f} s with {args.workers} long workers "
        f"({study.games_done / wall:.0f} games/s)",
        flush=True,
    )
    print(
        f"load average (1 min) on {cores} cores: {load_start:.2f} at the start, "
        f"{load_high:.2f} at the highest, {os.getloadavg()[0]:.2f} at the end",
        flush=True,
    )
    print(
        f"CPU time (user + sys): {workers_cpu:.1f} s in the workers "
        f"({workers_cpu / max(1, study.games_done) * 1000:.1f} ms a game), {own_cpu:.1f} s here "
        "(the page read while it ran and the answer rendered once)",
        flush=True,
    )
    print(
        f"page followed {reads} times while it ran, the slowest in {slowest_read * 1000:.0f} ms; "
        f"the answer rendered in {answer_seconds:.2f} s "
        f"({page.count('data-testid="study-answer"')} answer, {page.count('<svg')} charts)",
        flush=True,
    )
    if scratch:
        for path in Path(scratch).iterdir():
            path.unlink()
        os.rmdir(scratch)


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
