"""The split of the PostgreSQL run (tests/conftest.py): it leaves out only the tests that cannot
reach the database, and a test that reaches it without saying so fails on SQLite.

These tests ask for no database, so the PostgreSQL run leaves them out; the SQLite run, which
collects everything, keeps the rule.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import in_browser_tests, long_tests_first, needs_database


def test_a_test_that_asks_for_no_database_cannot_reach_it() -> None:
    """pytest-django's blocker: the reason a test the PostgreSQL run leaves out can't be one
    that uses the database (it would fail here, on SQLite, first)."""
    with pytest.raises(RuntimeError, match="Database access not allowed"):
        get_user_model().objects.exists()


def test_every_test_given_the_database_is_kept_on_postgresql(request: pytest.FixtureRequest):
    """pytest-django grants the database through `_django_db_helper` (the `db` family of
    fixtures) or the `django_db` mark: a test granted it by any other fixture name would be
    left out of the PostgreSQL run although it uses the database."""
    items = request.session.items
    granted = [
        item
        for item in items
        if "_django_db_helper" in getattr(item, "fixturenames", ())
        or item.get_closest_marker("django_db")
    ]
    assert granted, "the session holds tests that use the database"
    assert [item.nodeid for item in granted if not needs_database(item)] == []
    free = [item for item in items if not needs_database(item)]
    assert request.node in free
    assert not [item for item in free if "_django_db_helper" in item.fixturenames]


def test_the_browser_tests_are_told_apart(request: pytest.FixtureRequest) -> None:
    tests = Path(__file__).resolve().parent
    assert in_browser_tests(tests / "browser" / "test_smoke.py")
    assert not in_browser_tests(request.node.path)
    assert not in_browser_tests(tests / "games" / "test_browser_free.py")


def test_a_fixture_that_asks_for_db_brings_the_test_along(gm_client, request) -> None:
    """`gm_client` asks for `gm`, which asks for `db`: the rule reads the whole chain, so this
    test is kept on PostgreSQL (and it does reach the database: the player is stored)."""
    assert needs_database(request.node)
    assert get_user_model().objects.filter(username="gm").exists()


def test_the_xdist_groups_hold(request: pytest.FixtureRequest) -> None:
    """The tests of one ``xdist_group`` run on one worker (a module's shared server, the books
    printed once, makemessages never twice at once): under ``--dist loadgroup`` pytest-xdist
    sends a test by the group it writes into its id. A pytest that keeps the id elsewhere
    (9.2, with pytest-xdist 3.8) left every group to chance without a word."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not request.config.getvalue("loadgroup"):
        pytest.skip("only a run spread over test workers by group has groups to hold")
    grouped = [
        (item.nodeid, marker.args[0])
        for item in request.session.items
        if (marker := item.get_closest_marker("xdist_group")) is not None
    ]
    if not grouped:
        pytest.skip("no grouped test in this run")
    assert [nodeid for nodeid, name in grouped if not nodeid.endswith(f"@{name}")] == []


def test_the_long_tests_come_first(request: pytest.FixtureRequest) -> None:
    """The tests marked ``long`` are handed out first (tests/conftest.py), so the run does
    not end with one worker alone on one of them."""
    marked = [item.get_closest_marker("long") is not None for item in request.session.items]
    if not any(marked):
        pytest.skip("no long test in this run")
    assert marked == sorted(marked, reverse=True)


def test_long_tests_first_keeps_each_part_in_order() -> None:
    class Item:
        def __init__(self, name: str, long: bool) -> None:
            self.name, self.long = name, long

        def get_closest_marker(self, name: str) -> object | None:
            return object() if name == "long" and self.long else None

    items = [Item("a", False), Item("b", True), Item("c", False), Item("d", True)]
    long_tests_first(items)  # stand-ins with the one method it reads
    assert [item.name for item in items] == ["b", "d", "a", "c"]
