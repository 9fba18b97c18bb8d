"""``{{ names|listing }}`` and ``{% comma %}``: lists written as the reader's language writes
them (amnesia_site.lists); ``{{ "2026-01-02"|day }}``: a stored day as the reader writes it."""

from __future__ import annotations

from datetime import date

from django import template
from django.utils import formats

from amnesia_site import lists

register = template.Library()


@register.filter
def listing(items) -> str:
    """The items joined with the language's list separator (autoescaped like ``join``)."""
    return lists.listing(items)


@register.simple_tag
def comma() -> str:
    """The separator between two items of a list written out in a loop."""
    return lists.separator()


@register.simple_tag
def colon() -> str:
    """A label's colon: ：, full width, in Japanese; ": " in the other languages."""
    return lists.colon()


@register.filter
def day(value) -> str:
    """A day kept as an ISO text ("2026-01-02") in the reader's short form (02/01/2026 in
    Portuguese, 2026/01/02 in Japanese); anything else as it is."""
    try:
        parsed = value if isinstance(value, date) else date.fromisoformat(str(value))
    except ValueError:
        return value
    return formats.date_format(parsed, "SHORT_DATE_FORMAT")


@register.simple_tag
def bracket_open() -> str:
    """An opening bracket after a word: `` (`` , or ``（`` (full width, no space) in Japanese."""
    return lists.bracketed("")[:-1]


@register.simple_tag
def bracket_close() -> str:
    return lists.bracketed("")[-1]
