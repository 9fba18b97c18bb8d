"""The one reader of a number a request sends as text (a form field, a query parameter).

``str.isdigit`` says yes to "²" and "٣", and ``int`` then raises on the first and reads the
second; ``int`` also reads "1_000" and " +7 ", and raises on more than 4,300 digits. Here a
number is an optional minus and at most MAX_DIGITS ASCII digits, within the bounds a caller
gives; anything else is no number (None), never an exception. A move's field keeps the text
as typed instead (``number_or_text``), for the referee to refuse in its own words.

Django's own form fields (``forms.IntegerField`` with min/max) read theirs with bounds too.
"""

from __future__ import annotations

import re
from typing import Any

# Every count, position, id and sequence number the site reads fits; so does JSON's safe
# range (2**53) and both engines' 64-bit integers.
MAX_DIGITS = 15
_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(raw: Any, *, low: int | None = None, high: int | None = None) -> int | None:
    """``raw`` (spaces around it aside) as a whole number from ``low`` to ``high``, or None."""
    if not isinstance(raw, str) or not _WHOLE.fullmatch(raw := raw.strip()):
        return None
    number = int(raw)
    if (low is not None and number < low) or (high is not None and number > high):
        return None
    return number


def number_or_text(raw: str) -> int | str:
    """A move's number field as sent: the number, or the text (stripped) when it is none."""
    number = whole_number(raw)
    return raw.strip() if number is None else number
