"""Model fields the games need beyond Django's own."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models

# An integer of 19 digits or more may lie outside 64 bits, which orjson reads as a float (and
# will not write): a text holding such a run of digits is read by the standard library. The
# run is looked for with every digit made a 0 (bytes.translate, then a plain search): a regular
# expression took more time than orjson saved.
DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG_DIGITS = b"0" * 19
# What the standard library refuses, orjson refuses too (a date, a dataclass: TypeError).
REFUSE = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any) -> str:
    """``value`` as compact JSON text, non-ASCII characters as they are (orjson: a move writes
    the state and the kept story, some 80 KB in Amnesia Stories, in a tenth of the standard
    library's time); what orjson does not write (an integer past 64 bits, a key that is not
    a string) is written by the standard library, as before."""
    try:
        return orjson.dumps(value, option=REFUSE).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """The value of JSON ``text``: orjson's reading (several times the standard library's
    speed), except where an integer may be too long for it (``LONG_DIGITS``)."""
    raw = text.encode() if isinstance(text, str) else text
    if LONG_DIGITS in raw.translate(DIGITS_AS_ZEROS):
        return json.loads(raw)
    return orjson.loads(raw)


class ExactJSONField(models.TextField):
    """JSON stored as text, so it comes back exactly as written.

    PostgreSQL's jsonb re-orders object keys (shortest first), so a state read back from
    it lists players in another order than SQLite or a fresh replay: pages that show
    ``gains`` or ``vp`` would differ by database. The state cache needs no JSON queries,
    only an exact round trip.
    """

    # For django-stubs: what is read and written is JSON's values, not the column's text.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value, expression, connection):
        return None if value is None else loads(value)

    def to_python(self, value):
        if isinstance(value, str):
            return loads(value)
        return value

    def get_prep_value(self, value):
        if value is None:
            return None
        return dumps(value)

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj)) or ""
