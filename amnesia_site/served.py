"""What ``manage.py serve`` runs under Granian (its ``asgi`` interface): the site's WSGI
application (amnesia_site/wsgi.py) in two pools of threads, so that a poll never waits behind
pages and moves (amnesia_site/lanes.py): THREADS for pages and moves, POLL_THREADS for polls;
and, unless POLL_PROCESS=0, a child process answering the polls with an interpreter of its own
(amnesia_site/pollserver.py), the polls' pool standing by for when it cannot. The websockets
of the push (games/followers.py) are answered beside them, on the event loop."""

from amnesia_site.wsgi import application as wsgi_application  # isort: skip (sets Django up)

import sys
from collections.abc import Callable

from django.conf import settings

from amnesia_site.lanes import Lanes
from amnesia_site.pollserver import PollProcess
from games import followers

# A poll's turns at the interpreter come quickly beside threads rendering pages (settings).
sys.setswitchinterval(settings.SWITCH_INTERVAL_US / 1_000_000)

lanes = Lanes(
    wsgi_application,
    settings.THREADS,
    settings.POLL_THREADS,
    PollProcess(settings.POLL_THREADS, cwd=str(settings.BASE_DIR))
    if settings.POLL_PROCESS
    else None,
)

websockets = followers.application()


async def application(scope: dict, receive: Callable, send: Callable) -> None:
    """The pages and polls through the lanes; the push's websockets (games/followers.py) on the
    event loop itself, as Channels runs them."""
    if scope["type"] == "websocket":
        await websockets(scope, receive, send)
    else:
        await lanes(scope, receive, send)
