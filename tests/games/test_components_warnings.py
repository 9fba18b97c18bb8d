"""Print-and-play prints as drawn in every language: no number in its CSS is localised (a
``5,0mm`` is a value WeasyPrint ignores, and the text then runs over the cut lines), and
WeasyPrint prints no warning while rendering it, for every game, language, preset and player
count.

Every combination's document is made (milliseconds each); WeasyPrint then reads, in one probe
document per game, every style attribute and style sheet any of them holds (a CSS warning is
given when a declaration is read, so the probe hears all of them in a second), and each game's
sheets are printed whole in Portuguese, the language whose decimal comma broke them."""

from __future__ import annotations

import logging
import re

import pytest
from django.conf import settings

from games import components, registry
from stories.pdf import html_to_pdf
from tests.stories.conftest import weasyprint_once  # noqa: F401 - a fixture

pytestmark = pytest.mark.xdist_group("components")

LANGUAGES = [code for code, _name in settings.LANGUAGES]
STYLE_ATTRIBUTE = re.compile(r'style="([^"]*)"')
STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.S)
LINK = re.compile(r'<link rel="stylesheet"[^>]*>')


def _printable():
    return [kit for kit in registry.kits() if kit.components is not None]


def _documents(kit):
    for preset in [None, *kit.presets]:
        for players in range(kit.referee.min_players, kit.referee.max_players + 1):
            for language in LANGUAGES:
                request = components.print_request(
                    kit, language=language, preset=preset, players=players
                )
                html, _resources = components.prepare(kit, request)
                yield (preset, players, language), html


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")]


@pytest.mark.parametrize("kit", _printable(), ids=lambda kit: kit.slug)
def test_no_number_in_the_css_is_localised_and_weasyprint_reads_every_value(kit, caplog):
    styles: dict[str, tuple] = {}
    blocks: set[str] = set()
    links: set[str] = set()
    for where, html in _documents(kit):
        for style in STYLE_ATTRIBUTE.findall(html):
            styles.setdefault(style, where)
            # A length with a decimal comma: WeasyPrint would drop the declaration.
            assert not re.search(r"\d,\d", style), (where, style)
        blocks.update(STYLE_BLOCK.findall(html))
        links.update(LINK.findall(html))
    assert styles, "the documents hold no style attribute: the probe below would hear nothing"
    probe = "<!doctype html><html><head>{}{}</head><body>{}</body></html>".format(
        "".join(sorted(links)),
        "".join(f"<style>{b}</style>" for b in sorted(blocks)),
        "".join(f'<div style="{s}"></div>' for s in sorted(styles)),
    )
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        html_to_pdf(probe)
    assert not _warnings(caplog)


# The crawl (tests/test_crawl.py) prints these same sheets, the rules page's first link: each
# is printed once between them (weasyprint_once), its warnings heard by both.
@pytest.mark.usefixtures("weasyprint_once")
@pytest.mark.parametrize("kit", _printable(), ids=lambda kit: kit.slug)
def test_each_games_sheets_print_in_portuguese_with_no_weasyprint_warning(kit, caplog):
    request = components.print_request(kit, language="pt-br")
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        data = components.render_pdf(kit, request)
    assert data.startswith(b"%PDF")
    assert not _warnings(caplog)
