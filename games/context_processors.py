"""What every page's frame needs from the games: the menu entries they add."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import registry


def game_nav(request) -> dict[str, Any]:
    """Each registered game's own pages for the site menu (``GameKit.nav``)."""
    if not getattr(request, "user", None) or not request.user.is_authenticated:
        return {"game_nav": []}
    entries = []
    for kit in registry.kits():
        for name, label in kit.nav:
            url = reverse(name)
            entries.append({"url": url, "label": label, "current": request.path.startswith(url)})
    return {"game_nav": entries}
