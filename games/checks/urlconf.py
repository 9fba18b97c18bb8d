"""The game's own URLconf: its URLs resolve under its slug (``games.E009``), and its seat page
is the engine's (``games.seats``, ``games.E015``)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.urls import resolve, reverse

from games import seats
from games.checks.frames import SEAT_FRAME, check_fills, check_template
from games.checks.report import Report, check_callable


def check_urls(report: Report) -> None:
    kit = report.kit
    for part in ("seat_page",):
        name = getattr(kit, part)
        if name and (not isinstance(name, str) or not name.startswith(f"{kit.slug}:")):
            report.error(
                "E009",
                part,
                f"{name!r} is not a URL name of the game's own URLconf.",
                f"Name it '{kit.slug}:<name>' (a pattern of the kit's urls, taking the token).",
            )
    if not kit.urls:
        if kit.seat_page:
            report.error(
                "E009",
                "urls",
                "is missing, but the kit names a seat_page.",
                "Give the kit urls='games.<slug>.urls' holding the seat page.",
            )
        return
    urlconf = import_module(kit.urls)
    if getattr(urlconf, "app_name", None) != kit.slug:
        report.error(
            "E009",
            "urls",
            f"{kit.urls} has app_name {getattr(urlconf, 'app_name', None)!r}.",
            f"Set app_name = {kit.slug!r} in it.",
        )
        return
    named = [p for p in getattr(urlconf, "urlpatterns", []) if getattr(p, "name", None)]
    for pattern in named:
        kwargs = {
            arg: 1 if converter.regex == "[0-9]+" else "x"
            for arg, converter in getattr(pattern.pattern, "converters", {}).items()
        }
        try:
            url = reverse(f"{kit.slug}:{pattern.name}", kwargs=kwargs)
            mounted = resolve(url).namespace == kit.slug
        except Exception:  # noqa: BLE001 - any failure means: not mounted
            mounted = False
        if not mounted:
            report.error(
                "E009",
                "urls",
                f"the pattern {pattern.name!r} of {kit.urls} is not served under the site.",
                "The site mounts every registered kit's urls when it loads its URLconf: "
                "register the kit in its AppConfig.ready().",
            )
            return
    if kit.seat_page and kit.seat_page.split(":", 1)[1] not in {p.name for p in named}:
        report.error(
            "E009",
            "seat_page",
            f"{kit.seat_page!r} is not a pattern of {kit.urls}.",
            "Name a pattern of the kit's urls.",
        )
        return
    if kit.seat_page:
        _engine_seat(report, named)


def _engine_seat(report: Report, named: list[Any]) -> None:
    """A seat page is the engine's (``games.seats``): the guessed-link throttle, the table's
    language and the move in the seat's own name are built in, never a game's to forget."""
    kit = report.kit
    views = {p.name: _unwrapped(p.callback) for p in named}
    engine = {"seat": _unwrapped(seats.seat_page), "seat_move": _unwrapped(seats.seat_move)}
    for name, view in engine.items():
        if views.get(name) is not view:
            report.error(
                "E015",
                "seat_page",
                f"'{kit.slug}:{name}' is not the engine's seat view.",
                "Mount the seat's page and moves with games.seats.seat_urls(page, move) in "
                "the kit's urls, and give the kit seat_template and seat_context.",
            )
            return
    if not kit.seat_template:
        report.error(
            "E001",
            "seat_template",
            "is missing, but the kit names a seat_page.",
            "Give the kit seat_template='<slug>/seat.html' (extending games/seat_frame.html).",
        )
    else:
        seat = check_template(report, "seat_template", kit.seat_template)
        if seat is not None:
            check_fills(report, "seat_template", seat, SEAT_FRAME)
    if kit.seat_context is None:
        report.error(
            "E001",
            "seat_context",
            "is missing, but the kit names a seat_page.",
            "Give the kit seat_context(facing, seat) -> dict, the game's part of the page.",
        )
    else:
        check_callable(report, "seat_context", kit.seat_context, 2, "context(facing, seat) -> dict")
    if kit.seat_move is not None:
        check_callable(report, "seat_move", kit.seat_move, 2, "seat_move(request, seat) -> Posted")


def _unwrapped(view: Any) -> Any:
    while hasattr(view, "__wrapped__"):
        view = view.__wrapped__
    return view
