"""Benchmark: twenty tables with phones, through ``manage.py serve``, against the idle server's
floor measured in the same run.

    .venv/bin/python bench/load.py [--runs 3] [--short] [--tables 20] [--phones 5] [--every 2]
                                   [--moves 1] [--seconds 60] [--workers 1] [--threads 4]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_table .venv/bin/python bench/load.py

A real server (Granian, as ``make serve`` starts it) on a free port of 127.0.0.1 only, on a
throwaway database: a SQLite file in the temp folder, or with DATABASE_URL a PostgreSQL
scratch database ``<name>_bench_load`` made and dropped here. It runs the site's own settings
with one more page (``bench/load_site.py``): ``/bench/floor/``, an empty 204 for a logged-in
person.

Each run, on a fresh database and server:

1. **the floor**, on the idle server: the game master's authenticated request to the floor
   page, one at a time (and, for comparison, a phone's poll with nothing new);
2. **the load**: each table is a contest (the demo's script, so every move is legal); each of
   its ``--phones`` phones polls its seat every ``--every`` seconds and, when told the table
   moved, fetches its seat panel as the page does; its game master posts ``--moves`` moves a
   second (and, at the end of the script, undoes them one by one, and starts again), for
   ``--seconds``.

Printed per run: p50, p99 and max of each kind of request, every error (an unexpected status
or a failed connection), and the poll's p99 under load over the floor's p99. With ``--runs``
above one, the median of the runs closes. Target: 0 errors, and that ratio at most 5.
``--short`` is a development run (15 s). Bounded: at most --tables × (--phones + 1) clients,
for --seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAX_CLIENTS = 400
MAX_SECONDS = 300
FLOOR_REQUESTS = 300
TARGET_RATIO = 5.0


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="fresh server each; medians shown")
    parser.add_argument("--short", action="store_true", help="a 15 s run, while developing")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=5, help="per table")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between polls")
    parser.add_argument("--moves", type=float, default=1.0, help="moves a second per table")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=None, help="default: make serve's")
    parser.add_argument("--threads", type=int, default=None, help="default: make serve's")
    args = parser.parse_args()
    if args.short:
        args.seconds = 15.0
    if args.tables * (args.phones + 1) > MAX_CLIENTS or args.seconds > MAX_SECONDS:
        parser.error(f"at most {MAX_CLIENTS} clients and {MAX_SECONDS} s")
    if not 1 <= args.runs <= 9:
        parser.error("1 to 9 runs")
    return args


def scratch_database() -> tuple[str, callable, callable]:
    """(DATABASE_URL of a throwaway database, a function that empties it for a run, a function
    that removes it)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        path = Path(tempfile.gettempdir()) / f"amnesia-bench-load-{os.getpid()}.sqlite3"

        def remove() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)

        return f"sqlite:///{path}", remove, remove
    import psycopg

    base, _, name = url.rpartition("/")
    scratch = f"{name or 'amnesia'}_bench_load"
    admin = psycopg.connect(f"{base}/postgres", autocommit=True)

    def reset() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{scratch}"')

    def remove() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.close()

    return f"{base}/{scratch}", reset, remove


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def figures(values: list[float]) -> dict[str, float]:
    return {
        "count": len(values),
        "p50": statistics.median(values) * 1e3,
        "p99": percentile(values, 0.99) * 1e3,
        "max": max(values) * 1e3,
    }


