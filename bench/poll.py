"""Benchmark: what a poll with nothing new costs, against the least an authenticated request
costs.

    DJANGO_SETTINGS_MODULE=amnesia_site.settings .venv/bin/python bench/poll.py [REQUESTS]

Every phone and screen at every table polls every few seconds, so a poll that finds nothing
new must cost about what any request costs. Both requests go through the whole site's
middleware in this process (Django's test client, a logged-in session cookie sent each
time): the baseline is a view that returns 204 and does nothing; the poll is
``/tables/<id>/poll/?since=V&key=K`` for the owner (the URL the owner's page polls; the same
without the key, checked by the session, is shown too), and ``/seat/<token>/poll/`` for a phone. The
target is a ratio of at most 1.5. The database is a throwaway SQLite file in WAL mode like the
site's (or DATABASE_URL's PostgreSQL, whose test database is made and dropped here).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
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
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.gettempdir()}/amnesia-bench-poll.sqlite3"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import path, reverse  # noqa: E402

from games.live import poll_key  # noqa: E402
from games.services import new_tables, writing  # noqa: E402


def nothing(request, pk: int):
    return HttpResponse(status=204)


def _with_baseline() -> list:
    """The site's URLs with the baseline view just before the table engine's, so that finding
    it walks as many patterns as finding the poll does (give or take the few before the poll
    in games/urls.py)."""
    from amnesia_site.urls import urlpatterns as site

    where = next(
        i
        for i, p in enumerate(site)
        if getattr(p, "urlconf_name", None) is not None
        and getattr(p.urlconf_name, "__name__", "") == "games.urls"
    )
    return [*site[:where], path("tables/<int:pk>/nothing/", nothing), *site[where:]]


urlpatterns = _with_baseline()


def timed(client: Client, url: str, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 204, (url, response.status_code)
    return times


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        with override_settings(ROOT_URLCONF=__name__):
            user = get_user_model().objects.create_user("bench", password="bench-password")
            table = new_tables.create_table(user, "amnesia", ["Ana", "Bruno", "Caio"], seed=7)
            writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, user)
            client = Client()
            client.force_login(user)
            phone = Client()
            urls = {
                "baseline (204, does nothing)": f"/tables/{table.pk}/nothing/",
                "table poll, nothing new": reverse("games:poll", args=[table.pk])
                + f"?since={table.version}&key={poll_key(table.pk, user.password)}",
                "table poll, by the session": reverse("games:poll", args=[table.pk])
                + f"?since={table.version}",
                "seat poll, nothing new": reverse(
                    "games:seat_poll", args=[table.seats.first().token]
                )
                + f"?since={table.version}",
            }
            for url in urls.values():  # warm up: imports, URL resolution, connections
                timed(phone if "seat" in url else client, url, 50)
            # Interleaved rounds, so a noisy neighbour slows all three alike.
            samples: dict[str, list[float]] = {name: [] for name in urls}
            for _ in range(10):
                for name, url in urls.items():
                    who = phone if "seat" in url else client
                    samples[name] += timed(who, url, runs // 10)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    medians = {name: statistics.median(times) for name, times in samples.items()}
    base = medians["baseline (204, does nothing)"]
    print(f"{connection.vendor}, {runs} requests each, median per request:")
    for name, value in medians.items():
        print(f"  {name:30} {value * 1e6:8.0f} µs   {value / base:4.2f}× the baseline")
    worst = max(medians["table poll, nothing new"], medians["seat poll, nothing new"]) / base
    print(f"worst poll / baseline: {worst:.2f}× (target ≤ 1.5×)")


if __name__ == "__main__":
    main()
