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
count of answers >= 500 (the target is 0), the 429s apart (a throttle's answer, neither a
failure nor a refusal in words), the count per status for each endpoint, and whether every
table's log and everything else the requests could write (a simulated run, an account) is as
it was.
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


# -- the lab's pages and the sign-up form (here only: tests/playtests/test_lab_numbers.py and
# tests/accounts hold their own cases) ---------------------------------------------------------
LAB_GAME = "amnesia_stories"
DEEP_LINE = "[" * 100_000
NESTED = "[" * 40 + "]" * 40
HUGE = "9" * 5000
# Each one alone is refused: the form can never start a run here.
LAB_BREAKS: dict[str, list[str]] = {
    "seed": [str(2**63), str(2**64 + 1), HUGE, "-1", "1_000", "²", "1e3", "\x00", ""],
    "players": ["0", "99", HUGE, "-4", "²", str(2**63), ""],
    "games": ["0", str(10**9), HUGE, "x", "٣"],
    "ruleset": [HUGE, str(2**63), "x", "-1", "0", "99999999", "\x00"],
    "bots": ["", "nobody", "\x00", "sensible,\x00"],
    "changed": [
        "bard_points=" + DEEP_LINE,
        "bard_points=" + NESTED,
        "bard_points=1e999",
        "bard_points=NaN",
        "bard_points=" + HUGE,
        'bard_points="\\ud800"',
        "=3",
        "nope=3",
        "bard_points=\x00",
    ],
    "params": ["x=" + DEEP_LINE, "x=" + NESTED, "zzz=1", "x=" + HUGE, "=", "x=-Infinity"],
    "sweep_values": ["1," + DEEP_LINE[:10_000], "1," + NESTED, "1", HUGE + ",1", "1e999,2"],
}
RUN_QUERIES = [HUGE[:4301], "9" * 20, str(2**63), "²", "١", "-1", "x", "1_0", "0", "%00"]


def lab_form(rng: random.Random, w):
    """The designer's lab: a POST with one to three fields no run may start with, or a GET
    whose query fills the form with them."""
    url = f"/playtests/lab/{LAB_GAME}/"
    if rng.random() < 0.15:
        field = rng.choice(["ruleset", "params"])
        return "get", w.client, url, {"data": {field: rng.choice(LAB_BREAKS[field])}}
    data = {
        "ruleset": str(w.ruleset.pk),
        "players": "4",
        "games": "3",
        "bots": "sensible",
        "seed": "1",
    }
    for name in rng.sample(sorted(LAB_BREAKS), rng.randint(1, 3)):
        data[name] = rng.choice(LAB_BREAKS[name])
        if name == "sweep_values":
            data["sweep_name"] = "bard_points"
    return "post", w.client, url, {"data": data}


def ruleset_pdf(rng: random.Random, w):
    """The ruleset's PDF with a ``run`` that is no run's number (a few times a run that is),
    or a version that is no number the database holds."""
    if rng.random() < 0.1:
        pk = rng.choice([HUGE, "9" * 20, str(2**63)])
        return "get", w.client, f"/playtests/rulesets/version/{pk}/pdf/", {}
    raw = str(w.run.pk) if rng.random() < 0.02 else rng.choice(RUN_QUERIES)
    url = f"/playtests/rulesets/version/{w.ruleset.pk}/pdf/?run={raw}"
    return "get", w.client, url, {}


def run_compare(rng: random.Random, w):
    if rng.random() < 0.1:
        pk = rng.choice([HUGE, "9" * 20, str(2**63)])
        return "get", w.client, f"/playtests/runs/{pk}/compare/?other={w.other.pk}", {}
    raw = str(w.other.pk) if rng.random() < 0.05 else rng.choice(RUN_QUERIES)
    return "get", w.client, f"/playtests/runs/{w.run.pk}/compare/?other={raw}", {}


