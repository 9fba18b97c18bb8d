"""The one reader of a number a request sends as text (a form field, a query parameter).

``str.isdigit`` says yes to "²" and "٣", and ``int`` then raises on the first and reads the
second; ``int`` also reads "1_000" and " +7 ", and raises on more than 4,300 digits. Here a
number is an optional minus and at most MAX_DIGITS ASCII digits, within the bounds a caller
gives; anything else is no number (None), never an exception. A move's field keeps the text
as typed instead (``number_or_text``), for the referee to refuse in its own words.

A form reads its numbers with ``WholeNumberField``: Django's ``IntegerField`` with this reader
inside (Django's own reads "1_000", and a number past both engines' 64-bit integers reached the
database when a field had no maximum: SQLite's OverflowError, PostgreSQL's DataError).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

# Every count, position, id and sequence number the site reads fits; so does JSON's safe
# range (2**53) and both engines' 64-bit integers.
MAX_DIGITS = 15
MAX_WHOLE = 10**MAX_DIGITS - 1
_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
_DIGITS = re.compile(r"-?[0-9]+")


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


class WholeNumberField(forms.IntegerField):
    """A form's whole number, read by ``whole_number``: at most MAX_DIGITS digits whatever
    ``max_value`` says, and a number with more digits is refused as out of range, in
    Django's translated words, rather than as no number."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        number = whole_number(value)
        if number is not None:
            return number
        text = value.strip() if isinstance(value, str) else ""
        if _DIGITS.fullmatch(text):  # digits, too many of them: say the bound it passed
            if text.startswith("-"):
                low = -MAX_WHOLE if self.min_value is None else max(self.min_value, -MAX_WHOLE)
                MinValueValidator(low)(-MAX_WHOLE - 1)
            high = MAX_WHOLE if self.max_value is None else min(self.max_value, MAX_WHOLE)
            MaxValueValidator(high)(MAX_WHOLE + 1)
        raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
