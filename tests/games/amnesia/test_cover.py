"""Amnesia's cover: the veil under the title, blurred as one column and stretched, is the same
pixels as the whole rectangle blurred (what the cover drew before, thirty times the work); the
drift faded in its band is the same pixels as the whole layer faded; the drift's lines found
from the words' widths are the lines found by measuring each line as it grows."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw, ImageFilter

from games.amnesia.cover import DRIFT_BLUR, drift_lines, fade, veil_mask
from stories import covers
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


def _drift_layer(size, bottom: float, japanese: bool = False) -> Image.Image:
    layer = Image.new("L", size, 0)
    pen = ImageDraw.Draw(layer)
    font = covers.font(34, japanese=japanese, italic=not japanese)
    text = "記憶の中の部屋の扉" * 9 if japanese else "She wakes in a room she does not know, " * 6
    y = 40
    while y < size[1] * bottom:
        pen.text((-60 + (y % 50), y), text, font=font, fill=max(18, 200 - y // 8))
        y += 52
    return layer


@pytest.mark.parametrize(
    ("size", "bottom", "japanese"),
    [(COVER_SIZE, 0.62, False), (COVER_SIZE, 0.62, True), ((620, 877), 0.99, False)],
)
def test_the_drift_faded_in_its_band_is_the_whole_layer_faded(size, bottom, japanese):
    layer = _drift_layer(size, bottom, japanese)
    blurred = layer.filter(ImageFilter.GaussianBlur(DRIFT_BLUR))
    mask = Image.linear_gradient("L").resize(size).point(lambda v: 255 - v)
    whole = Image.composite(layer, blurred, mask)
    band = fade(layer)
    assert band is not None and band.size[0] == size[0]
    if bottom < 0.9:
        assert band.size[1] < size[1] * 0.75  # a band, not the whole layer
    padded = Image.new("L", size, 0)
    padded.paste(band, (0, 0))
    assert padded.tobytes() == whole.tobytes()
    assert fade(Image.new("L", size, 0)) is None


def _grown_one_unit_at_a_time(drift, measure, width, rnd, count):
    """drift_lines as it was written first: each line measured again after every unit."""
    spaced = len(drift.split()) > 1 or not covers.needs_japanese(drift)
    units = [*drift.split(), "·"] if spaced else [*drift, "・"]
    joiner = " " if spaced else ""
    start, lines = 0, []
    for _ in range(count):
        x = rnd.randint(-140, 20)
        line, index = [], start
        while not line or measure(joiner.join(line)) < width - x + 40:
            line.append(units[index % len(units)])
            index += 1
        start = (start + max(1, len(line) * 2 // 3)) % len(units)
        lines.append((x, joiner.join(line)))
    return lines


@pytest.mark.parametrize(
    "drift",
    [
        "She wakes in a room she does not know · the door is locked · a key, cold, in her hand",
        "部屋で目を覚ます · 扉には鍵 · 手の中に冷たい鍵",
        "Short",
        "A-very-long-word-that-runs-past-the-edge-on-its-own-and-then-some-more-and-more "
        "and small ones",
    ],
)
def test_the_drift_lines_are_the_lines_measured_as_they_grow(drift):
    japanese = covers.needs_japanese(drift)
    font = covers.font(34, japanese=japanese, italic=not japanese)
    pen = ImageDraw.Draw(Image.new("L", (1, 1)))

    def measure(text):
        return pen.textlength(text, font=font)

    for width in (1240, 300):
        lines = drift_lines(drift, measure, width, random.Random(7))
        found = [(line.x, line.text) for line, _ in zip(lines, range(25), strict=False)]
        assert found == _grown_one_unit_at_a_time(drift, measure, width, random.Random(7), 25)