def signup(rng: random.Random, w):
    """The sign-up form, each time with a name or a password no account may have."""
    password = "Fuzz-pass-" + str(rng.randrange(10**9))
    data = {"username": f"fuzzer{rng.randrange(10**9)}", "password1": password}
    data["password2"] = password
    breaks = {
        "username": ["", "\x00", "a\x00b", "x" * 200, "<script>", "a b", "é" * 151],
        "password1": ["", "\x00", "x" * 70_000],
        "password2": ["", "other-" + password, "\x00"],
    }
    for name in rng.sample(sorted(breaks), rng.randint(1, 3)):
        data[name] = rng.choice(breaks[name])
    if rng.random() < 0.3:
        data["next"] = rng.choice(["//evil.example/", "javascript:alert(1)", "\x00", HUGE])
    return "post", w.anonymous, "/accounts/signup/", {"data": data}


BENCH_ENDPOINTS = {
    "lab form": (lab_form, {200}),
    "ruleset PDF ?run=": (ruleset_pdf, {200}),
    "compare ?other=": (run_compare, {200}),
    "sign-up form": (signup, {200}),  # a refused form is the page again, with its errors
}


def lab_world(w) -> None:
    """A ruleset and two finished simulated runs of it, the designer's (``w.gm``)."""
    from games.models import Ruleset
    from games.playtests import lab_chunks, lab_start

    w.ruleset = Ruleset.objects.filter(game=LAB_GAME).order_by("pk").first()
    runs = []
    for seed in (2, 3):
        run = lab_start.start(
            w.gm, LAB_GAME, w.ruleset, players=4, games=3, bots=["sensible"], seed=seed
        )
        lab_chunks.run_everything(run)
        runs.append(run)
    w.run, w.other = runs


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

    from tests.games import fuzz_endpoints as fuzz

    setup_test_environment()
    settings.DEBUG = True  # and still no traceback page for anything sent
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="amnesia-bench-fuzz-media-")
    call_command("migrate", verbosity=0)
    gm = get_user_model().objects.create_user("fuzz-gm", password="fuzz-" + os.urandom(8).hex())
    client = Client()
    client.force_login(gm)
    world = fuzz.make_world(gm, client)
    lab_world(world)

    from games.playtests.models import SimulationRun

    def snapshot() -> dict:
        return {**fuzz.snapshot(world), "runs": SimulationRun.objects.count()}

    before = snapshot()

    endpoints = {**fuzz.ENDPOINTS, "secret link or query": None, **BENCH_ENDPOINTS}
    allowed = {name: {400, 404, 409} | fuzz.ALSO_ALLOWED.get(name, set()) for name in endpoints}
    allowed["secret link or query"] = {400, 404, 405, 429}  # 405: a POST to a page
    for name, (_maker, also) in BENCH_ENDPOINTS.items():
        allowed[name] |= also | {429}
    statuses = {name: Counter() for name in endpoints}
    failures: list[str] = []
    rng = random.Random(args.seed)
    names = list(endpoints)
    started = time.perf_counter()
    for i in range(args.requests):
        name = names[i % len(names)]
        if endpoints[name] is None or name in BENCH_ENDPOINTS:
            if endpoints[name] is None:
                method, sender, url = link_or_query(rng, world)
                kwargs = {}
            else:
                method, sender, url, kwargs = BENCH_ENDPOINTS[name][0](rng, world)
            sender.raise_request_exception = False
            response = getattr(sender, method)(url, **kwargs)
            status = response.status_code
            body = response.content[:200_000].decode("utf-8", "replace")
            if getattr(response, "exc_info", None):
                body = f"{response.exc_info[0].__name__}: {str(response.exc_info[1])[:200]}"
            what = f"{method.upper()} {url[:120]} {str(kwargs)[:100]} {body[:200]}"
        else:
            sender, url, kwargs = endpoints[name](rng, world)
            status, body = fuzz.send(sender, url, kwargs)
            what = f"POST {url} {str(kwargs)[:100]} {body.splitlines()[0][:200] if body else ''}"
        statuses[name][status] += 1
        if status not in allowed[name] or "Traceback" in body:
            failures.append(f"{name} #{i}: {status} {what}")
    seconds = time.perf_counter() - started
    after = snapshot()
    total = Counter()
    for seen in statuses.values():
        total.update(seen)
    print(
        json.dumps(
            {
                "sent": args.requests,
                "seconds": round(seconds, 1),
                "errors": sum(n for status, n in total.items() if status >= 500),
                "throttled": total.get(429, 0),
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
            f"429 (throttled, apart): {result['throttled']}; "
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
