"""Amnesia's cover: the veil under the title, blurred as one column and stretched, is the same
pixels as the whole rectangle blurred (what the cover drew before, thirty times the work)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFilter

from games.amnesia.cover import veil_mask
from stories.covers import COVER_SIZE


@pytest.mark.parametrize("size", [COVER_SIZE, (620, 877), (301, 401), (40, 2000)])
def test_the_veil_is_the_whole_rectangle_blurred(size):
    width, height = size
    whole = Image.new("L", size, 0)
    ImageDraw.Draw(whole).rectangle((0, int(height * 0.42), width, height), fill=235)
    whole = whole.filter(ImageFilter.GaussianBlur(60))
    veil = veil_mask(size)
    assert veil.size == size and veil.mode == "L"
    assert veil.tobytes() == whole.tobytes()
