"""Benchmark: a move's answer and the table page at 60 and at 1,000 moves, beside a floor.

    DJANGO_SETTINGS_MODULE=amnesia_site.settings PYTHONPATH=. .venv/bin/python \
        bench/move_page.py [SHORT LONG] [GAME ...] [--runs N]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/amnesia_NAME ... bench/move_page.py

For each game (all three unless named), two tables in play are imported: for Amnesia a long
game's first moves, cut where a scene is open; for the others the long games the query-count
tests play (a seeded player of the referee's offers). The database is an in-memory SQLite one,
or with a PostgreSQL DATABASE_URL a test database made and dropped here. DEBUG is off, as
under ``make serve``. Measured through the test client (a logged-in session):
- move: a move posted as the page posts it (htmx), answered with the table's panel (in Amnesia
  a suggestion; in the others the next legal move); the move is chosen off the clock;
- page: the whole table page;
- floor: log in (the session), load the table row and render the base template, the least
  any page of the site costs.
The six requests (floor, page and move, on the short and the long table) are run in turns,
``--runs`` times (15 unless told, at least 5), so a busy machine slows them alike; each figure
is the median of its runs. The ratios to the floor (target: at most 3x for the long table's
page and move) are the median over the runs of each run's figure over the floor measured in
the same run, right before it; the long table's figure over the short one's shows work that
grows with the log. The query counts are the move's and the page's on the long table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
# As under make serve: DEBUG off (with it on, every query is also logged).
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
    os.environ["DATABASE_URL"] = "sqlite:///:memory:"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.decorators import login_required  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.shortcuts import get_object_or_404, render  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import include, path  # noqa: E402

from games.models import Table  # noqa: E402
from games.rules import get_game  # noqa: E402
from games.rules.script import parse_script, replay, rules_part  # noqa: E402
from games.services import new_tables, reading  # noqa: E402
from stories.samples import long_script  # noqa: E402
from tests.games.long_games import long_game, next_move  # noqa: E402

GAMES = ("amnesia", "amnesia_stories", "contest")
TARGET = 3.0  # the long table's page and move, over the floor


@login_required
def floor(request, pk: int):
    get_object_or_404(Table.objects.owned_by(request.user), pk=pk)
    return render(request, "base.html", {})


# The site's URLs plus the floor's own page.
urlpatterns = [path("bench/floor/<int:pk>/", floor), path("", include("amnesia_site.urls"))]


def timed(action) -> float:
    """Seconds the action takes; an action with a ``prepare`` step is readied off the clock."""
    prepare = getattr(action, "prepare", None)
    if prepare is not None:
        prepare()
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def interleaved(actions: list, runs: int) -> list[list[float]]:
    """The seconds of each action in each run, run in turns (a busy machine slows all alike)."""
    for action in actions:
        timed(action)  # warm up (templates, caches)
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for i, action in enumerate(actions):
            times[i].append(timed(action))
    return times


def in_play(moves: int) -> dict:
    """A script of about ``moves`` moves, cut where a scene is open (anyone may suggest)."""
    script = long_script(max(10, min(420, moves * 2 // 5 + 10)))
    setup, parsed = parse_script(script)
    plain = [rules_part(m) for m in parsed]
    for cut in range(min(moves, len(plain)), 0, -1):
        state = replay(setup, plain[:cut]).state
        if state["phase"] == "scene" and not state.get("insist"):
            return {**script, "moves": script["moves"][:cut]}
    raise SystemExit("no open scene in the sample game")


class Move:
    """Posts the next legal move; ``prepare`` finds it (off the clock)."""

    def __init__(self, client: Client, table: Table) -> None:
        self.client, self.table, self.data = client, table, {}
        self.url = f"{table.get_absolute_url()}move/"

    def prepare(self) -> None:
        self.table.refresh_from_db()
        move = next_move(self.table)
        self.data = {"move": json.dumps(move), "expected_seq": self.table.last_seq}

    def __call__(self) -> None:
        response = self.client.post(self.url, self.data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.status_code


class Suggest(Move):
    """Amnesia: a suggestion by someone other than the narrator, posted as the page's form."""

    def prepare(self) -> None:
        self.table.refresh_from_db()
        state = reading.state_of(self.table)
        by = next(n for n in state["seats"] if n != state["narrator"])
        self.data = {
            "by": by,
            "do": "suggest",
            "text": "What if the door was open?",
            "expected_seq": self.table.last_seq,
            "expected_turn": get_game("amnesia").turn_marker(state),
        }


