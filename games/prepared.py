"""A hot read compiled once: its SQL kept, then run again with other values (issue 50).

After every move each phone fetches its seat panel and each laptop its table panel, and a
panel's one or two reads of wide rows (a seat with its table: some forty columns) cost more
to compile into SQL than to run: the ORM walks every column of every model each time
(``bench/panels.py --profile GAME``: about a third of a seat panel's CPU was the seat's read).
A ``Prepared`` query is built once with stand-in values (``marks``), compiled, and its SQL and
its compiler (which columns are which model's fields) kept per database alias; each call runs
that SQL with the call's values in the marks' places and reads the rows through the ORM's own
iterator (converters, ``select_related`` objects, fetch modes; or ``values_list``'s tuples),
as the queryset would have.

Only for a query whose SQL depends on nothing but its marks' values: no ``None`` (``IS NULL``
is other SQL), no list of varying length, nothing read from settings that a test overrides.
Each mark must reach the SQL as exactly one parameter: compiling refuses otherwise (a
number out of its column's range is no parameter: the ORM drops or refuses the condition,
so a mark is a value the column may hold). A call's values may be any the column's type
takes: the SQL stays as compiled (``seq > -5`` where the ORM would have left it out).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet


class Prepared[R]:
    def __init__(self, build: Callable[..., QuerySet[Any, R]], *marks: Any):
        """``build(*values)``: the queryset for those values; ``marks``: stand-ins of the
        values' types and in their columns' range, equal to no other parameter of the query."""
        self.build = build
        self.marks = marks
        self.kept: dict[str, tuple[QuerySet[Any, R], Any, str, list[Any]]] = {}
        self.local = threading.local()  # per thread: its connection's converters
        self.lock = threading.Lock()

    def _compiled(self, alias: str) -> tuple[QuerySet[Any, R], Any, str, list[Any]]:
        kept = self.kept.get(alias)
        if kept is None:
            queryset = self.build(*self.marks).using(alias)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            # A mark's parameter may come typed for the driver (psycopg's ``Int4`` for an
            # integer column): each call's value is made the same type.
            places: list[Any] = []
            for param in params:
                found = [
                    n for n, m in enumerate(self.marks) if isinstance(param, type(m)) and m == param
                ]
                places.append((found[0], type(param)) if found else _Constant(param))
            for n in range(len(self.marks)):
                if [p[0] for p in places if type(p) is tuple].count(n) != 1:
                    raise ValueError(f"Mark {n} is not exactly one parameter of {sql!r}.")
            kept = (queryset, compiler, sql, places)
            with self.lock:
                self.kept[alias] = kept
        return kept

    def all(self, *values: Any, alias: str = "default") -> list[R]:
        """The rows ``build(*values)`` reads, as its queryset would read them."""
        queryset, kept_compiler, sql, places = self._compiled(alias)
        params = tuple(p.value if isinstance(p, _Constant) else p[1](values[p[0]]) for p in places)
        # A copy of the kept compiler on this thread's connection, its SQL already made: the
        # ORM's iterator runs it (``execute_sql`` asks ``as_sql``) and maps its columns.
        connection = connections[alias]
        compiler = copy.copy(kept_compiler)
        compiler.connection = connection
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        # The columns' converters (a JSON field's decoding, SQLite's times) are the same for
        # every call on one connection (one per thread): asked of it once.
        mine = self.local.__dict__.setdefault("converters", {})
        kept_converters = mine.get(alias)
        if kept_converters is None or kept_converters[0] is not connection:
            fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
            kept_converters = mine[alias] = (connection, compiler.get_converters(fields))
        converters = kept_converters[1]
        compiler.get_converters = lambda expressions: converters
        rows = queryset.all()
        rows.query.get_compiler = lambda *args, **kwargs: compiler  # type: ignore[method-assign]
        return list(rows)


class _Constant:
    """A parameter of the compiled SQL that is no mark's: the same at every call."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value
