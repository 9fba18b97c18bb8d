"""The site's answers when it will not or cannot do what was asked, in words and in its frame.

- 400 (what was sent cannot be taken: a NUL character in a text), nothing done with it;
- 429 (too many tries: logins, secret links), with ``Retry-After``;
- 503 (the database locked or lost), with ``Retry-After``: nothing was applied, send it again.

An htmx request gets the message alone (``#message``): htmx swaps nothing on these codes, so the
table page keeps its forms and what was typed in them, and ``static/js/site.js`` shows the
message above them. A JSON request gets ``{"error": {"code", "message"}}`` like a refused move.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

BUSY_RETRY_AFTER = 5  # seconds: about as long as a writer waits for SQLite's lock


def _wants_json(request: HttpRequest) -> bool:
    return request.content_type == "application/json"


def _template(request: HttpRequest, name: str) -> str:
    return f"{name}#message" if getattr(request, "htmx", False) else name


def too_many_requests(
    request: HttpRequest, *, code: str, title: str, message: str, retry_after: int
) -> HttpResponse:
    """429: ``message`` says what was refused and for how long."""
    if _wants_json(request):
        response: HttpResponse = JsonResponse(
            {"error": {"code": code, "message": message}}, status=429
        )
    else:
        context = {"title": title, "message": message}
        response = render(request, _template(request, "429.html"), context, status=429)
    response["Retry-After"] = str(retry_after)
    return response


def bad_request(request: HttpRequest, message: str) -> HttpResponse:
    """400: ``message`` says what in the request cannot be taken; nothing was done with it."""
    if _wants_json(request):
        return JsonResponse({"error": {"code": "bad_argument", "message": message}}, status=400)
    return render(request, _template(request, "400.html"), {"message": message}, status=400)


def database_busy(request: HttpRequest) -> HttpResponse:
    """503: the database did not answer in time (locked, or the connection lost)."""
    message = _("The table is busy, so nothing you sent was applied.")
    if _wants_json(request):
        response: HttpResponse = JsonResponse(
            {"error": {"code": "busy", "message": message}}, status=503
        )
    else:
        # Rendered without the request: its context processors would read the session and the
        # user from the database that just failed. 503.html asks nothing of them.
        context = {"title": _("The table is busy"), "message": message}
        response = HttpResponse(
            render_to_string(_template(request, "503.html"), context), status=503
        )
    response["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response
