"""Benchmark helper: a lab run (``games.playtests.lab_chunks``) going on a database while
``bench/load.py`` plays tables on it, to measure what a simulation costs the tables.

    # PostgreSQL: load.py makes <name>_bench_load; start this right after it, pointed there.
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_lab .venv/bin/python bench/load.py &
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_lab_bench_load \\
        .venv/bin/python bench/lab_beside_load.py --seconds 30 [--no-yield]

Waits for the database to be migrated and the tables to move, starts a run of ``--games`` Amnesia Stories games
(4 players, sensible bots) for a designer made here, and one ``manage.py worker --queues
long`` beside it for ``--seconds``; then prints the games played, the
chunks kept and the seconds the chunks waited for the tables in play (the run yields while a
move was made in the last LAB_YIELD_SECONDS; ``--no-yield`` sets it to 0, the worst case).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--no-yield", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.utils import DatabaseError

    deadline = time.monotonic() + 120
    while True:  # load.py migrates the scratch database first
        try:
            from games.models import Ruleset

            if Ruleset.objects.filter(game="amnesia_stories").exists():
                break
        except DatabaseError:
            connection.close()
        if time.monotonic() > deadline:
            sys.exit("The database was not migrated within two minutes.")
        time.sleep(0.5)
    from django.utils import timezone

    from games.models import Move
    from games.playtests import lab_chunks, lab_start

    # Start once the tables are moving (load.py sets itself up first).
    while not Move.objects.filter(at__gte=timezone.now() - timedelta(seconds=2)).exists():
        if time.monotonic() > deadline + 60:
            sys.exit("No table moved within three minutes.")
        time.sleep(0.2)
    from games.playtests.models import SimulationChunk

    user, _ = get_user_model().objects.get_or_create(username="bench-lab", is_superuser=True)
    ruleset = Ruleset.objects.filter(game="amnesia_stories").order_by("name", "-version").first()
    run = lab_start.start(
        user,
        "amnesia_stories",
        ruleset,
        players=4,
        games=args.games,
        bots=["sensible"],
        budget=int(args.seconds) + 60,
    )
    env = dict(os.environ)
    if args.no_yield:
        env["LAB_YIELD_SECONDS"] = "0"
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--queues", "long"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    time.sleep(args.seconds)
    # Read before stopping: load.py drops its scratch database when it is done.
    chunks = list(SimulationChunk.objects.filter(run=run))
    waited = sum(c.yielded_seconds for c in chunks)
    played = sum(c.seconds for c in chunks)
    games = sum(len(c.records) for c in chunks)
    print(
        f"lab run beside the tables ({'no yield' if args.no_yield else 'yielding'}): "
        f"{games} games kept in {args.seconds:.0f} s, {len(chunks)} chunks, "
        f"{waited:.1f} s of {played:.1f} s waiting for the tables",
        flush=True,
    )
    lab_chunks.cancel(run)
    os.killpg(worker.pid, signal.SIGKILL)  # a chunk waiting for the tables would hold it
    worker.wait(timeout=60)


if __name__ == "__main__":
    main()
