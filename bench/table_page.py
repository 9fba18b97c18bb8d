"""Benchmark: what a table page costs on a long game, beside the referee's bare replay.

    DJANGO_SETTINGS_MODULE=amnesia_site.settings .venv/bin/python bench/table_page.py [SCENES]

A 300-scene Amnesia game is imported into an in-memory SQLite database. Measured, each the
median of several runs in this same process:
- replay: the referee alone replaying the script (the baseline: what any page must do at
  least once without a cache);
- state (cached): the write path's read of the state when the cache is current;
- state (rebuilt): the same with the cache dropped (a full replay from the log rows);
- page: the whole live table page through the test client (state, legal moves, the story so
  far, template), and the htmx partial a move answers with.
Ratios are against the replay, so a noisy machine moves both sides.
"""

from __future__ import annotations

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
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games.models import Table  # noqa: E402
from games.rules.script import parse_script, replay, rules_part  # noqa: E402
from games.services import new_tables, reading  # noqa: E402
from stories.samples import long_script  # noqa: E402


def median_seconds(action, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    scenes = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password")
    script = long_script(scenes)
    table = new_tables.import_script(script, user, name="Bench")
    moves = len(script["moves"])
    setup, parsed = parse_script(script)
    plain = [rules_part(m) for m in parsed]

    def drop_cache_and_read():
        Table.objects.filter(pk=table.pk).update(state=None)
        reading.state_of(Table.objects.get(pk=table.pk))

    client = Client()
    client.force_login(user)
    url = table.get_absolute_url()
    assert client.get(url).status_code == 200

    rows = [
        ("replay (referee alone)", median_seconds(lambda: replay(setup, plain))),
        (
            "state, cache current",
            median_seconds(lambda: reading.state_of(Table.objects.get(pk=table.pk))),
        ),
        ("state, cache dropped", median_seconds(drop_cache_and_read)),
        ("table page (full)", median_seconds(lambda: client.get(url))),
        (
            "table page (htmx partial)",
            median_seconds(lambda: client.get(url, HTTP_HX_REQUEST="true")),
        ),
    ]
    base = rows[0][1]
    print(f"Amnesia game: {scenes} scenes, {moves} moves")
    print(f"{'':32}{'ms':>10}{'× replay':>12}")
    for name, seconds in rows:
        print(f"{name:32}{seconds * 1000:10.1f}{seconds / base:12.2f}")


if __name__ == "__main__":
    main()
