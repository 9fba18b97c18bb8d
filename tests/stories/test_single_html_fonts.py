"""The Japanese single-HTML story carries its own Japanese font, cut to the characters the
story uses, so a device without a CJK font still draws every character."""

from __future__ import annotations

import base64
import re
from io import BytesIO

import pytest
from fontTools.ttLib import TTFont

from stories import services
from stories.markup import parse
from stories.single_html import render_single_html

from .conftest import make_story

pytestmark = pytest.mark.django_db

FACE = re.compile(r"@font-face\s*\{([^}]*)\}")
FAMILY = re.compile(r'font-family:\s*"([^"]+)"')
DATA = re.compile(r'url\("data:font/otf;base64,([A-Za-z0-9+/=]+)"\)')


def embedded_fonts(html: str) -> dict[str, set[int]]:
    """Each embedded family's characters (the union of its faces' cmaps)."""
    fonts: dict[str, set[int]] = {}
    for block in FACE.findall(html):
        family = FAMILY.search(block).group(1)
        found = DATA.search(block)
        assert found, f"{family} is not embedded"
        font = TTFont(BytesIO(base64.b64decode(found.group(1))))
        fonts.setdefault(family, set()).update(font.getBestCmap())
    return fonts


def test_every_character_of_a_japanese_story_is_in_its_embedded_font(gm, capsys) -> None:
    story = make_story(gm, "ja")
    html = render_single_html(services.make_book(story, "ja")).decode()
    fonts = embedded_fonts(html)
    assert "Amnesia Serif JP" in fonts
    body = parse(html[html.index("<body") :]).text()
    japanese = {ord(c) for c in body if ord(c) >= 0x3000}
    assert japanese and "窓" in body  # the story's title and text are Japanese
    missing = japanese - fonts["Amnesia Serif JP"]
    assert not missing, "".join(chr(c) for c in sorted(missing))
    everything = set().union(*fonts.values())
    assert not {ord(c) for c in body if not c.isspace()} - everything
    # cut to the story: a few hundred characters, not the bundled font's thousands
    assert len(fonts["Amnesia Serif JP"]) < 1500
    with capsys.disabled():
        print(f"\nJapanese single-HTML story: {len(html.encode())} bytes")


def test_an_english_story_carries_no_japanese_font(gm) -> None:
    story = make_story(gm, "en")
    html = render_single_html(services.make_book(story, "en")).decode()
    assert "Amnesia Serif JP" not in embedded_fonts(html)
    # nor the PDF's 3 MB emoji cut: a browser draws emoji with the device's own colour font
    assert "Amnesia Emoji" not in embedded_fonts(html)
