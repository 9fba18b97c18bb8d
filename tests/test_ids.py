"""Each test's ids start after the rows that are there, on both engines (tests/conftest.py's
``db``): on SQLite a test's rollback takes its ids back; PostgreSQL's sequences are outside
transactions, so the fixture sets them back. What a test draws from its ids (a book's cover is
seeded by its story's id) is then the same on both runs, whatever ran before it."""

from __future__ import annotations

import pytest
from django.db.models import Max

from games.models import Table


# One worker runs both, one after the other: the second starts where the first left off
# unless the ids were set back in between.
@pytest.mark.xdist_group("ids")
@pytest.mark.parametrize("turn", ["first", "second"])
def test_a_tests_ids_start_after_the_rows_there(turn, make_table) -> None:
    tables_before = Table.objects.aggregate(top=Max("pk"))["top"] or 0
    assert make_table().pk == tables_before + 1
    assert make_table().pk == tables_before + 2
