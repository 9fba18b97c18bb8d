"""What every answer tells the browser: a Content Security Policy with no inline script or
style, the referrer and permissions policies, cookies scripts cannot read; and the templates
that make the CSP possible (no inline script, handler or style anywhere)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import Resolver404, clear_url_caches, resolve, reverse

import amnesia_site.urls
from games.amnesia_stories.rules import AmnesiaStoriesGame
from games.amnesia_stories.views import _projector_grid
from tests.conftest import PASSWORD
from tests.test_frame import run_python

BASE_DIR = Path(__file__).resolve().parents[1]


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client: Client) -> None:
    policy = directives(client.get(reverse("login"))["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    every_value = {value for values in policy.values() for value in values}
    assert not every_value & {"'unsafe-inline'", "'unsafe-eval'", "*", "data:", "https:"}


@pytest.mark.django_db
def test_referrer_permissions_and_the_usual_headers(client: Client) -> None:
    response = client.get(reverse("login"))
    assert response["Referrer-Policy"] == "same-origin"
    permissions = response["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions
    assert "fullscreen=(self)" in permissions
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_session_and_csrf_cookies_are_http_only_and_same_site(gm) -> None:
    client = Client()
    csrf = client.get(reverse("login")).cookies["csrftoken"]
    assert csrf["httponly"] is True and csrf["samesite"] == "Lax"
    response = client.post(reverse("login"), {"username": "gm", "password": PASSWORD})
    session = response.cookies["sessionid"]
    assert session["httponly"] is True and session["samesite"] == "Lax"


def test_htmx_gets_the_csrf_token_from_the_page_not_the_cookie(gm_client: Client) -> None:
    page = gm_client.get("/").content.decode()
    assert re.search(r"""hx-headers='\{"x-csrftoken": "[^"]+"\}'""", page)


def test_admin_url_comes_from_the_environment_without_its_slashes() -> None:
    code = "from amnesia_site import settings; print(settings.ADMIN_URL)"
    assert run_python("-c", code, ADMIN_URL="/backstage-7f3a").stdout.strip() == "backstage-7f3a/"
    assert run_python("-c", code).stdout.strip() == "admin/"


def test_the_admin_is_mounted_at_admin_url() -> None:
    try:
        with override_settings(ADMIN_URL="backstage-7f3a/"):
            importlib.reload(amnesia_site.urls)
            clear_url_caches()
            assert reverse("admin:index") == "/backstage-7f3a/"
            with pytest.raises(Resolver404):
                resolve("/admin/")
    finally:
        importlib.reload(amnesia_site.urls)
        clear_url_caches()
    assert reverse("admin:index") == "/admin/"


# ---- Templates and scripts the policy allows -------------------------------------------------

# Templates only WeasyPrint reads (book and report PDFs, print-and-play sheets) may style
# themselves inline: no browser sees them.
PDF_ONLY = re.compile(r"(_pdf|_pdf_style|components)\.html$")
INLINE = {
    "inline script": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "event handler attribute": re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I),
    "style attribute": re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "hx-on (evaluated)": re.compile(r"\shx-on[:-]", re.I),
    "hx-trigger filter (evaluated)": re.compile(r"""hx-trigger=["'][^"']*\[""", re.I),
    "javascript: URL": re.compile(r"""(href|src|action)=["']\s*javascript:""", re.I),
}


def served_templates() -> list[Path]:
    roots = [BASE_DIR / "templates", BASE_DIR / "games", BASE_DIR / "stories"]
    found = [path for root in roots for path in root.rglob("*.html") if "templates" in path.parts]
    return sorted(path for path in found if not PDF_ONLY.search(path.name))


def test_the_scan_finds_what_it_looks_for() -> None:
    samples = {
        "inline script": "<script>alert(1)</script>",
        "event handler attribute": '<button type="button" onclick="go()">',
        "style attribute": '<ol class="slots" style="--cols: 3">',
        "style element": "<style>p{}</style>",
        "hx-on (evaluated)": '<form hx-on:submit="x()">',
        "hx-trigger filter (evaluated)": '<div hx-trigger="every 4s [ok()]">',
        "javascript: URL": '<a href="javascript:go()">',
    }
    for name, sample in samples.items():
        assert INLINE[name].search(sample), name
    assert not INLINE["inline script"].search('<script src="/static/js/site.js" defer></script>')
    assert not INLINE["event handler attribute"].search('<form action="/" data-confirm="Sure?">')


def test_no_served_template_has_inline_script_handlers_or_styles() -> None:
    templates = served_templates()
    assert len(templates) > 40 and any(p.name == "base.html" for p in templates)
    found = [
        f"{path.relative_to(BASE_DIR)}: {name}"
        for path in templates
        for name, pattern in INLINE.items()
        if pattern.search(path.read_text())
    ]
    assert found == []


def test_the_projector_grid_has_a_rule_for_every_number_of_slots() -> None:
    """The grid's size was an inline style; it is data-cols and data-rows now, and table.css
    must have a rule for each value the projector can ask for."""
    css = (BASE_DIR / "games/amnesia_stories/static/amnesia_stories/table.css").read_text()
    for slots in range(0, AmnesiaStoriesGame.options["choices"].max + 1):
        grid = _projector_grid(slots)
        assert f'.slots[data-cols="{grid["cols"]}"] {{ --cols: {grid["cols"]}; }}' in css, slots
        assert f'.slots[data-rows="{grid["rows"]}"] {{ --rows: {grid["rows"]}; }}' in css, slots
