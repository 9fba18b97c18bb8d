"""A query compiled once (games.prepared) reads what its queryset reads, on either engine."""

from __future__ import annotations

import pytest

from games.models import Move, Seat, Table
from games.prepared import Prepared
from games.presenters import _SEAT_LINKS
from games.seats import _SEAT_BY_TOKEN
from games.services import writing
from games.snapshot import _RECENT_ROWS
from games.views import _MY_TABLE

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {k: v for k, v in vars(obj).items() if k != "_state"}


def test_the_seat_by_its_token_is_the_querysets_seat_with_its_table(make_table):
    table = make_table()
    for seat in Seat.objects.filter(table=table):
        [kept] = _SEAT_BY_TOKEN.all(seat.token)
        plain = Seat.objects.select_related("table").get(token=seat.token)
        assert fields(kept) == fields(plain)
        assert fields(kept.table) == fields(plain.table)  # loaded with it: no query more
    assert _SEAT_BY_TOKEN.all("no-such-token") == []


def test_a_table_is_read_only_by_its_owner(make_table, gm, other):
    table = make_table()
    [kept] = _MY_TABLE.all(gm.pk, table.pk)
    assert fields(kept) == fields(Table.objects.get(pk=table.pk))
    assert _MY_TABLE.all(other.pk, table.pk) == []
    assert _MY_TABLE.all(gm.pk, table.pk + 1000) == []


def test_the_logs_last_rows_at_any_length(make_table, gm):
    table = make_table()
    assert _RECENT_ROWS.all(table.pk, -12) == []  # below the column's range: still plain SQL
    writing.play_many(table, [{"by": "Ana", "do": "continue", "text": "A door."}], None, gm)
    writing.play_many(table, [{"by": "Bruno", "do": "suggest", "text": "A key."}], None, gm)
    writing.play_many(table, [{"by": "Ana", "do": "end_scene"}], None, gm)
    rows = _RECENT_ROWS.all(table.pk, 1)
    assert [m.seq for m in rows] == [3, 2]
    assert [fields(m) for m in rows] == [
        fields(m) for m in Move.objects.filter(table=table, seq__gt=1).order_by("-seq")
    ]
    assert len(_RECENT_ROWS.all(table.pk, -9)) == 3


def test_a_mark_that_is_no_parameter_is_refused(make_table):
    table = make_table()
    # Below a positive column's range the ORM leaves the condition out of the SQL.
    dropped = Prepared(lambda seq: Move.objects.filter(seq__gt=seq), -5)
    with pytest.raises(ValueError, match="Mark 0"):
        dropped.all(1)
    # A mark met twice could not say which value goes where.
    twice = Prepared(lambda pk: Table.objects.filter(pk=pk) | Table.objects.filter(owner=pk), 77)
    with pytest.raises(ValueError, match="Mark 0"):
        twice.all(table.pk)


def test_the_seat_links_are_the_seats_in_order(make_table):
    table = make_table()
    assert _SEAT_LINKS.all(table.pk) == list(
        Seat.objects.filter(table=table)
        .order_by("position")
        .values_list("name", "token", "position")
    )
    assert _SEAT_LINKS.all(table.pk + 1000) == []
