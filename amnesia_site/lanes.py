"""Two lanes through the server: a phone's "anything new?" never waits behind pages and moves.

Every phone and screen at every table polls every few seconds (``games.live``). A poll costs
next to nothing, but a server whose every thread is busy rendering a panel or playing a move
makes it wait for a free thread, then for its turn among them all: seconds, at twenty tables.
So ``manage.py serve`` runs the site's WSGI application through this ASGI application (Granian's
``asgi`` interface; ``amnesia_site/served.py``): the event loop only reads each request and hands
it to one of two pools of threads, where Django runs it as under any WSGI server:

- the polls' pool (``POLL_THREADS``): the views marked ``reads_no_session``, the polls;
- the pages' pool (``THREADS``): everything else, pages, moves, downloads, static files.

A request that waits for its pool waits in that pool's queue, holding no thread: a crowd of
pages and moves (twenty tables undoing at once) never takes the polls' threads, and only a few
pages run at a time beside a poll, so its turn at the interpreter comes quickly.

Under the push (games/push.py) the polls are a fallback every 15 s, but the pool stays the
measured way to run the site's synchronous views under ASGI: Django's own ASGI handler runs each
request in a thread of its own (a new database connection each, every thread at the interpreter
at once), and on this machine it served moves 25× slower under the push (docs/serving.md,
"The lanes"). A thread of a pool keeps its connection, and only so many run at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from tempfile import SpooledTemporaryFile

from asgiref.wsgi import WsgiToAsgiInstance
from django.urls import Resolver404, get_resolver

logger = logging.getLogger(__name__)

# A request body larger than this waits on disk, not in memory, until its view reads it.
BODY_IN_MEMORY = 1024 * 1024


@lru_cache(maxsize=4096)
def is_poll(path: str) -> bool:
    """Whether ``path`` is answered by a view that needs no session: a poll."""
    try:
        match = get_resolver().resolve(path)
    except Resolver404:
        return False
    except Exception:  # a path Django would refuse: its answer comes from the pages' pool
        return False
    return bool(getattr(match.func, "reads_no_session", False))


class Lanes:
    """An ASGI application running a WSGI one in two pools of threads (see the module)."""

    def __init__(
        self,
        application: Callable,
        pages: int,
        polls: int,
    ) -> None:
        if pages < 1 or polls < 1:
            raise ValueError("each pool needs a thread at least")
        self.application = application
        self.pages = ThreadPoolExecutor(pages, thread_name_prefix="pages")
        self.polls = ThreadPoolExecutor(polls, thread_name_prefix="polls")

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            raise ValueError(f"{scope['type']} is not served here")
        with SpooledTemporaryFile(max_size=BODY_IN_MEMORY) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body.write(message.get("body", b""))
                if not message.get("more_body"):
                    break
            body.seek(0)
            request = WsgiToAsgiInstance(self.application)
            request.scope = scope
            try:
                environ = request.build_environ(scope, body)
            except ValueError:  # too many headers of one name
                await send({"type": "http.response.start", "status": 400, "headers": []})
                await send({"type": "http.response.body", "body": b"Bad Request"})
                return
            poll = is_poll(environ["PATH_INFO"])
            pool = self.polls if poll else self.pages
            loop = asyncio.get_running_loop()
            answer = await loop.run_in_executor(pool, self._run, environ, send, loop)
            if answer is not None:  # a whole answer: sent from here, no more trips between threads
                start, content = answer
                await send(start)
                await send({"type": "http.response.body", "body": content, "more_body": False})

    def _run(
        self, environ: dict, send: Callable, loop: asyncio.AbstractEventLoop
    ) -> tuple[dict, bytes] | None:
        """The WSGI application, on a thread of the pool. An answer held whole (a page, a poll)
        is returned for the loop to send; a streamed one (a file, a download) is sent from
        here through the loop, a piece at a time."""
        started: dict = {}

        def start_response(status: str, headers: list, exc_info=None):
            if exc_info and started.get("sent"):
                raise exc_info[1].with_traceback(exc_info[2])
            started["message"] = {
                "type": "http.response.start",
                "status": int(status.split(" ", 1)[0]),
                "headers": [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers],
            }
            return lambda data: None  # the legacy write(): Django never calls it

        result = self.application(environ, start_response)
        try:
            if not getattr(result, "streaming", False):
                return started["message"], b"".join(result)

            async def sent(message: dict) -> None:
                await send(message)  # the server's send may be an awaitable but no coroutine

            def out(message: dict) -> None:
                asyncio.run_coroutine_threadsafe(sent(message), loop).result()

            out(started["message"])
            started["sent"] = True
            for chunk in result:
                if chunk:
                    out({"type": "http.response.body", "body": chunk, "more_body": True})
            out({"type": "http.response.body", "body": b"", "more_body": False})
            return None
        finally:
            # Django's request_finished (database connections returned, files closed).
            if hasattr(result, "close"):
                result.close()

    async def _lifespan(self, receive: Callable, send: Callable) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.pages.shutdown(wait=False, cancel_futures=True)
                self.polls.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return
