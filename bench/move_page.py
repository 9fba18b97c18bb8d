"""Benchmark: a move's answer and the table page at 60 and at 1,000 moves, beside a floor.

    DJANGO_SETTINGS_MODULE=amnesia_site.settings PYTHONPATH=. .venv/bin/python \
        bench/move_page.py [SHORT LONG] [GAME ...]

For each game (all three unless named), two tables in play are imported into an in-memory
SQLite database: for Amnesia a long game's first moves, cut where a scene is open; for the
others the long games the query-count tests play (a seeded player of the referee's offers). Measured through the test client, each the median of
several runs in this same process:
- move: a move posted as the page posts it (htmx), answered with the table's panel (in Amnesia
  a suggestion; in the others the next legal move, found before the clock starts);
- page: the whole table page;
- floor: log in (the session), load the table row and render the base template, the least
  any page of the site costs.
The ratio is the long table's figure over the short one's: work that grows with the log shows
up there. The query counts are the move's and the page's on the long table.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")
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

from games import services  # noqa: E402
from games.models import Table  # noqa: E402
from games.rules import get_game  # noqa: E402
from games.rules.script import parse_script, replay, rules_part  # noqa: E402
from stories.samples import long_script  # noqa: E402
from tests.games.long_games import long_game, next_move  # noqa: E402

GAMES = ("amnesia", "amnesia_stories", "contest")


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


def interleaved(actions: list, runs: int = 15) -> list[float]:
    """The median seconds of each action, run in turns (a busy machine slows both alike)."""
    for action in actions:
        timed(action)  # warm up (templates, caches)
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(runs):
        for i, action in enumerate(actions):
            times[i].append(timed(action))
    return [statistics.median(t) for t in times]


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


def actions(client: Client, user, moves: int, game: str = "amnesia") -> dict:
    script = in_play(moves) if game == "amnesia" else long_game(game, moves)
    table = services.import_script(script, user, name=f"Bench {game} {moves}")
    url = table.get_absolute_url()
    move_url = f"{url}move/"
    referee = get_game("amnesia")

    def move():
        table.refresh_from_db()
        state = services.state_of(table)
        by = next(n for n in state["seats"] if n != state["narrator"])
        data = {"by": by, "do": "suggest", "text": "What if the door was open?"}
        data["expected_seq"] = table.last_seq
        data["expected_turn"] = referee.turn_marker(state)
        response = client.post(move_url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.status_code

    def page():
        assert client.get(url).status_code == 200

    floor_url = f"/bench/floor/{table.pk}/"
    return {
        "table": table,
        "move": move if game == "amnesia" else Move(client, table),
        "page": page,
        "floor": lambda: client.get(floor_url),
    }


def queries(action) -> int:
    with CaptureQueriesContext(connection) as done:
        action()
    return len(done)


def measure(client: Client, user, game: str, short: int, long: int) -> None:
    a, b = actions(client, user, short, game), actions(client, user, long, game)
    n_a, n_b = a["table"].last_seq, b["table"].last_seq  # before the runs add their moves
    figures = {key: interleaved([a[key], b[key]]) for key in ("move", "page", "floor")}
    if game == "amnesia":
        # the move's count leaves out the benchmark's own two reads of the table
        moved = queries(b["move"]) - 2
    else:
        b["move"].prepare()
        moved = queries(b["move"])
    counts = {"move": moved, "page": queries(b["page"]), "floor": ""}
    print(f"{game} tables in play: about {n_a} and {n_b} moves (ms, median of runs in turns)")
    print(f"{'':12}{'short':>10}{'long':>10}{'ratio':>9}{'queries':>9}")
    for key, (x, y) in figures.items():
        print(f"{key:12}{x * 1000:10.1f}{y * 1000:10.1f}{y / x:9.2f}{counts[key]:>9}")
    floor = figures["floor"][1]
    print(
        f"long table against the floor: move {figures['move'][1] / floor:.1f}x, "
        f"page {figures['page'][1] / floor:.1f}x\n"
    )


def main() -> None:
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    games = [a for a in sys.argv[1:] if not a.isdigit()] or list(GAMES)
    short, long = (int(a) for a in numbers[:2]) if len(numbers) > 1 else (60, 1000)
    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password")
    client = Client()
    client.force_login(user)
    with override_settings(ROOT_URLCONF=__name__):
        for game in games:
            measure(client, user, game, short, long)


if __name__ == "__main__":
    main()
