"""Amnesia Stories' generated cover (the kit's ``cover``): a collage of the journeys'
illustrations under a band with the title."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageDraw, ImageOps

from games.amnesia_stories.area_store import BOOK_PICTURES
from stories import covers
from stories.services import Book


def draw(book: Book, size: tuple[int, int] = covers.COVER_SIZE) -> Image.Image:
    ids = book.images or sorted(BOOK_PICTURES.ids)[:9]
    width, height = size
    ink, paper, accent = covers.PALETTES[len(book.title) % len(covers.PALETTES)]
    image = Image.new("RGB", size, ink)
    columns, rows = 3, 4
    tile_w, tile_h = width // columns, height // rows
    for i in range(columns * rows):
        card_id = ids[i % len(ids)]
        tile = Image.open(BytesIO(BOOK_PICTURES.picture(card_id))).convert("RGB")
        tile = ImageOps.fit(tile, (tile_w, tile_h), Image.Resampling.LANCZOS)
        image.paste(tile, ((i % columns) * tile_w, (i // columns) * tile_h))
    # The title band, a third of the way up from the foot.
    band_top, band_bottom = int(height * 0.52), int(height * 0.84)
    band = Image.new("RGB", (width, band_bottom - band_top), ink)
    image.paste(band, (0, band_top))
    pen = ImageDraw.Draw(image)
    margin = 100
    japanese = covers.needs_japanese(book.title)
    label = covers.font(30, japanese=covers.needs_japanese(book.game_title))
    covers.centered(pen, band_top + 40, covers.spaced(book.game_title), label, accent, width)
    lines, font, font_size = covers.fit_title(pen, book.title, width - 2 * margin, japanese)
    lines = lines[:3]
    y = band_top + 100
    for line in lines:
        covers.centered(pen, y, line, font, paper, width)
        y += int(font_size * (1.25 if japanese else 1.08))
    names = " · ".join(book.authors)
    names_font = covers.font(36, japanese=covers.needs_japanese(names))
    covers.centered(
        pen,
        band_bottom - 80,
        covers.wrap(pen, names, names_font, width - 2 * margin)[0],
        names_font,
        paper,
        width,
    )
    return image
