"""Hostile bodies to every POST endpoint that takes a move, a script, a label, an impression or
a bundle: never a 500, never a traceback page (DEBUG is on), no table's log changed, and nothing
else written (a label, an impression, a report, a table or a person from a bundle).

A seeded generator (SEED, ROUNDS) makes the same requests on every run, on whichever engine
the suite runs on (SQLite, or PostgreSQL with DATABASE_URL). Each body starts from a move
or script that would be accepted and is then broken on purpose, at least once, in a way
that must be refused: deep JSON, numbers too long to read, NaN, NUL bytes, lone surrogates,
invalid UTF-8, fields of the wrong kind, fields no verb reads, huge strings, a stale or
malformed position, a malformed client id, a zip that is cut, flipped, or holds a hostile
bundle.json or a file outside its folders. The figures are printed (``pytest -s``).

``bench/fuzz.py`` sends the same kinds of requests by the thousand on both engines.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.games.fuzz_endpoints import ALSO_ALLOWED, ENDPOINTS, World, make_world, send, snapshot
from tests.games.fuzz_values import ROUNDS, SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(gm, gm_client) -> World:
    return make_world(gm, gm_client)


def test_hostile_bodies_are_answered_in_words_and_change_no_log(world, settings, capsys):
    settings.DEBUG = True  # and still no traceback page for anything sent here
    before = snapshot(world)
    rng = random.Random(SEED)
    statuses: dict[str, Counter] = {}
    failures = []
    sent = 0
    for name, make in ENDPOINTS.items():
        seen = statuses.setdefault(name, Counter())
        for round_ in range(ROUNDS):
            client, url, kwargs = make(rng, world)
            status, body = send(client, url, kwargs)
            sent += 1
            seen[status] += 1
            allowed = {400, 404, 409} | ALSO_ALLOWED.get(name, set())
            if status not in allowed or "Traceback" in body:
                failures.append(f"{name} #{round_}: {status} {body[:200]} {str(kwargs)[:300]}")
    with capsys.disabled():
        print(f"\nfuzz: {sent} requests, seed {SEED}")
        for name, seen in statuses.items():
            print(f"  {name:24} {dict(sorted(seen.items()))}")
    assert not failures, "\n".join(failures)
    assert snapshot(world) == before
    assert sent == ROUNDS * len(ENDPOINTS)
