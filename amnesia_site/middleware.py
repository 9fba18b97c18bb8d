"""A request whose body the site cannot read is answered 400 in words, with DEBUG on too.

Django refuses a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE, or with more fields or files
than it allows, by raising a SuspiciousOperation wherever the body is first read (the CSRF
middleware for a form, a view for JSON). Its answer is a 400, but with DEBUG on it is the
technical page, traceback and settings included. Read first here, the body that cannot be
read gets a plain sentence instead, whatever DEBUG says.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpResponseBadRequest
from django.utils.translation import gettext

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
