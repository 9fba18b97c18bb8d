"""``{{ names|listing }}`` and ``{% comma %}``: lists written as the reader's language writes
them (amnesia_site.lists)."""

from __future__ import annotations

from django import template

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
    """A day kept as ISO text (``2026-03-14``, as the exports write it) in the reader's own
    short form (14/03/2026 in Portuguese, 2026/03/14 in Japanese); anything else as it is."""
    from datetime import date

    from django.utils import formats

    try:
        parsed = date.fromisoformat(str(value))
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
