"""Push: every page that follows a table hears at once that the table moved (issue 50).

A page that follows a table (``static/js/live.js``) holds one websocket to its push address,
beside its poll address: ``/tables/<pk>/push/`` (the owner's pages, with the poll's key, or the
session) or ``/seat/<token>/push/`` (a seat's phone). The connection is checked exactly as the
poll is (``games.live``: the key or the owner's session; the seat's token, a wrong one counted
as a guess by the seat links' throttle), then joins the table's group, ``table-<pk>``.

The write path, once a change is committed (``transaction.on_commit``, never inside the
transaction), sends "table N is at version V" on that group (:func:`announce`); each connection
passes on ``{"version": V}`` and nothing else: the page fetches its own panel as after a poll,
through its own permission checks, so nothing secret travels in the push.

The connections themselves: ``games/followers.py``. The channel layer (settings.CHANNEL_LAYERS): Channels' in-memory layer in one process, Redis
(``channels-redis``) when REDIS_URL is set, which several server processes or machines need.
Polling stays as the fallback: a page whose connection cannot be made or drops keeps polling.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from games.models import Table

logger = logging.getLogger(__name__)

# The event loop of this process's websocket server, once a connection was made: the write
# path (a thread of its own) hands it what to send without waiting for it.
_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def group(table_pk: int) -> str:
    return f"table-{table_pk}"


def announce(table_pk: int, version: int | None = None) -> None:
    """After the current transaction commits (at once outside one), tell the table's group
    its version: ``version``, or the row's own when the caller only guessed it."""
    transaction.on_commit(lambda: send(table_pk, version))


def send(table_pk: int, version: int | None = None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if isinstance(layer, InMemoryChannelLayer) and (loop is None or loop.is_closed()):
        return  # nobody listens in this process, and no other process hears this layer
    if version is None:
        version = Table.objects.filter(pk=table_pk).values_list("version", flat=True).first()
        if version is None:
            return
    message = {"type": "table.version", "version": int(version)}
    try:
        if loop is not None and loop.is_running():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            sending = layer.group_send(group(table_pk), message)
            if running is loop:
                loop.create_task(sending)
            else:
                asyncio.run_coroutine_threadsafe(sending, loop)
            return
        async_to_sync(layer.group_send)(group(table_pk), message)
    except Exception:  # the push is a courtesy: the polls still carry the change
        logger.warning("push to table %s failed", table_pk, exc_info=True)


def remember_loop() -> None:
    """Called on the server's event loop: the loop the write path hands its sends to."""
    global _server_loop
    loop = asyncio.get_running_loop()
    if _server_loop is not loop:
        with _lock:
            _server_loop = loop
