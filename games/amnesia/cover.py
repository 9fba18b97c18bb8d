"""Amnesia's generated cover (the kit's ``cover``): typographic, the title set in the book's
own serif over a drift of the story's first lines, fading as memories do, with the cards
turned in its disputes along the foot."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFilter

from stories import covers
from stories.services import Book

# The drift's blur, and rows past the last inked one that it can reach, and then some (a
# Gaussian of 1.6 is a few pixels wide in Pillow's box passes).
DRIFT_BLUR = 1.6
BLUR_MARGIN = 32


@dataclass(frozen=True)
class DriftLine:
    x: int  # where the line starts (it may start off the left edge)
    text: str


def drift_lines(
    drift: str, measure: Callable[[str], float], width: int, rnd: random.Random
) -> Iterator[DriftLine]:
    """The background's lines, endlessly: each is whole words (characters, for Japanese)
    taken in order from where the last line's second third began, long enough to run past
    the right edge; at the end of the drift it starts again after a dot.

    Cutting fixed runs of characters and doubling them, as this once did, glued the end of a
    cut to its own start mid-word ("the door,She wakes", "keyeone")."""
    spaced_words = len(drift.split()) > 1 or not covers.needs_japanese(drift)
    units = [*drift.split(), "·"] if spaced_words else [*drift, "・"]
    joiner = " " if spaced_words else ""
    widths: dict[int, float] = {}  # a unit's own width, measured when a line first reaches it
    gap = measure(joiner) if joiner else 0.0
    start = 0
    while True:
        x = rnd.randint(-140, 20)
        count = _units_to_reach(units, widths, gap, start, joiner, measure, width - x + 40)
        line = [units[(start + i) % len(units)] for i in range(count)]
        start = (start + max(1, len(line) * 2 // 3)) % len(units)
        yield DriftLine(x, joiner.join(line))


def _units_to_reach(
    units: list[str],
    widths: dict[int, float],
    gap: float,
    start: int,
    joiner: str,
    measure: Callable[[str], float],
    reach: float,
) -> int:
    """How many units from ``start`` (going round) make the first line at least ``reach``
    long: the fewest whose joined text measures ``reach`` or more (at least one). A line only
    grows as a unit is added, so the count is estimated from the units' own ``widths`` (and
    the joiner's, ``gap``) and then checked on the joined text: a few measurements a line
    instead of one a unit, each of the whole line so far."""

    def length(count: int) -> float:
        return measure(joiner.join(units[(start + i) % len(units)] for i in range(count)))

    def width(count: int) -> float:
        index = (start + count) % len(units)
        if index not in widths:
            widths[index] = measure(units[index])
        return widths[index]

    count, estimate = 1, width(0)
    while estimate < reach:
        estimate += gap + width(count)
        count += 1
    while length(count) < reach:
        count += 1
    while count > 1 and length(count - 1) >= reach:
        count -= 1
    return count


def fade(text_layer: Image.Image) -> Image.Image | None:
    """The drift's layer blurred more further down: its top band, from the first row to a
    margin past the last inked one (None when nothing is inked). Below the lines the layer
    is black, and stays black blurred, so the band is the same pixels as the whole layer
    blurred and faded (tests/games/amnesia/test_cover.py), for the work of the band alone."""
    inked = text_layer.getbbox()
    if inked is None:
        return None
    width, height = text_layer.size
    band = (0, 0, width, min(height, inked[3] + BLUR_MARGIN))
    text_band = text_layer.crop(band)
    blurred = text_band.filter(ImageFilter.GaussianBlur(DRIFT_BLUR))
    return Image.composite(text_band, blurred, fade_mask(text_layer.size).crop(band))


@cache
def fade_mask(size: tuple[int, int]) -> Image.Image:
    """Sharp at the top, blurred at the foot: the same for every cover of a size, made once
    (a mask is only read)."""
    return Image.linear_gradient("L").resize(size).point(lambda v: 255 - v)


@cache
def veil_mask(size: tuple[int, int]) -> Image.Image:
    """The veil under the title: full width from 42% of the height down, its top edge blurred.
    Every row is one value across, so one column is blurred and stretched: the same pixels as
    blurring the whole rectangle (tests/games/amnesia/test_cover.py), a thirtieth of the work;
    and the same for every cover of a size, made once (a mask is only read)."""
    width, height = size
    column = Image.new("L", (1, height), 0)
    ImageDraw.Draw(column).rectangle((0, int(height * 0.42), 0, height), fill=235)
    return column.filter(ImageFilter.GaussianBlur(60)).resize(size, Image.Resampling.NEAREST)


def draw(book: Book, size: tuple[int, int] = covers.COVER_SIZE) -> Image.Image:
    width, height = size
    seed = covers.cover_seed(book)
    rnd = random.Random(seed)  # the cover's layout, not a game: no referee randomness here
    ink, paper, accent = covers.PALETTES[seed % len(covers.PALETTES)]
    image = Image.new("RGB", size, ink)

    # A drift of the first lines of the story, fainter and more blurred further down: memory.
    fragments = [p.text for c in book.chapters for p in c.passages if p.text][:24]
    if not fragments:
        fragments = [book.title, *book.players]
    text_layer = Image.new("L", size, 0)
    tdraw = ImageDraw.Draw(text_layer)
    drift = " · ".join(" ".join(f.split()) for f in fragments)
    japanese_drift = covers.needs_japanese(drift)
    line_font = covers.font(34, japanese=japanese_drift, italic=not japanese_drift)
    y = 70
    for line in drift_lines(drift, lambda text: tdraw.textlength(text, font=line_font), width, rnd):
        if y >= height * 0.62:
            break
        shade = max(18, int(120 * (1 - y / (height * 0.62))))
        tdraw.text((line.x, y), line.text, font=line_font, fill=shade)
        y += 52
    faded = fade(text_layer)
    if faded is not None:
        # A colour through a mask: the same pixels as an image of that colour, none made.
        image.paste(paper, (0, 0, *faded.size), faded.point(lambda v: v // 2))

    # A veil where the title sits, so it reads over the drift.
    image.paste(ink, (0, 0, *size), veil_mask(size))

    pen = ImageDraw.Draw(image)
    margin = 110
    japanese = covers.needs_japanese(book.title + book.subtitle)
    label = covers.font(30, japanese=covers.needs_japanese(book.game_title))
    covers.centered(pen, 60, covers.spaced(book.game_title), label, accent, width)

    lines, font, font_size = covers.fit_title(pen, book.title, width - 2 * margin, japanese)
    line_height = int(font_size * (1.25 if japanese else 1.08))
    top = int(height * 0.50)
    for i, line in enumerate(lines):
        covers.centered(pen, top + i * line_height, line, font, paper, width)
    y = top + len(lines) * line_height + 40
    pen.line((width / 2 - 90, y, width / 2 + 90, y), fill=accent, width=3)
    y += 45
    if book.subtitle:
        sub_font = covers.font(50, japanese=covers.needs_japanese(book.subtitle), italic=True)
        for line in covers.wrap(pen, book.subtitle, sub_font, width - 2 * margin)[:3]:
            covers.centered(pen, y, line, sub_font, paper, width)
            y += 64

    # The cards turned in the story's disputes, along the foot, as the game left them.
    suits = [
        c["card"]
        for ch in book.chapters
        for item in ch.data.get("items", [])
        if item.get("type") == "dispute"
        for c in item["cards"]
        if c.get("card")
    ][:14]
    names = " · ".join(book.authors)
    names_font = covers.font(40, japanese=covers.needs_japanese(names))
    name_lines = covers.wrap(pen, names, names_font, width - 2 * margin)[:3]
    y = height - 110 - 56 * len(name_lines)
    for line in name_lines:
        covers.centered(pen, y, line, names_font, paper, width)
        y += 56
    if suits:
        suit_font = covers.font(44, japanese=True)
        row = "   ".join(f"{c['rank']}{c['suit']}" for c in suits)
        row_y = height - 110 - 56 * len(name_lines) - 95
        covers.centered(pen, row_y, row, suit_font, accent, width)
    pen.rectangle((28, 28, width - 29, height - 29), outline=accent, width=2)
    return image
