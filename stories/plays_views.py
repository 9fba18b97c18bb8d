"""The play records to take away: one table's, or all of the signed-in user's at once."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from amnesia_site.addresses import phone_url
from amnesia_site.htmx import AuthenticatedHttpRequest
from games.models import Table
from stories import playrecords
from stories.models import is_table_author


def _file(body: str, mime: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{mime}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["Cache-Control"] = "private"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _base(request) -> str:
    # The story links in a record are followed from elsewhere: PUBLIC_URL or a LAN address,
    # as every link meant for another device (amnesia_site.addresses), never 127.0.0.1.
    return phone_url(request, "/")


@login_required
@require_GET
def my_plays(request: AuthenticatedHttpRequest, fmt: str) -> HttpResponse:
    tables = playrecords.tables_of(request.user)
    if fmt == "csv":
        records = [playrecords.record(t, _base(request)) for t in tables]
        return _file(playrecords.to_csv(records), "text/csv", "plays.csv")
    document = playrecords.document(tables, _base(request))
    return _file(
        json.dumps(document, ensure_ascii=False, indent=2), "application/json", "plays.json"
    )


@login_required
@require_GET
def table_play(request: AuthenticatedHttpRequest, table_pk: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.finished(), pk=table_pk)
    if not is_table_author(table, request.user):
        raise Http404("No such table.")
    document = playrecords.document([table], _base(request))
    return _file(
        json.dumps(document, ensure_ascii=False, indent=2),
        "application/json",
        f"play-{table.uuid}.json",
    )
