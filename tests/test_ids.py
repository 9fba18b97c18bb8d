"""Each test's ids start just after the rows that are there, on both engines
(tests/plugins/database.py's ``db`` and ``set_ids_back``). PostgreSQL's sequences are outside
transactions, and SQLite's go on past rows that were committed and deleted (a transactional
test's flush): without it, what a test draws from its ids (a book's cover is seeded by its
story's id) would depend on what ran before it."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.models import Max

from games.models import Table
from tests.plugins.database import ids_as_they_are, set_ids_back


def assert_ids_as_set_back_from_the_rows() -> None:
    """Each sequence where ``set_ids_back`` puts it from the rows there: what the ``db``
    fixture put back (tests/plugins/database.py, ``IdsBetweenTests``) was not stale."""
    left = ids_as_they_are(connection)
    set_ids_back()
    assert ids_as_they_are(connection) == left


def test_the_next_id_comes_just_after_the_rows_left(make_table) -> None:
    tables = [make_table() for _ in range(4)]
    Table.objects.filter(pk__in=[t.pk for t in tables[1:]]).delete()
    assert make_table().pk == tables[-1].pk + 1  # past the deleted rows, on both engines
    Table.objects.filter(pk__gt=tables[0].pk).delete()
    set_ids_back()
    assert make_table().pk == tables[0].pk + 1


# One worker runs both turns, one after the other: on PostgreSQL the second would start past
# the first's tables unless the fixture set the ids back in between.
@pytest.mark.xdist_group("ids")
@pytest.mark.parametrize("turn", ["first", "second"])
def test_a_tests_ids_start_after_the_rows_there(turn, make_table) -> None:
    assert_ids_as_set_back_from_the_rows()
    tables_before = Table.objects.aggregate(top=Max("pk"))["top"] or 0
    assert make_table().pk == tables_before + 1
    assert make_table().pk == tables_before + 2


# A flush (the end of every transactional test) writes the rows each test starts with anew: the
# first flush of a run, past the ids they had (the content types, the permissions, the built-in
# rulesets). The ``db`` fixture keeps where each sequence stands from one test to the next and
# must set that aside at a flush: the second test's ids start after the rows written anew.
# pytest-django runs the transactional tests after the others; these two keep their order.
@pytest.mark.xdist_group("ids")
@pytest.mark.parametrize("turn", ["first", "second"])
def test_after_a_flush_ids_start_after_the_rows_written_anew(turn, transactional_db, db) -> None:
    assert_ids_as_set_back_from_the_rows()
    top = ContentType.objects.aggregate(top=Max("pk"))["top"]
    assert ContentType.objects.create(app_label="tests", model=f"ids-{turn}").pk == top + 1
