"""The story's other downloads: the EPUB and the single HTML file.

Who may download is who may read (``stories.views``): the same checks, by id or by the secret
link. Both answer as attachments: the single HTML file is a file to keep, never a page of the
site (it carries its own inline styles, which the site's pages may not).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from amnesia_site.htmx import HtmxHttpRequest
from amnesia_site.throttle import STORY_LINKS, guards_secret
from stories.formats import epub_for, single_html_for
from stories.models import Story
from stories.single_html import FILE_POLICY
from stories.views import _readable, _shared


def _download(story: Story, data: bytes, mime: str, extension: str) -> HttpResponse:
    response = HttpResponse(data, content_type=mime)
    name = slugify(story.title, allow_unicode=True) or f"story-{story.pk}"
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.{extension}")
    response["Cache-Control"] = "public, max-age=300" if story.is_public() else "private"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _epub(story: Story) -> HttpResponse:
    return _download(story, epub_for(story), "application/epub+zip", "epub")


def _html(story: Story) -> HttpResponse:
    response = _download(story, single_html_for(story), "text/html; charset=utf-8", "html")
    # Should a browser show it anyway, it runs nothing and fetches nothing.
    response["Content-Security-Policy"] = FILE_POLICY
    return response


@require_GET
def epub(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _epub(_readable(request, pk))


@require_GET
@guards_secret(STORY_LINKS, "secret")
def shared_epub(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    return _epub(_shared(request, secret))


@require_GET
def single_html(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _html(_readable(request, pk))


@require_GET
@guards_secret(STORY_LINKS, "secret")
def shared_single_html(request: HtmxHttpRequest, secret: str) -> HttpResponse:
    return _html(_shared(request, secret))
