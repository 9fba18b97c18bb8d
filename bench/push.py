"""Benchmark: how soon every phone has its new panel after a move, by the push (issue 50) and by
polls, on the same server in the same run.

    .venv/bin/python bench/push.py [--short] [--tables 20] [--phones 5] [--moves 1]
                                   [--seconds 30] [--servers 1] [--every 3]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_table .venv/bin/python bench/push.py \\
        --servers 2

A real server (``make serve``'s Granian, its lanes and websockets) on a throwaway database (a
SQLite file, or with DATABASE_URL a PostgreSQL scratch database, as bench/load.py makes them).
With ``--servers 2`` two servers share the database and a Redis of the bench's own (Debian's
redis-server on a free loopback port) and share the work as a balancer in front of a real site
would: the phones and the tables' game masters are dealt round the servers in turn (a phone's
socket and its fetches stay on its server, as a balancer keeps a connection), so a move made on
one server reaches half its phones through Redis, and each process serves half the panels.

Each table is a contest (the demo's script); its game master posts ``--moves`` moves a second
(undoing at the end of the script). Two phases, one after the other, each on tables of its own
made alike, so both play the same moves from the same start (on the same tables the second
phase would play the script's later moves and its undos, which cost more than its first moves):

1. **polls**: each of the ``--phones`` phones per table polls every ``--every`` seconds (the
   pages' default) and, told the table moved, fetches its seat panel;
2. **push**: each phone holds a websocket to its seat's push address and, when it hears a
   newer version, fetches its seat panel after a wait drawn below the pages' PUSH_SPREAD
   (``--spread MS`` to change it, 0 for none); versions heard while a fetch is in flight are
   fetched once when it ends, if its panel is older (as ``static/js/live.js`` coalesces).

The latency of a move for a phone: from the move's answer arriving (the move committed) to
that phone's panel arriving for that version or a later one. Printed: mean, p95, p99 and max
of each phase, the moves' and panels' own times, the panels' p99 over the idle server's (a seat
panel fetched one at a time before the phases), and every error. Targets: push p95 ≤ 300 ms
and p99 ≤ 1 s; polls were about 1.5 s mean, 3 s worst. The convention hall (issue 50): 60
tables, a move every 5 s per table, PostgreSQL + Redis, two processes (``--tables 60 --moves
0.2 --servers 2``): 0 errors, push p99 ≤ 1 s, panels within 3× the idle floor's p99.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import percentile, scratch_database  # noqa: E402  # bench/load.py's own

MAX_CLIENTS = 400
FLOOR_REQUESTS = 200


def page_spread() -> float:
    """The pages' PUSH_SPREAD (static/js/live.js), in milliseconds: the bench's phones wait as
    long as the pages do before fetching a pushed version."""
    script = (ROOT / "static" / "js" / "live.js").read_text()
    found = re.search(r"var PUSH_SPREAD = (\d+);", script)
    if found is None:
        raise SystemExit("static/js/live.js no longer says PUSH_SPREAD: the bench must follow it")
    return float(found.group(1))


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", action="store_true", help="10 s a phase, while developing")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=5, help="per table")
    parser.add_argument("--moves", type=float, default=1.0, help="moves a second per table")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--seconds", type=float, default=30.0, help="per phase")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument(
        "--spread",
        type=float,
        default=None,
        help="ms a phone waits at most before fetching a pushed version (default: the pages')",
    )
    args = parser.parse_args()
    if args.spread is None:
        args.spread = page_spread()
    if args.short:
        args.seconds = 10.0
    if args.tables * (args.phones + 1) > MAX_CLIENTS or args.seconds > 120:
        parser.error(f"at most {MAX_CLIENTS} clients and 120 s a phase")
    return args


def start_redis() -> tuple[str, subprocess.Popen]:
    from tests.serving import free_port

    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--servers 2 needs redis-server (scripts/setup.sh installs it)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tempfile.gettempdir(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    return f"redis://127.0.0.1:{port}/0", process


def cpu_seconds(root: int) -> float:
    """CPU seconds (user and system) used so far by process ``root`` and every process under
    it (the server's workers), read from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    family, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        grown = bool(more)
        family |= more
    return sum(used.get(pid, 0.0) for pid in family)


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    return (
        f"{len(values):6} mean {statistics.mean(values) * 1e3:7.1f}  p95 "
        f"{percentile(values, 0.95) * 1e3:7.0f}  p99 {percentile(values, 0.99) * 1e3:7.0f}  "
        f"max {max(values) * 1e3:7.0f} ms"
    )


def main() -> None:
    args = parse()
    database, reset, remove = scratch_database()
    os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.utils import timezone

    from games import registry
    from games.models import Table
    from games.services import new_tables
    from tests.serving import Phone, Socket, collect_static, serve_env, start_server

    static_root = Path(tempfile.gettempdir()) / "amnesia-bench-static"
    media_root = Path(tempfile.gettempdir()) / "amnesia-bench-media"
    servers, redis = [], None
    try:
        reset()
        call_command("migrate", verbosity=0)
        password = "bench-" + uuid.uuid4().hex
        get_user_model().objects.create_user("bench-gm", password=password)
        gm = get_user_model().objects.get(username="bench-gm")
        name, script = next(
            (n, s) for n, s in registry.kit("contest").demos(timezone.now()) if len(s["moves"]) > 20
        )
        moves = [{k: v for k, v in m.items() if k != "at"} for m in script["moves"]]
        phases = ("polls", "push")
        tables_of = {
            phase: [
                new_tables.import_script({**script, "moves": []}, gm, name=f"{name} {phase} {i}")
                for i in range(args.tables)
            ]
            for phase in phases
        }
        tables = [table for phase in phases for table in tables_of[phase]]
        tokens = {t.pk: [s.token for s in t.seats.all()] for t in tables}
        connections.close_all()

        extra = {}
        if args.servers == 2:
            url, redis = start_redis()
            extra["REDIS_URL"] = url
        env = serve_env(database, static_root, media_root, **extra)
        if not (static_root / "staticfiles.json").exists():
            collect_static(env)
        log = Path(tempfile.gettempdir()) / f"amnesia-bench-push-{os.getpid()}"
        servers = [start_server(env, Path(f"{log}-{n}.log")) for n in range(args.servers)]
        # Each client (a phone, a game master) on one server, dealt round them in turn.
        ports = [server.port for server in servers]
        engine = "PostgreSQL" if database.startswith("postgres") else "SQLite"
        print(
            f"{engine}, {args.servers} server process(es){' + Redis' if redis else ''}: "
            f"{args.tables} tables × {args.phones} phones, {args.moves:g} move/s per table, "
            f"{args.seconds:g} s a phase, pushed versions fetched within {args.spread:g} ms",
            flush=True,
        )
        print(f"load before: {os.getloadavg()[0]:.2f}", flush=True)
        # The floor: a seat panel on the idle server, one at a time (after a few to warm up).
        idle_phone, idle_token = Phone(ports[0]), tokens[tables[0].pk][0]
        idle: list[float] = []
        for i in range(FLOOR_REQUESTS + 20):
            started = time.monotonic()
            if idle_phone.get(f"/seat/{idle_token}/", **{"HX-Request": "true"})[0] != 200:
                raise RuntimeError("the idle server did not answer the seat panel")
            if i >= 20:
                idle.append(time.monotonic() - started)
        floor = percentile(idle, 0.99)
        print(f"idle floor: seat panel {summary(idle)}", flush=True)
        masters = {
            t.pk: Phone(ports[i % len(ports)])
            for phase in phases
            for i, t in enumerate(tables_of[phase])
        }
        for master in masters.values():
            master.log_in("bench-gm", password)
        state = {t.pk: {"seq": 0, "played": 0, "forward": True} for t in tables}

        moves_of: dict[str, list[float]] = {}
        panels_of: dict[str, list[float]] = {}

        def run_phase(phase: str) -> None:
            committed: dict[tuple[int, int], float] = {}  # (table, version) -> move answered
            panels: list[tuple[int, int, float]] = []  # (table, version, panel arrived)
            heards: list[tuple[int, int, float]] = []  # (table, version, push heard)
            times: dict[str, list[float]] = defaultdict(list)
            errors: dict[str, int] = defaultdict(int)
            lock = threading.Lock()
            start = time.monotonic()
            deadline = start + args.seconds
            cpu_before = [cpu_seconds(server.process.pid) for server in servers]

            def panel(phone: Phone, token: str, table_pk: int, heard: int) -> int | None:
                """The seat's panel fetched after hearing (or polling) version ``heard``: the
                version it shows. A finished game's panel follows nothing and shows none: it
                counts as ``heard``'s (it was asked for after that version's commit)."""
                started = time.monotonic()
                try:
                    status, _h, body, _c = phone.get(f"/seat/{token}/", **{"HX-Request": "true"})
                except OSError as exc:
                    status, body = type(exc).__name__, b""
                arrived = time.monotonic()
                marker = b'data-version="'
                at = body.find(marker)
                with lock:
                    times["seat panel"].append(arrived - started)
                    if status != 200:
                        errors[f"panel {status}"] += 1
                    elif at >= 0:
                        end = body.index(b'"', at + len(marker))
                        shown = int(body[at + len(marker) : end])
                        panels.append((table_pk, shown, arrived))
                        return shown
                    else:
                        panels.append((table_pk, heard, arrived))
                        return heard
                return None

            def polling(token: str, table_pk: int, offset: float, port: int) -> None:
                phone = Phone(port)
                version = 0
                time.sleep(offset)
                while time.monotonic() < deadline:
                    tick = time.monotonic()
                    try:
                        status, _h, body, _c = phone.get(f"/seat/{token}/poll/?since={version}")
                    except OSError as exc:
                        status, body = type(exc).__name__, b""
                    with lock:
                        times["poll"].append(time.monotonic() - tick)
                        if status not in (200, 204):
                            errors[f"poll {status}"] += 1
                    if status == 200:
                        version = json.loads(body)["version"]
                        panel(phone, token, table_pk, version)
                    time.sleep(max(0.0, args.every - (time.monotonic() - tick)))

            def pushed(token: str, table_pk: int, offset: float, port: int) -> None:
                phone = Phone(port)
                time.sleep(offset)
                origin = f"http://127.0.0.1:{port}"
                socket = Socket(port, f"/seat/{token}/push/", origin)
                if socket.status != 101:
                    with lock:
                        errors[f"connect {socket.status}"] += 1
                    return
                seen = latest = json.loads(socket.message(10))["version"]

                def hear(timeout: float) -> None:
                    nonlocal latest
                    heard = json.loads(socket.message(timeout))["version"]
                    with lock:
                        heards.append((table_pk, heard, time.monotonic()))
                    latest = max(latest, heard)

                try:
                    while time.monotonic() < deadline:
                        try:
                            hear(deadline - time.monotonic())
                        except TimeoutError:
                            break
                        # As static/js/live.js: a fetch after a wait drawn below the spread
                        # (what is heard meanwhile covered by it), and what was heard while it
                        # was in flight fetched once when it ends (never two in flight, no queue).
                        if latest > seen and args.spread > 0:
                            time.sleep(random.random() * args.spread / 1000)
                            while socket.ready():
                                hear(1.0)
                        while latest > seen:
                            seen = max(seen, panel(phone, token, table_pk, latest) or latest)
                            while socket.ready():
                                hear(1.0)
                except (OSError, EOFError) as exc:
                    with lock:
                        errors[f"push {type(exc).__name__}"] += 1
                finally:
                    socket.close()

            def master_loop(table_pk: int, phone: Phone, offset: float) -> None:
                kept = state[table_pk]
                try:
                    time.sleep(offset + args.every + 1.0)  # every phone following first
                    while time.monotonic() < deadline - 1.0:
                        tick = time.monotonic()
                        sent = {"expected_seq": kept["seq"], "client_id": uuid.uuid4().hex}
                        if kept["forward"]:
                            sent["move"] = moves[kept["played"]]
                            answer = phone.post_json(f"/tables/{table_pk}/move/", sent)
                            ok = answer[0] == 200
                            kept["played"] += ok
                            version = json.loads(answer[2]).get("version") if ok else None
                        else:
                            sent["csrfmiddlewaretoken"] = phone.cookies.get("csrftoken", "")
                            answer = phone.post_form(f"/tables/{table_pk}/undo/", sent)
                            ok = answer[0] == 302
                            kept["played"] -= ok
                            version = None
                        arrived = time.monotonic()
                        if ok:
                            kept["seq"] += 1
                            if version is None:
                                # read after the answer: ``arrived`` stays the answer's time
                                version = (
                                    Table.objects.filter(pk=table_pk)
                                    .values_list("version", flat=True)
                                    .get()
                                )
                        with lock:
                            times["move or undo"].append(arrived - tick)
                            if not ok:
                                errors[f"move {answer[0]}"] += 1
                            else:
                                committed[(table_pk, version)] = arrived
                        if kept["played"] == len(moves):
                            kept["forward"] = False
                        elif kept["played"] == 0:
                            kept["forward"] = True
                        time.sleep(max(0.0, 1 / args.moves - (time.monotonic() - tick)))
                finally:
                    # the version read above took a connection for this thread: given back,
                    # or the phases' threads together pass PostgreSQL's max_connections
                    connections.close_all()

            follow = polling if phase == "polls" else pushed
            threads = []
            for i, table in enumerate(tables_of[phase]):
                threads.append(
                    threading.Thread(
                        target=master_loop,
                        args=(table.pk, masters[table.pk], i / (args.moves * args.tables)),
                    )
                )
                for p in range(args.phones):
                    offset = (i * args.phones + p) * args.every / (args.tables * args.phones)
                    token = tokens[table.pk][p % len(tokens[table.pk])]
                    port = ports[(i * args.phones + p) % len(ports)]
                    threads.append(
                        threading.Thread(target=follow, args=(token, table.pk, offset, port))
                    )
            for thread in threads:
                thread.daemon = True
                thread.start()
            for thread in threads:
                thread.join(timeout=args.seconds + 60)

            # Each phone's panels, per table, in order: a move's latency for a phone is the
            # first of its panels at or past the move's version.
            def latencies(arrivals: list[tuple[int, int, float]]) -> list[float]:
                found = []
                per_table: dict[int, list[tuple[int, float]]] = defaultdict(list)
                for table_pk, version, arrived in arrivals:
                    per_table[table_pk].append((version, arrived))
                for (table_pk, version), answered in committed.items():
                    if answered > deadline - 1.0:
                        continue  # too late in the phase to be followed
                    reached = sorted(
                        a for v, a in per_table[table_pk] if v >= version and a >= answered - 0.5
                    )
                    # the phones' first arrivals at or past it (one per phone, at most)
                    found += [max(0.0, a - answered) for a in reached[: args.phones]]
                return found

            each = [
                cpu_seconds(server.process.pid) - before
                for server, before in zip(servers, cpu_before, strict=True)
            ]
            used = sum(each)
            served = len(times["seat panel"]) + len(times["move or undo"]) + len(times["poll"])
            shares = " + ".join(f"{e / args.seconds:.2f}" for e in each)
            print(
                f"{phase}: (load {os.getloadavg()[0]:.2f}; the server processes' CPU "
                f"{used / args.seconds:.2f} s a second ({shares}), "
                f"{used * 1e3 / max(1, served):.1f} ms a request)",
                flush=True,
            )
            print(f"  commit to panel   {summary(latencies(panels))}")
            if heards:
                print(f"  commit to push    {summary(latencies(heards))}")
            for kind, values in sorted(times.items()):
                print(f"  {kind:17} {summary(values)}")
            panel_p99 = percentile(times["seat panel"], 0.99) if times["seat panel"] else 0.0
            print(
                f"  seat panel p99 / idle floor p99: {panel_p99 * 1e3:.0f} / {floor * 1e3:.0f} ms"
                f" = {panel_p99 / floor:.1f}×"
            )
            print(f"  errors: {sum(errors.values())} {dict(errors) or ''}", flush=True)
            moves_of[phase] = times["move or undo"]
            panels_of[phase] = times["seat panel"]

        for phase in phases:
            run_phase(phase)
        for kind, of in (("moves", moves_of), ("seat panels", panels_of)):
            if all(of.get(phase) for phase in phases):
                before, after = (statistics.mean(of[phase]) for phase in phases)
                print(
                    f"{kind} under the push / under polls: mean {after * 1e3:.1f} / "
                    f"{before * 1e3:.1f} ms = {after / before:.2f}× (target ≤ 1.5×)",
                    flush=True,
                )
        print(f"load after: {os.getloadavg()[0]:.2f}", flush=True)
    finally:
        for server in servers:
            server.stop()
        if redis is not None:
            redis.terminate()
        connections.close_all()
        remove()


if __name__ == "__main__":
    main()
