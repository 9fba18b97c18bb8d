"""Benchmark (not a test): thousands of hostile requests per engine, and how many were a 500.

    .venv/bin/python bench/fuzz.py [--requests 5000] [--seed 1] [--postgres URL] [--only sqlite]

The suite's fuzz test (tests/games/test_fuzz.py) sends a small seeded sample; this sends
``--requests`` of the same kinds to every endpoint there (a move as JSON and as a form, an
import, a seat's move, an Amnesia Stories answer on the laptop and on a phone, the revealed
cards, the contest's build, character and bring, the names form, a player's impressions, a
bundle upload), plus secret links that are no token or secret and query strings that hold a
NUL, on SQLite (a file in the temp folder) and on PostgreSQL (a scratch database
``<name>_bench_fuzz`` next to ``--postgres``'s, made and dropped here). Each engine runs in a
process of its own, through Django's test client (DEBUG on, as the test does). It prints the
count of answers >= 500 (the target is 0), the count per status for each endpoint, and whether
every table's log and everything else the requests could write is as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/amnesia_table"
MAX_REQUESTS = 50_000


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=5000, help="per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES", DEFAULT_POSTGRES))
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    parser.add_argument("--database", help=argparse.SUPPRESS)  # one engine's run (a child)
    args = parser.parse_args()
    if not 0 < args.requests <= MAX_REQUESTS:
        parser.error(f"from 1 to {MAX_REQUESTS} requests")
    return args


def scratch_postgres(url: str):
    """(URL of a throwaway PostgreSQL database, a function that drops it)."""
    import psycopg

    base, _, name = url.rpartition("/")
    scratch = f"{name or 'amnesia'}_bench_fuzz"
    admin = psycopg.connect(f"{base}/postgres", autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
    admin.execute(f'CREATE DATABASE "{scratch}"')

    def remove() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.close()

    return f"{base}/{scratch}", remove


def scratch_sqlite():
    path = Path(tempfile.gettempdir()) / f"amnesia-bench-fuzz-{os.getpid()}.sqlite3"

    def remove() -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    return f"sqlite:///{path}", remove


# -- one engine (a child process) -------------------------------------------------------------
BROKEN_SECRETS = ["%00", "a%00b", "x" * 65, "%20", "%C3%A9", "..%2F..", "%FF%FE", "a" * 41]
SECRET_ROUTES = [
    "/seat/{}/",
    "/seat/{}/stories/",
    "/seat/{}/amnesia/",
    "/seat/{}/poll/",
    "/seat/{}/rules/",
    "/playtests/seat/{}/impression/",
    "/stories/s/{}/",
    "/stories/s/{}/pdf/",
    "/stories/s/{}/cover/",
]
QUERIES = ["?q=%00", "?since=%00", "?before=%00", "?page=%00", "?%00=1", "?key=%00&since=1"]


def link_or_query(rng: random.Random, w):
    """A GET (or a POST) of a secret link that is no token or secret, or a page's query string
    with a NUL in it."""
    if rng.random() < 0.6:
        url = rng.choice(SECRET_ROUTES).format(rng.choice(BROKEN_SECRETS))
        return "post" if rng.random() < 0.3 else "get", w.anonymous, url
    pages = ["/stories/", f"/tables/{w.amnesia.pk}/narrative/", f"/tables/{w.amnesia.pk}/poll/"]
    return "get", w.client, rng.choice(pages) + rng.choice(QUERIES)


def run_engine(args: argparse.Namespace) -> None:
    os.environ["DATABASE_URL"] = args.database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.CRITICAL)  # thousands of 400s and 404s; the counts say it all
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tests.games import test_fuzz as fuzz

    setup_test_environment()
    settings.DEBUG = True  # and still no traceback page for anything sent
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="amnesia-bench-fuzz-media-")
    call_command("migrate", verbosity=0)
    gm = get_user_model().objects.create_user("fuzz-gm", password="fuzz-" + os.urandom(8).hex())
    client = Client()
    client.force_login(gm)
    world = fuzz.make_world(gm, client)
    before = fuzz.snapshot(world)

    endpoints = {**fuzz.ENDPOINTS, "secret link or query": None}
    allowed = {name: {400, 404, 409} | fuzz.ALSO_ALLOWED.get(name, set()) for name in endpoints}
    allowed["secret link or query"] = {400, 404, 405, 429}  # 405: a POST to a page
    statuses = {name: Counter() for name in endpoints}
    failures: list[str] = []
    rng = random.Random(args.seed)
    names = list(endpoints)
    started = time.perf_counter()
    for i in range(args.requests):
        name = names[i % len(names)]
        if endpoints[name] is None:
            method, sender, url = link_or_query(rng, world)
            sender.raise_request_exception = False
            response = getattr(sender, method)(url)
            status = response.status_code
            body = response.content[:200_000].decode("utf-8", "replace")
            what = f"{method.upper()} {url}"
        else:
            sender, url, kwargs = endpoints[name](rng, world)
            status, body = fuzz.send(sender, url, kwargs)
            what = f"POST {url} {str(kwargs)[:100]} {body.splitlines()[0][:200] if body else ''}"
        statuses[name][status] += 1
        if status not in allowed[name] or "Traceback" in body:
            failures.append(f"{name} #{i}: {status} {what}")
    seconds = time.perf_counter() - started
    after = fuzz.snapshot(world)
    total = Counter()
    for seen in statuses.values():
        total.update(seen)
    print(
        json.dumps(
            {
                "sent": args.requests,
                "seconds": round(seconds, 1),
                "errors": sum(n for status, n in total.items() if status >= 500),
                "total": {str(k): v for k, v in sorted(total.items())},
                "endpoints": {
                    name: {str(k): v for k, v in sorted(seen.items())}
                    for name, seen in statuses.items()
                },
                "unexpected": failures[:20],
                "unexpected_count": len(failures),
                "unchanged": after == before,
            }
        )
    )


# -- both engines -------------------------------------------------------------------------
def main() -> None:
    args = parse()
    if args.database:
        run_engine(args)
        return
    engines = [e for e in ("sqlite", "postgres") if args.only in (None, e)]
    print(f"fuzz: {args.requests} hostile requests per engine, seed {args.seed}")
    worst = 0
    for engine in engines:
        database, remove = (
            scratch_sqlite() if engine == "sqlite" else scratch_postgres(args.postgres)
        )
        try:
            command = [sys.executable, __file__, "--requests", str(args.requests)]
            command += ["--seed", str(args.seed), "--database", database]
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
        finally:
            remove()
        if done.returncode != 0:
            print(f"\n{engine}: the run failed\n{done.stderr[-3000:]}")
            worst = max(worst, 1)
            continue
        result = json.loads(done.stdout.strip().splitlines()[-1])
        label = "SQLite" if engine == "sqlite" else "PostgreSQL"
        print(
            f"\n{label}: {result['sent']} requests in {result['seconds']} s; "
            f"responses >= 500: {result['errors']} (target 0); "
            f"logs and rows unchanged: {'yes' if result['unchanged'] else 'NO'}"
        )
        print(f"  {'all':26} {result['total']}")
        for name, seen in result["endpoints"].items():
            print(f"  {name:26} {seen}")
        if result["unexpected_count"]:
            print(f"  unexpected answers: {result['unexpected_count']}, the first ones:")
            for line in result["unexpected"]:
                print(f"    {line}")
        worst = max(worst, result["errors"])
    sys.exit(1 if worst else 0)


if __name__ == "__main__":
    main()