def run(args: argparse.Namespace, number: int, database: str) -> dict:
    """One run on a fresh database and server: its figures, printed and returned."""
    static_root = Path(tempfile.gettempdir()) / "amnesia-bench-static"
    media_root = Path(tempfile.gettempdir()) / "amnesia-bench-media"

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.utils import timezone

    from games import registry
    from games.services import new_tables
    from tests.serving import Phone, collect_static, serve_env, start_server

    server = None
    try:
        call_command("migrate", verbosity=0)
        password = "bench-" + uuid.uuid4().hex
        # Hashed as the site hashes (a quicker hash would be upgraded at the first login,
        # which changes the hash and so ends the other game masters' sessions).
        gm = get_user_model().objects.create_user("bench-gm", password=password)
        name, script = next(
            (n, s) for n, s in registry.kit("contest").demos(timezone.now()) if len(s["moves"]) > 20
        )
        moves = [{k: v for k, v in m.items() if k not in ("at",)} for m in script["moves"]]
        tables = [
            new_tables.import_script({**script, "moves": []}, gm, name=f"{name} {i}")
            for i in range(args.tables)
        ]
        tokens = {t.pk: [s.token for s in t.seats.all()] for t in tables}
        connections.close_all()

        env = serve_env(database, static_root, media_root, DJANGO_SETTINGS_MODULE="bench.load_site")
        if not (static_root / "staticfiles.json").exists():
            collect_static(env)
        log = Path(tempfile.gettempdir()) / f"amnesia-bench-load-{os.getpid()}.log"
        sizing = []
        if args.workers is not None:
            sizing += ["--workers", str(args.workers)]
        if args.threads is not None:
            sizing += ["--threads", str(args.threads)]
        server = start_server(env, log, *sizing)
        engine = "PostgreSQL" if database.startswith("postgres") else "SQLite"
        print(
            f"run {number}, {engine}: {args.tables} tables × {args.phones} phones polling every "
            f"{args.every:g} s, {args.moves:g} move/s per table, {args.seconds:g} s, "
            f"make serve's Granian {' '.join(sizing) or '(its defaults)'} on "
            f"127.0.0.1:{server.port}",
            flush=True,
        )

        # The game masters log in first: a login is slow on purpose (the password hash), and
        # is not what this measures.
        masters = {t.pk: Phone(server.port) for t in tables}
        for master in masters.values():
            master.log_in("bench-gm", password)

        # 1. The floor, on the idle server (after a few requests to warm it up).
        master = masters[tables[0].pk]
        first_seat = tokens[tables[0].pk][0]
        idle: dict[str, list[float]] = defaultdict(list)
        for i in range(FLOOR_REQUESTS + 20):
            for kind, url in (
                ("floor (idle)", "/bench/floor/"),
                ("poll (idle)", f"/seat/{first_seat}/poll/?since=0"),
            ):
                started = time.monotonic()
                status = master.get(url)[0]
                took = time.monotonic() - started
                if status != 204:
                    raise RuntimeError(f"{url} answered {status} on the idle server")
                if i >= 20:
                    idle[kind].append(took)

        # 2. The load.
        times: dict[str, list[float]] = defaultdict(list)
        errors: dict[str, int] = defaultdict(int)
        lock = threading.Lock()
        start = time.monotonic()
        deadline = start + args.seconds

        def record(kind: str, started: float, ok: bool, what: str = "") -> None:
            with lock:
                times[kind].append(time.monotonic() - started)
                if not ok:
                    errors[f"{kind}: {what}"] += 1

        def timed(kind: str, call, expect: tuple[int, ...]):
            started = time.monotonic()
            try:
                answer = call()
            except OSError as exc:
                record(kind, started, False, type(exc).__name__)
                return None
            record(kind, started, answer[0] in expect, str(answer[0]))
            return answer

        def phone_loop(token: str, offset: float) -> None:
            phone = Phone(server.port)
            version = 0
            time.sleep(offset)
            while time.monotonic() < deadline:
                tick = time.monotonic()
                url = f"/seat/{token}/poll/?since={version}"
                answer = timed("poll", lambda url=url: phone.get(url), (200, 204))
                if answer and answer[0] == 200:
                    version = json.loads(answer[2])["version"]
                    timed(
                        "seat panel (on a change)",
                        lambda: phone.get(f"/seat/{token}/", **{"HX-Request": "true"}),
                        (200,),
                    )
                time.sleep(max(0.0, args.every - (time.monotonic() - tick)))

        def master_loop(table_pk: int, phone: Phone, offset: float) -> None:
            seq, played = 0, 0
            forward = True
            time.sleep(offset)
            while time.monotonic() < deadline:
                tick = time.monotonic()
                sent = {"expected_seq": seq, "client_id": uuid.uuid4().hex}
                if forward:
                    sent["move"] = moves[played]
                    answer = timed(
                        "move",
                        lambda sent=sent: phone.post_json(f"/tables/{table_pk}/move/", sent),
                        (200,),
                    )
                    if answer and answer[0] == 200:
                        played += 1
                else:
                    sent["csrfmiddlewaretoken"] = phone.cookies.get("csrftoken", "")
                    answer = timed(
                        "undo",
                        lambda sent=sent: phone.post_form(f"/tables/{table_pk}/undo/", sent),
                        (302,),
                    )
                    if answer and answer[0] == 302:
                        played -= 1
                if answer and answer[0] in (200, 302):
                    seq += 1
                if played == len(moves):
                    forward = False
                elif played == 0:
                    forward = True
                time.sleep(max(0.0, 1 / args.moves - (time.monotonic() - tick)))

        threads = []
        for i, table in enumerate(tables):
            seats = tokens[table.pk]
            threads.append(
                threading.Thread(
                    target=master_loop,
                    args=(table.pk, masters[table.pk], i / (args.moves * args.tables)),
                )
            )
            for p in range(args.phones):
                offset = (i * args.phones + p) * args.every / (args.tables * args.phones)
                threads.append(
                    threading.Thread(target=phone_loop, args=(seats[p % len(seats)], offset))
                )
        for thread in threads:
            thread.daemon = True
            thread.start()
        for thread in threads:
            thread.join(timeout=args.seconds + 60)
        elapsed = time.monotonic() - start
    finally:
        if server is not None:
            server.stop()
        connections.close_all()

    result = {kind: figures(values) for kind, values in sorted(idle.items())}
    result.update({kind: figures(values) for kind, values in sorted(times.items())})
    total = sum(len(v) for v in times.values())
    print(f"{total} requests under load in {elapsed:.1f} s ({total / elapsed:.0f}/s)")
    print(f"  {'request':30} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, row in result.items():
        print(f"  {kind:30} {row['count']:6} {row['p50']:8.1f} {row['p99']:8.1f} {row['max']:8.1f}")
    result["errors"] = sum(errors.values())
    result["ratio"] = result["poll"]["p99"] / result["floor (idle)"]["p99"]
    print(f"errors: {result['errors']}" + "".join(f"\n  {k}: {n}" for k, n in errors.items()))
    print(
        f"poll p99 under load / idle floor p99: {result['poll']['p99']:.1f} / "
        f"{result['floor (idle)']['p99']:.1f} ms = {result['ratio']:.1f}× "
        f"(target ≤ {TARGET_RATIO:g}×, 0 errors)",
        flush=True,
    )
    return result


def main() -> None:
    args = parse()
    database, reset, remove = scratch_database()
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    import django
    from django.db import connections

    django.setup()
    results = []
    try:
        for n in range(args.runs):
            connections.close_all()
            reset()
            results.append(run(args, n + 1, database))
    finally:
        connections.close_all()
        remove()
    if len(results) > 1:
        print(f"median of {len(results)} runs:")
        for kind in results[0]:
            if isinstance(results[0][kind], dict):
                print(
                    f"  {kind:30} p50 {statistics.median(r[kind]['p50'] for r in results):8.1f}"
                    f"  p99 {statistics.median(r[kind]['p99'] for r in results):8.1f} ms"
                )
        errors = statistics.median(r["errors"] for r in results)
        ratio = statistics.median(r["ratio"] for r in results)
        print(
            f"  errors {errors:g}; poll p99 / floor p99 {ratio:.1f}× (target ≤ {TARGET_RATIO:g}×)"
        )
        met = errors == 0 and ratio <= TARGET_RATIO
        print(f"target {'met' if met else 'MISSED'}")


if __name__ == "__main__":
    main()
