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
