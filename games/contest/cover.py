"""The contest's generated cover (the kit's ``cover``): the characters' names, large, like a
fight card, under the four attributes' suits."""

from __future__ import annotations

from PIL import Image, ImageDraw

from stories import covers
from stories.services import Book


def cast(book: Book) -> list[tuple[str, str]]:
    """(character, player) for each character of the cast chapter, in seat order."""
    for chapter in book.chapters:
        if chapter.kind == "cast":
            return [
                (c.get("character") or "", c.get("player") or "")
                for c in chapter.data.get("cast", [])
                if c.get("character")
            ]
    return []


def draw(book: Book, size: tuple[int, int] = covers.COVER_SIZE) -> Image.Image:
    width, height = size
    ink, paper, accent = covers.PALETTES[covers.cover_seed(book) % len(covers.PALETTES)]
    image = Image.new("RGB", size, ink)
    pen = ImageDraw.Draw(image)
    margin = 110
    label = covers.font(30, japanese=covers.needs_japanese(book.game_title))
    covers.centered(pen, 60, covers.spaced(book.game_title), label, accent, width)
    characters = cast(book) or [(name, "") for name in book.players]
    names = [c for c, _player in characters][:6]
    y = int(height * 0.18)
    for i, name in enumerate(names):
        japanese = covers.needs_japanese(name)
        lines, font, font_size = covers.fit_title(pen, name, width - 2 * margin, japanese)
        for line in lines[:1]:
            covers.centered(pen, y, line, font, paper, width)
        y += int(font_size * 1.1)
        if i < len(names) - 1:
            covers.centered(pen, y, "vs", covers.font(40, italic=True), accent, width)
            y += 60
    title_font = covers.font(56, japanese=covers.needs_japanese(book.title), italic=True)
    title_lines = covers.wrap(pen, book.title, title_font, width - 2 * margin)[:2]
    y = height - 130 - 70 * len(title_lines)
    suits = "\u2660   \u2663   \u2666   \u2665"
    covers.centered(pen, y - 140, suits, covers.font(56, japanese=True), accent, width)
    pen.line((width / 2 - 90, y - 30, width / 2 + 90, y - 30), fill=accent, width=3)
    for line in title_lines:
        covers.centered(pen, y, line, title_font, paper, width)
        y += 70
    pen.rectangle((28, 28, width - 29, height - 29), outline=accent, width=2)
    return image
