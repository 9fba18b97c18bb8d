"""Playtest reports as PDF: one table, or every playtest of a ruleset version.

Printed by the archive's own WeasyPrint set-up (``stories.pdf.html_to_pdf``): the same URL
fetcher (our static files and nothing else, no network) and the bundled fonts. The charts are
the page's SVG, inline.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe

from stories.pdf import html_to_pdf

# The charts inherit the page's font on screen; WeasyPrint's SVG renderer needs it named.
PDF_FONT = 'font-family="Amnesia Serif, Amnesia Serif JP, serif"'


def _for_print(context: dict[str, Any]) -> dict[str, Any]:
    charts = [
        {**chart, "svg": mark_safe(str(chart["svg"]).replace('font-family="inherit"', PDF_FONT))}
        for chart in context.get("charts", [])
    ]
    return {**context, "charts": charts, "for_pdf": True}


def table_pdf(context: dict[str, Any]) -> bytes:
    return html_to_pdf(render_to_string("playtests/table_report_pdf.html", _for_print(context)))


def ruleset_pdf(context: dict[str, Any]) -> bytes:
    return html_to_pdf(render_to_string("playtests/ruleset_report_pdf.html", _for_print(context)))


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    disposition = content_disposition_header(False, filename)
    response["Content-Disposition"] = disposition  # type: ignore[assignment]  # a name: never None
    return response
