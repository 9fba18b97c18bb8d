"""``{% poll_url table %}``: the URL a live page polls (``games.live``), keyed for its owner."""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.urls import reverse

from games.live import poll_key

register = template.Library()


@register.simple_tag(takes_context=True)
def poll_url(context, table) -> str:
    """The owner's page gets the keyed URL (checked without reading the session: the cheapest
    poll); anyone else the plain one, which the session decides."""
    url = reverse("games:poll", args=[table.pk])
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.pk == table.owner_id:
        return f"{url}?{urlencode({'key': poll_key(table.pk, user.password)})}"
    return url
