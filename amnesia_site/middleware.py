"""A request whose body the site cannot read, or whose text holds a NUL character, is answered
400 in words, with DEBUG on too.

Django refuses a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE, or with more fields or files
than it allows, by raising a SuspiciousOperation wherever the body is first read (the CSRF
middleware for a form, a view for JSON). Its answer is a 400, but with DEBUG on it is the
technical page, traceback and settings included. Read first here, the body that cannot be
read gets a plain sentence instead, whatever DEBUG says.
"""

from __future__ import annotations

import re

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext

from amnesia_site.errors import bad_request

FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


class UnreadableBodyMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("POST", "PUT", "PATCH", "DELETE"):
            try:
                if request.content_type in FORMS:
                    request.POST  # noqa: B018 - parsed now, kept on the request for later
                else:
                    request.body  # noqa: B018 - read now, kept on the request for later
            except (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent):
                return HttpResponseBadRequest(
                    gettext("The request is too large, or has too many fields, to be read."),
                    content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)


# A NUL escaped in JSON text (``\u0000``), its backslash not itself escaped.
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")


def holds_nul(request: HttpRequest) -> bool:
    """Whether any text of the request holds a NUL: a query string's names and values, a
    form's fields (and the names of the files it sends; never a file's bytes), a JSON body."""
    sent = [request.GET]
    if request.method in ("POST", "PUT", "PATCH", "DELETE"):
        if request.content_type in FORMS:
            try:
                sent += [request.POST, {f.name: "" for f in request.FILES.values()}]
            except (MultiPartParserError, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent):
                return False  # unreadable: answered as such where it is read
        elif request.content_type == "application/json" or request.content_type.endswith("+json"):
            body = request.body
            return b"\x00" in body or _JSON_NUL.search(body) is not None
    for data in sent:
        items = data.lists() if hasattr(data, "lists") else ((k, [v]) for k, v in data.items())
        for key, values in items:
            if "\x00" in key or any("\x00" in value for value in values):
                return True
    return False


class NulCharacterMiddleware:
    """No text a person sends may hold a NUL character, on any form, JSON body or query
    string: 400 and a sentence (JSON for a JSON request, the message alone for htmx), before
    the view, so that no form can forget it. PostgreSQL cannot store a NUL in a text (a 500
    when one reached a query); SQLite would store it. Files keep their bytes.

    A view, after the CSRF check (this comes after CsrfViewMiddleware) and for a URL the site
    answers: an address that matches none is a 404 whatever it carries."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if holds_nul(request):
            return bad_request(
                request,
                gettext(
                    "What you sent holds a NUL character, which no text may hold, "
                    "so nothing was done with it."
                ),
            )
        return None
