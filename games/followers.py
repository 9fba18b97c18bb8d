"""The push's connections (issue 50; what is sent on them: games/push.py): a page that follows
a table connects to ``/tables/<pk>/push/`` (the owner's pages: the poll's key, or the session)
or ``/seat/<token>/push/`` (a seat's phone), is checked exactly as its poll is (games/live.py;
a wrong seat token counts as a guess, and an address refused for guessing is refused here too),
joins the table's group and hears ``{"version": V}`` on it, nothing else."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import SessionMiddlewareStack
from django.conf import settings
from django.http import HttpRequest
from django.urls import path

import amnesia_site.converters  # noqa: F401  # the <token:...> converter
from amnesia_site.throttle import SEAT_LINKS
from games import live
from games.push import group, remember_loop


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
    return dict(parse_qsl(scope.get("query_string", b"").decode("latin1")))


def table_version(scope: dict[str, Any], pk: int) -> int | None:
    """The table's version if this connection may follow it (as ``live.table_poll``)."""
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
        if not settings.PUSH:
            await self.close()  # the page polls at its own pace (settings.PUSH says why)
            return
        remember_loop()
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
    follower = TableFollower.as_asgi()
    routes = URLRouter(
        [
            path("tables/<int:pk>/push/", follower),
            path("seat/<token:token>/push/", follower),
        ]
    )
    return AllowedHostsOriginValidator(SessionMiddlewareStack(routes))
