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

The channel layer (settings.CHANNEL_LAYERS): Channels' in-memory layer in one process, Redis
(``channels-redis``) when REDIS_URL is set, which several server processes or machines need.
Polling stays as the fallback: a page whose connection cannot be made or drops keeps polling.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction
from django.http import HttpRequest

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
        from games.models import Table

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


def _remember_loop() -> None:
    global _server_loop
    loop = asyncio.get_running_loop()
    if _server_loop is not loop:
        with _lock:
            _server_loop = loop


def _request(scope: dict[str, Any]) -> HttpRequest:
    """What the throttle and the session check read of a request, from the connection's."""
    request = HttpRequest()
    client = scope.get("client") or ("", 0)
    request.META["REMOTE_ADDR"] = client[0]
    for name, value in scope.get("headers", []):
        key = "HTTP_" + name.decode("latin1").upper().replace("-", "_")
        request.META[key] = value.decode("latin1")
    if "session" in scope:
        request.session = scope["session"]
    return request


def _query(scope: dict[str, Any]) -> dict[str, str]:
    from urllib.parse import parse_qsl

    return dict(parse_qsl(scope.get("query_string", b"").decode("latin1")))


def table_version(scope: dict[str, Any], pk: int) -> int | None:
    """The table's version if this connection may follow it (as ``live.table_poll``)."""
    from games import live

    key = _query(scope).get("key")
    if key is not None:
        return live._keyed_version(pk, key)
    request = _request(scope)
    if not hasattr(request, "session"):
        return None
    return live._owner_version(request, pk)  # type: ignore[arg-type]  # reads .session alone


def seat_version(scope: dict[str, Any], token: str) -> int | None | str:
    """The seat's table's version (as ``live.seat_poll``); "wait" while the address is
    refused for guessing, and a wrong token counted as a guess."""
    from amnesia_site.throttle import SEAT_LINKS
    from games import live

    request = _request(scope)
    if SEAT_LINKS.wait(request):
        return "wait"
    row = live._read_one(
        "SELECT t.id, t.version FROM {seat} s JOIN {table} t ON t.id = s.table_id"
        " WHERE s.token = %s",
        [token],
    )
    if row is None:
        SEAT_LINKS.failed(request, token)
        return None
    return f"{row[0]}:{row[1]}"


class TableFollower(AsyncWebsocketConsumer):
    """One page following one table: the version, whenever it moves; nothing else."""

    joined: str | None = None

    async def connect(self) -> None:
        _remember_loop()
        kwargs = self.scope["url_route"]["kwargs"]
        if "token" in kwargs:
            found = await database_sync_to_async(seat_version)(self.scope, kwargs["token"])
            if not isinstance(found, str) or found == "wait":
                await self.close()
                return
            pk_text, version_text = found.split(":")
            pk, version = int(pk_text), int(version_text)
        else:
            pk = int(kwargs["pk"])
            current = await database_sync_to_async(table_version)(self.scope, pk)
            if current is None:
                await self.close()
                return
            version = current
        self.joined = group(pk)
        await self.channel_layer.group_add(self.joined, self.channel_name)
        await self.accept()
        # Where the table is now: a page drawn before a change it missed catches up at once.
        await self.send(text_data=json.dumps({"version": version}))

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await self.channel_layer.group_discard(self.joined, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # a page says nothing over the push

    async def table_version(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"version": int(event["version"])}))


def application() -> Any:
    """The websocket side of the site: the push addresses, the Origin checked against the
    allowed hosts, the session read from its cookie (the owner's pages without a key)."""
    from channels.routing import URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from channels.sessions import SessionMiddlewareStack
    from django.urls import path

    import amnesia_site.converters  # noqa: F401  # the <token:...> converter

    follower = TableFollower.as_asgi()
    routes = URLRouter(
        [
            path("tables/<int:pk>/push/", follower),
            path("seat/<token:token>/push/", follower),
        ]
    )
    return AllowedHostsOriginValidator(SessionMiddlewareStack(routes))
