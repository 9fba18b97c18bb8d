"""The site's answers when it will not do what was asked, in words and in its frame: 429 (too
many tries: logins, secret links), with ``Retry-After``.

An htmx request gets the message alone (``#message``). A JSON request gets
``{"error": {"code", "message"}}`` like a refused move.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


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
