"""Benchmark: how much work one person can leave on the lab's long queue, with the bounds off and
on (``LAB_MAX_RUN_GAMES``, ``LAB_MAX_QUEUED_GAMES``, ``SIGNUPS_PER_ADDRESS``).

    DJANGO_SETTINGS_MODULE=amnesia_site.settings .venv/bin/python bench/lab_flood.py
    .venv/bin/python bench/lab_flood.py --database-url postgres://postgres@127.0.0.1:5432/NAME

The flood, all through the site's own views (Django's test client, one address): sign up
``--accounts`` accounts; the first makes a ruleset (its owner is a designer of the game, as
anyone may become); then ``--rounds`` times it starts a run of ``--games`` games with a
9-value sweep and cancels it; then starts one more and leaves it. Printed for each mode: the
accounts the address got, each start's answer and request time, the chunk tasks queued by it
and left queued after its cancel, the backlog the cancelled rounds leave and how long the long
worker takes to get through it (a worker in this process takes up to ``--sample`` of those
tasks, timed, the rest estimated at the same pace), and the backlog of the run left queued.

"Bounds off" sets the three settings to no bound; "bounds on" keeps the settings as they are
(their defaults unless the environment says otherwise). The database is a scratch one: a
temporary SQLite file, or with ``--database-url`` a PostgreSQL database of that name with
``_bench_flood`` added, made and dropped here. Passwords are hashed with MD5 (the tests' own
hasher): the sign-up's cost here is the site's, not PBKDF2's.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ADDRESS = "203.0.113.50"
SWEEP_VALUES = "1,2,3,4,5,6,7,8,9"


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--database-url", default="", help="PostgreSQL (default: SQLite file)")
    parser.add_argument("--accounts", type=int, default=25)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--sample", type=int, default=300)
    return parser.parse_args()


ARGS = parse()
SCRATCH = tempfile.mkdtemp(prefix="lab-flood-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ["SECURE_SSL_REDIRECT"] = "0"
os.environ["LOG_LEVEL"] = "ERROR"
os.environ["DATABASE_URL"] = ARGS.database_url or f"sqlite:///{SCRATCH}/flood.sqlite3"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django_tasks_db.compat import TaskResultStatus  # noqa: E402
from django_tasks_db.models import DBTaskResult  # noqa: E402

from amnesia_site.workers import work  # noqa: E402
from amnesia_site.workers.management.commands import worker as command  # noqa: E402
from games.models import Ruleset  # noqa: E402
from games.playtests.models import SimulationRun  # noqa: E402

GAME = "amnesia_stories"


def backlog() -> tuple[int, int]:
    """The chunk tasks waiting on the long queue, and the simulated games they hold."""
    rows = DBTaskResult.objects.filter(queue_name=work.LONG, status=TaskResultStatus.READY)
    runs = {r.pk: r for r in SimulationRun.objects.all()}
    tasks = games = 0
    for args in rows.values_list("args_kwargs", flat=True):
        run_id, index = args["args"][:2]
        run = runs.get(run_id)
        tasks += 1
        if run is not None:
            games += max(0, min(run.chunk_games, run.games_asked - index * run.chunk_games))
    return tasks, games


class Sample(command.Worker):
    """The long-run worker, stopped after ``most`` tasks."""

    def __init__(self, most: int) -> None:
        super().__init__(queue_names=[work.LONG], interval=0, batch=True)
        self.most = most
        self.ran = 0

    def run_task(self, db_task_result: DBTaskResult) -> None:
        super().run_task(db_task_result)
        self.ran += 1
        if self.ran >= self.most:
            self.running = False


def drain_seconds(tasks: int) -> tuple[float, int]:
    """The long worker's time to get through ``tasks`` queued tasks: up to --sample of them
    taken and timed, the rest at the same pace; and how many were really taken."""
    if not tasks:
        return 0.0, 0
    worker = Sample(min(tasks, ARGS.sample))
    began = time.perf_counter()
    with mock.patch.object(command, "close_old_connections", lambda: None):
        worker.run()
    took = time.perf_counter() - began
    work.set_current_worker("")
    return took / max(1, worker.ran) * tasks, worker.ran


def flood(label: str) -> None:
    cache.clear()
    DBTaskResult.objects.all().delete()
    SimulationRun.objects.all().delete()
    get_user_model().objects.filter(username__startswith="flood").delete()
    Ruleset.objects.filter(game=GAME, name="Flood").delete()
    print(f"-- {label}")
    made = 0
    client = None
    for i in range(ARGS.accounts):
        each = Client(REMOTE_ADDR=ADDRESS)
        password = "a-long-pass-phrase-9"
        answer = each.post(
            reverse("signup"),
            {"username": f"flood{i}", "password1": password, "password2": password},
        )
        if answer.status_code == 302:
            made += 1
            client = client or each
    print(f"accounts made from one address: {made} of {ARGS.accounts}")
    assert client is not None
    user = get_user_model().objects.get(username="flood0")
    base = Ruleset.objects.filter(game=GAME).order_by("name", "version").first()
    assert base is not None
    # A ruleset of one's own makes one a designer of its game (the ruleset form does this).
    Ruleset.objects.create(
        game=GAME, name="Flood", version=1, options=base.options, owner=user, created_by=user
    )
    lab = reverse("playtests:lab", args=[GAME])
    form = {
        "players": 4,
        "games": ARGS.games,
        "bots": "random",
        "seed": 1,
        "sweep_name": "bard_points",
        "sweep_values": SWEEP_VALUES,
    }

    def start() -> tuple[str, float, int]:
        """A start as asked; refused, the most the bound lets through (the flooder adapts)."""
        began = time.perf_counter()
        answer = client.post(lab, form)
        took = time.perf_counter() - began
        said = f"{ARGS.games} games a value: {answer.status_code}"
        most = getattr(settings, "LAB_MAX_RUN_GAMES", 0)
        if answer.status_code == 400 and most:
            fewer = {**form, "games": max(1, min(ARGS.games, most // 9))}
            began = time.perf_counter()
            answer = client.post(lab, fewer)
            took = time.perf_counter() - began
            said += f", then {fewer['games']} a value: {answer.status_code}"
        return said, took, backlog()[0]

    for round_ in range(1, ARGS.rounds + 1):
        before = backlog()[0]
        status, took, after = start()
        run = SimulationRun.objects.filter(owner=user, parent__isnull=True).first()
        if run is not None and run.active:
            client.post(reverse("playtests:run_cancel", args=[run.pk]))
        left = backlog()[0]
        print(
            f"round {round_}: start ({status}) took {took:.2f} s, "
            f"{after - before} chunk tasks queued; after the cancel {left} wait on the queue"
        )
    tasks, games = backlog()
    seconds, taken = drain_seconds(tasks)
    print(
        f"left by the cancelled rounds: {tasks} tasks ({games} games); the long worker spends "
        f"{seconds:.1f} s on them doing nothing ({taken} taken and timed)"
    )
    DBTaskResult.objects.filter(queue_name=work.LONG).delete()
    status, took, after = start()
    tasks, games = backlog()
    print(f"one run left queued ({status}, {took:.2f} s): {tasks} tasks, {games} games")


def main() -> None:
    setup_test_environment()
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # the 400s and 429s expected
    for name in ("django_tasks_db", "django.tasks"):  # each task taken, said by the worker
        logging.getLogger(name).setLevel(logging.WARNING)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LAB_YIELD_SECONDS = 0
    if ARGS.database_url:
        name = connection.settings_dict["NAME"]
        connection.settings_dict["TEST"]["NAME"] = f"{name}_bench_flood"
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
    else:
        call_command("migrate", verbosity=0)
    engine = connection.vendor
    print(f"lab flood on {engine}: {ARGS.games} games x 9 values, {ARGS.rounds} rounds")
    try:
        on = {
            k: getattr(settings, k, None)
            for k in ("LAB_MAX_RUN_GAMES", "LAB_MAX_QUEUED_GAMES", "SIGNUPS_PER_ADDRESS")
        }
        settings.LAB_MAX_RUN_GAMES = 0
        settings.LAB_MAX_QUEUED_GAMES = 0
        settings.SIGNUPS_PER_ADDRESS = 10**9
        flood("bounds off")
        for key, value in on.items():
            if value is not None:
                setattr(settings, key, value)
        flood(
            "bounds on: "
            + ", ".join(f"{k}={v}" for k, v in on.items() if v is not None)
            + (" (no such settings here)" if all(v is None for v in on.values()) else "")
        )
    finally:
        if ARGS.database_url:
            connection.creation.destroy_test_db(
                connection.settings_dict["NAME"], verbosity=0, keepdb=False
            )


if __name__ == "__main__":
    main()
