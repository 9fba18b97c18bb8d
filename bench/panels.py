"""Benchmark: what one seat panel and one table panel cost (issue 50: after a move every phone
fetches its panel at once), at each game's demo tables.

    .venv/bin/python bench/panels.py [--profile GAME] [--runs 30]

Each demo script is imported into an in-memory SQLite database; each panel is fetched as the
page's htmx does (``HX-Request``) through the test client. Printed per table: the median CPU
milliseconds of a fetch (``time.process_time``), its queries, and its bytes; the seat panel is
each seat's in turn. ``--profile GAME`` prints cProfile's top functions (by cumulative and by own time) for that
game's first demo's seat panels, then its table panel.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
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
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import registry  # noqa: E402
from games.services import new_tables  # noqa: E402


def cost(client: Client, urls: list[str], runs: int) -> tuple[float, int, int]:
    """(median CPU ms, queries, bytes) of a fetch, over ``runs`` fetches going round ``urls``."""
    times, queries, size = [], 0, 0
    for n in range(runs):
        url = urls[n % len(urls)]
        with CaptureQueriesContext(connection) as done:
            started = time.process_time()
            answer = client.get(url, HTTP_HX_REQUEST="true")
            times.append(time.process_time() - started)
        assert answer.status_code == 200, (url, answer.status_code)
        queries, size = len(done.captured_queries), len(answer.content)
    return statistics.median(times) * 1e3, queries, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--profile", default="")
    parser.add_argument("--top", type=int, default=40, help="functions listed per profile")
    args = parser.parse_args()
    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password")
    client = Client()
    client.force_login(user)
    seats_client = Client()
    print(f"load: {os.getloadavg()[0]:.2f}")
    print(f"{'game / demo':44} {'seat ms':>8} {'q':>3} {'bytes':>7}   {'table ms':>8} {'q':>3}")
    for kit in registry.kits():
        for name, script in kit.demos(timezone.now()):
            table = new_tables.import_script(script, user, name=name)
            seat_urls = [reverse(kit.seat_page, args=[s.token]) for s in table.seats.all()]
            table_url = reverse("games:table", args=[table.pk])
            seat = cost(seats_client, seat_urls, args.runs)
            whole = cost(client, [table_url], args.runs)
            label = f"{kit.slug} / {name}"[:44]
            print(
                f"{label:44} {seat[0]:8.1f} {seat[1]:3} {seat[2]:7}   {whole[0]:8.1f} {whole[1]:3}"
            )
            if args.profile == kit.slug:
                for what, who, urls in (
                    ("seat panel", seats_client, seat_urls),
                    ("table panel", client, [table_url]),
                ):
                    profile = cProfile.Profile()
                    profile.enable()
                    for n in range(args.runs):
                        who.get(urls[n % len(urls)], HTTP_HX_REQUEST="true")
                    profile.disable()
                    print(f"--- {what}: by cumulative time, then by own time")
                    stats = pstats.Stats(profile)
                    stats.sort_stats("cumulative").print_stats(args.top)
                    stats.sort_stats("tottime").print_stats(args.top)
                args.profile = ""


if __name__ == "__main__":
    main()
