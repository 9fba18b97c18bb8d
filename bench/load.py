"""Benchmark: many tables at once through ``manage.py serve``, phones polling, game masters
moving.

    .venv/bin/python bench/load.py [--tables 10] [--phones 5] [--every 3] [--moves 1]
                                   [--seconds 20] [--workers 1] [--threads 8]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_table .venv/bin/python bench/load.py

A real server (Granian, as ``make serve`` starts it) on a free port of 127.0.0.1 only, on a
throwaway database: a SQLite file in the temp folder, or with DATABASE_URL a PostgreSQL
scratch database ``<name>_bench_load`` made and dropped here. Each table is a contest
(the demo's script, so every move is legal); each of its phones polls its seat every
``--every`` seconds and, when told the table moved, fetches its seat panel as the page does;
its game master posts ``--moves`` moves a second (and, at the end of the script, undoes
them one by one, and starts again). After ``--seconds`` everything stops; the latency of
each kind of request is printed (p50, p99, max) with every error (an unexpected status or a
failed connection). Bounded: at most --tables × (--phones + 1) clients, for --seconds.
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


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--phones", type=int, default=5, help="per table")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--moves", type=float, default=1.0, help="moves a second per table")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    if args.tables * (args.phones + 1) > MAX_CLIENTS or args.seconds > MAX_SECONDS:
        parser.error(f"at most {MAX_CLIENTS} clients and {MAX_SECONDS} s")
    return args


def scratch_database() -> tuple[str, callable]:
    """(DATABASE_URL of a throwaway database, a function that removes it)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        path = Path(tempfile.gettempdir()) / f"amnesia-bench-load-{os.getpid()}.sqlite3"

        def remove() -> None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)

        return f"sqlite:///{path}", remove
    import psycopg

    base, _, name = url.rpartition("/")
    scratch = f"{name or 'amnesia'}_bench_load"
    admin = psycopg.connect(f"{base}/postgres", autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
    admin.execute(f'CREATE DATABASE "{scratch}"')

    def remove() -> None:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.close()

    return f"{base}/{scratch}", remove


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    args = parse()
    database, remove_database = scratch_database()
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    static_root = Path(tempfile.gettempdir()) / "amnesia-bench-static"
    media_root = Path(tempfile.gettempdir()) / "amnesia-bench-media"

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.utils import timezone

    from games import registry, services
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
            services.import_script({**script, "moves": []}, gm, name=f"{name} {i}")
            for i in range(args.tables)
        ]
        tokens = {t.pk: [s.token for s in t.seats.all()] for t in tables}
        connections.close_all()

        env = serve_env(database, static_root, media_root)
        if not (static_root / "staticfiles.json").exists():
            collect_static(env)
        log = Path(tempfile.gettempdir()) / f"amnesia-bench-load-{os.getpid()}.log"
        server = start_server(
            env, log, "--workers", str(args.workers), "--threads", str(args.threads)
        )
        print(
            f"{'PostgreSQL' if database.startswith('postgres') else 'SQLite'}: {args.tables} "
            f"tables × {args.phones} phones polling every {args.every:g} s, {args.moves:g} "
            f"move/s per table, {args.seconds:g} s, Granian {args.workers} worker(s) × "
            f"{args.threads} threads on 127.0.0.1:{server.port}"
        )

        # The game masters log in first: a login is slow on purpose (the password hash), and
        # is not what this measures.
        masters = {t.pk: Phone(server.port) for t in tables}
        for master in masters.values():
            master.log_in("bench-gm", password)

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
                threading.Thread(target=master_loop, args=(table.pk, masters[table.pk], i * 0.05))
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
        remove_database()

    total = sum(len(v) for v in times.values())
    print(f"{total} requests in {elapsed:.1f} s ({total / elapsed:.0f}/s)")
    print(f"  {'request':30} {'count':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, values in sorted(times.items()):
        print(
            f"  {kind:30} {len(values):6} {statistics.median(values) * 1e3:8.1f} "
            f"{percentile(values, 0.99) * 1e3:8.1f} {max(values) * 1e3:8.1f}"
        )
    print(f"errors: {sum(errors.values())}" + "".join(f"\n  {k}: {n}" for k, n in errors.items()))


if __name__ == "__main__":
    main()
