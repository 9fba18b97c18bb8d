"""Uploads reach a browser only through a view that has checked who may see them.

Custom deck pictures and story covers are kept in ``MEDIA_ROOT`` under random names, and no URL
maps ``MEDIA_URL`` onto that folder (not even with DEBUG on): each picture view first decides
whether the request may see the file (the deck's owner, the table's owner, a seat's link, a
reader of the story), then :func:`serve` reads it through the storage API, whatever DEBUG says.
"""

from __future__ import annotations

import hashlib
import mimetypes

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag

# What an upload may be served as: the image pipeline (games.images) writes nothing else.
SERVED_TYPES = ("image/webp", "image/jpeg", "image/png")


def read(stored) -> tuple[bytes, str] | None:
    """The stored picture's bytes and type, through the storage API (for the story's PDF);
    None when it is missing or not a picture."""
    mime = _picture_type(stored)
    if mime is None:
        return None
    try:
        with stored.storage.open(stored.name, "rb") as handle:
            return handle.read(), mime
    except (FileNotFoundError, IsADirectoryError):
        return None


def _picture_type(stored) -> str | None:
    if stored is None or not stored.name:
        return None
    mime = mimetypes.guess_type(stored.name)[0]
    return mime if mime in SERVED_TYPES else None


def serve(request: HttpRequest, stored, *, public: bool = False, max_age: int = 3600):
    """The stored file (a FieldFile) as a response; 404 when it is missing or not a picture.

    ``public`` lets shared caches keep it (a public story's pictures); otherwise only the
    browser may. A stored name never changes its bytes (a new picture gets a new random name),
    so the name is the ETag.
    """
    mime = _picture_type(stored)
    if mime is None:
        raise Http404("No such picture.")
    etag = quote_etag(hashlib.sha256(stored.name.encode()).hexdigest()[:32])
    response: HttpResponse | None = get_conditional_response(request, etag=etag)
    if response is None:
        try:
            handle = stored.storage.open(stored.name, "rb")
        except (FileNotFoundError, IsADirectoryError):
            raise Http404("No such picture.") from None
        response = FileResponse(handle, content_type=mime)
    response["ETag"] = etag
    response["X-Content-Type-Options"] = "nosniff"
    if public:
        patch_cache_control(response, public=True, max_age=max_age)
    else:
        patch_cache_control(response, private=True, max_age=max_age)
    return response