def actions(client: Client, user, moves: int, game: str = "amnesia") -> dict:
    script = in_play(moves) if game == "amnesia" else long_game(game, moves)
    table = new_tables.import_script(script, user, name=f"Bench {game} {moves}")
    url = table.get_absolute_url()

    def page():
        assert client.get(url).status_code == 200

    floor_url = f"/bench/floor/{table.pk}/"
    return {
        "table": table,
        "move": (Suggest if game == "amnesia" else Move)(client, table),
        "page": page,
        "floor": lambda: client.get(floor_url),
    }


def queries(action) -> int:
    prepare = getattr(action, "prepare", None)
    if prepare is not None:
        prepare()
    with CaptureQueriesContext(connection) as done:
        action()
    return len(done)


KINDS = ("move", "page", "floor")


def measure(client: Client, user, game: str, short: int, long: int, runs: int) -> dict:
    a, b = actions(client, user, short, game), actions(client, user, long, game)
    n_a, n_b = a["table"].last_seq, b["table"].last_seq  # before the runs add their moves
    order = [(i, key) for i in (0, 1) for key in ("floor", "page", "move")]
    times = dict(zip(order, interleaved([(a, b)[i][key] for i, key in order], runs), strict=True))
    figures = {
        key: (statistics.median(times[0, key]), statistics.median(times[1, key])) for key in KINDS
    }

    def over_floor(i: int, key: str) -> float:
        """The median over the runs of the ratio to the floor measured in the same run."""
        return statistics.median(
            t / f for t, f in zip(times[i, key], times[i, "floor"], strict=True)
        )

    counts = {"move": queries(b["move"]), "page": queries(b["page"]), "floor": queries(b["floor"])}
    print(
        f"{game} tables in play: about {n_a} and {n_b} moves "
        f"(ms, median of {runs} runs in turns, {connection.vendor})"
    )
    print(f"{'':8}{'short':>9}{'long':>9}{'long/short':>12}{'x floor':>9}{'queries':>9}")
    for key, (x, y) in figures.items():
        print(
            f"{key:8}{x * 1000:9.1f}{y * 1000:9.1f}{y / x:12.2f}{over_floor(1, key):9.2f}"
            f"{counts[key]:>9}"
        )
    ratios = {key: over_floor(1, key) for key in ("move", "page")}
    verdict = "within" if max(ratios.values()) <= TARGET else "NOT within"
    print(
        f"long table against the floor: move {ratios['move']:.2f}x, page {ratios['page']:.2f}x "
        f"({verdict} {TARGET:.0f}x); short table: move {over_floor(0, 'move'):.2f}x, "
        f"page {over_floor(0, 'page'):.2f}x\n"
    )
    return ratios


def arguments(argv: list[str]) -> argparse.Namespace:
    """SHORT LONG (two numbers of moves), GAME... (any of GAMES), --runs N: what the module's
    docstring says; a name that is no game is an error, not a KeyError later."""
    parser = argparse.ArgumentParser(
        prog="bench/move_page.py",
        description="A move's answer and the table page beside a floor, per game.",
        epilog="DATABASE_URL=postgres://... runs it on PostgreSQL (a test database, dropped).",
    )
    parser.add_argument(
        "sizes",
        nargs="*",
        metavar="SHORT LONG | GAME",
        help=f"two numbers of moves (default 60 1000), then games among {', '.join(GAMES)} "
        "(default all)",
    )
    parser.add_argument("--runs", type=int, default=15, help="runs in turns (at least 5)")
    args = parser.parse_args(argv)
    numbers = [a for a in args.sizes if a.isdigit()]
    args.games = [a for a in args.sizes if not a.isdigit()] or list(GAMES)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)} (the games: {', '.join(GAMES)})")
    if len(numbers) not in (0, 2):
        parser.error("give two numbers of moves (SHORT LONG), or none")
    args.short, args.long = (int(a) for a in numbers) if numbers else (60, 1000)
    args.runs = max(5, args.runs)
    return args


def main() -> None:
    args = arguments(sys.argv[1:])
    games, short, long, runs = args.games, args.short, args.long, args.runs
    setup_test_environment()
    postgres = connection.vendor == "postgresql"
    if postgres:
        old_name = connection.creation.create_test_db(verbosity=0)
    else:
        call_command("migrate", verbosity=0)
    try:
        user = get_user_model().objects.create_user("bench", password="bench-password")
        client = Client()
        client.force_login(user)
        with override_settings(ROOT_URLCONF=__name__):
            ratios = {game: measure(client, user, game, short, long, runs) for game in games}
    finally:
        if postgres:
            connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"the long table over the floor ({connection.vendor}, target at most {TARGET:.0f}x):")
    for game, r in ratios.items():
        print(f"  {game:16} move {r['move']:5.2f}x   page {r['page']:5.2f}x")


if __name__ == "__main__":
    main()
