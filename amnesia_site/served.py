"""What ``manage.py serve`` runs under Granian (its ``asgi`` interface): the site's WSGI
application (amnesia_site/wsgi.py) in two pools of threads, so that a poll never waits behind
pages and moves (amnesia_site/lanes.py): THREADS for pages and moves, POLL_THREADS for polls.
The websockets of the push (games/followers.py) are answered beside them, on the event loop."""

from amnesia_site.wsgi import application as wsgi_application  # isort: skip (sets Django up)

import sys
from collections.abc import Callable

from django.conf import settings

from amnesia_site.lanes import Lanes
from games import followers

# A poll's turns at the interpreter come quickly beside threads rendering pages (settings).
sys.setswitchinterval(settings.SWITCH_INTERVAL_US / 1_000_000)

lanes = Lanes(wsgi_application, settings.THREADS, settings.POLL_THREADS)

websockets = followers.application()


async def application(scope: dict, receive: Callable, send: Callable) -> None:
    """The pages and polls through the lanes; the push's websockets (games/followers.py) on the
    event loop itself, as Channels runs them."""
    if scope["type"] == "websocket":
        await websockets(scope, receive, send)
    else:
        await lanes(scope, receive, send)
