"""Covers: an uploaded image made safe, or one drawn with Pillow from the game itself.

An upload is read only if Pillow recognises one of the allowed formats, is refused before
decoding when its header announces too many pixels (a decompression bomb), is turned the right
way up from its EXIF orientation, and is re-encoded from its pixels alone into a fresh JPEG: no
EXIF (so no GPS position), no ICC profile, no comments survive. It is resized to fit
``MAX_COVER``.

A generated cover is typographic for Amnesia: the title set in the book's own serif over a
drift of the story's first lines, fading as memories do, with the cards turned in its
challenges along the edge. Other games get their own ``draw`` function in ``COVER_ARTISTS``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from io import BytesIO

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageOps

from games import images
from games.amnesia_stories import area_store
from stories.cache import cache_dir, cached
from stories.fonts import FONTS
from stories.services import Book

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
MAX_PIXELS = 36_000_000  # 6000 x 6000: any real photo; far below a bomb
MIN_SIDE = 200
MAX_COVER = (1240, 1754)  # A5 at 213 dpi: sharp on the PDF's cover page
COVER_SIZE = MAX_COVER
PAPER = (250, 246, 238)


def clean_cover(upload) -> ContentFile:
    """A validated, stripped, resized JPEG from an uploaded file (or ValidationError)."""
    if upload.size is not None and upload.size > MAX_UPLOAD_BYTES:
        raise ValidationError(
            _("The cover may be at most %(mb)s MB.") % {"mb": MAX_UPLOAD_BYTES // 2**20},
            code="too_big",
        )
    upload.seek(0)
    data = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValidationError(_("The cover is too big."), code="too_big")
    try:
        image = images.decode(data, max_pixels=MAX_PIXELS, min_side=MIN_SIDE)
    except images.ImageRefused as refused:
        raise _refusal(refused) from None
    # Only the pixels are copied: whatever metadata the upload carried stays behind.
    clean = images.bare_rgb(image, PAPER)
    clean.thumbnail(MAX_COVER, Image.Resampling.LANCZOS)
    data = images.encode(clean, "JPEG", quality=86, optimize=True, progressive=True)
    return ContentFile(data, name="cover.jpg")


def _refusal(refused: images.ImageRefused) -> ValidationError:
    if refused.reason in ("too_many_pixels", "bomb"):
        return ValidationError(
            _("That image has too many pixels (at most %(mp)s megapixels).")
            % {"mp": MAX_PIXELS // 1_000_000},
            code="too_many_pixels",
        )
    if refused.reason == "too_small":
        return ValidationError(
            _("The cover must be at least %(px)s pixels on each side.") % {"px": MIN_SIDE},
            code="too_small",
        )
    return ValidationError(_("Upload a JPEG, PNG or WebP image."), code="invalid_image")


# -- generated covers ---------------------------------------------------------------------
# Deep inks for the background, each with the pale tone its lettering is set in.
PALETTES = (
    ((24, 30, 48), (236, 222, 196), (196, 150, 92)),  # ink blue, parchment, brass
    ((52, 20, 24), (244, 226, 206), (214, 140, 110)),  # oxblood
    ((20, 40, 36), (230, 232, 214), (170, 190, 140)),  # bottle green
    ((40, 26, 52), (238, 224, 236), (196, 160, 210)),  # plum
    ((30, 30, 30), (240, 234, 222), (200, 170, 120)),  # charcoal
)


def _font(size: int, *, japanese: bool = False, italic: bool = False):
    bundled = FONTS[2] if japanese else (FONTS[1] if italic else FONTS[0])
    return ImageFont.truetype(str(bundled.path), size)


def _needs_japanese(text: str) -> bool:
    return any(ord(ch) >= 0x2E80 for ch in text)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """Greedy line breaking: by words, or by characters for text written without spaces."""
    words = text.split()
    units = words if len(words) > 1 or not _needs_japanese(text) else list(text)
    joiner = " " if units is words else ""
    lines: list[str] = []
    line = ""
    for unit in units:
        trial = f"{line}{joiner}{unit}" if line else unit
        if draw.textlength(trial, font=font) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = unit
    if line:
        lines.append(line)
    return lines


def _fit_title(draw, text: str, width: int, japanese: bool) -> tuple[list[str], object, int]:
    for size in (150, 132, 116, 102, 90, 80, 70, 62):
        font = _font(size, japanese=japanese)
        lines = _wrap(draw, text, font, width)
        if len(lines) <= 4:
            return lines, font, size
    return lines[:5], font, size


def _centered(draw, y: int, text: str, font, fill, width: int) -> None:
    w = draw.textlength(text, font=font)
    draw.text(((width - w) / 2, y), text, font=font, fill=fill)


def _spaced(text: str) -> str:
    return " ".join(text.upper()) if not _needs_japanese(text) else text


def draw_amnesia(book: Book, size: tuple[int, int] = COVER_SIZE) -> Image.Image:
    width, height = size
    seed = int(hashlib.sha256(f"{book.story.pk}:{book.title}".encode()).hexdigest()[:12], 16)
    rnd = random.Random(seed)  # the cover's layout, not a game: no referee randomness here
    ink, paper, accent = PALETTES[seed % len(PALETTES)]
    image = Image.new("RGB", size, ink)

    # A drift of the first lines of the story, fainter and more blurred further down: memory.
    fragments = [p.text for c in book.chapters for p in c.passages if p.text][:24]
    if not fragments:
        fragments = [book.title, *book.players]
    text_layer = Image.new("L", size, 0)
    tdraw = ImageDraw.Draw(text_layer)
    drift = " · ".join(" ".join(f.split()) for f in fragments)
    japanese_drift = _needs_japanese(drift)
    line_font = _font(34, japanese=japanese_drift, italic=not japanese_drift)
    y = 70
    offset = 0
    while y < height * 0.62:
        chunk = drift[offset : offset + 90] or drift[:90]
        offset = (offset + 61) % max(1, len(drift))
        shade = max(18, int(120 * (1 - y / (height * 0.62))))
        tdraw.text((rnd.randint(-140, 20), y), chunk * 2, font=line_font, fill=shade)
        y += 52
    blurred = text_layer.filter(ImageFilter.GaussianBlur(1.6))
    mask = Image.linear_gradient("L").resize(size).point(lambda v: 255 - v)
    text_layer = Image.composite(text_layer, blurred, mask)
    image.paste(Image.new("RGB", size, paper), (0, 0), text_layer.point(lambda v: v // 2))

    # A veil where the title sits, so it reads over the drift.
    veil = Image.new("L", size, 0)
    ImageDraw.Draw(veil).rectangle((0, int(height * 0.42), width, height), fill=235)
    veil = veil.filter(ImageFilter.GaussianBlur(60))
    image.paste(Image.new("RGB", size, ink), (0, 0), veil)

    draw = ImageDraw.Draw(image)
    margin = 110
    japanese = _needs_japanese(book.title + book.subtitle)
    label = _font(30, japanese=_needs_japanese(book.game_title))
    _centered(draw, 60, _spaced(book.game_title), label, accent, width)

    lines, font, font_size = _fit_title(draw, book.title, width - 2 * margin, japanese)
    line_height = int(font_size * (1.25 if japanese else 1.08))
    top = int(height * 0.50)
    for i, line in enumerate(lines):
        _centered(draw, top + i * line_height, line, font, paper, width)
    y = top + len(lines) * line_height + 40
    draw.line((width / 2 - 90, y, width / 2 + 90, y), fill=accent, width=3)
    y += 45
    if book.subtitle:
        sub_font = _font(50, japanese=_needs_japanese(book.subtitle), italic=True)
        for line in _wrap(draw, book.subtitle, sub_font, width - 2 * margin)[:3]:
            _centered(draw, y, line, sub_font, paper, width)
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
    names_font = _font(40, japanese=_needs_japanese(names))
    name_lines = _wrap(draw, names, names_font, width - 2 * margin)[:3]
    y = height - 110 - 56 * len(name_lines)
    for line in name_lines:
        _centered(draw, y, line, names_font, paper, width)
        y += 56
    if suits:
        suit_font = _font(44, japanese=True)
        row = "   ".join(f"{c['rank']}{c['suit']}" for c in suits)
        row_y = height - 110 - 56 * len(name_lines) - 95
        _centered(draw, row_y, row, suit_font, accent, width)
    draw.rectangle((28, 28, width - 29, height - 29), outline=accent, width=2)
    return image


def draw_amnesia_stories(book: Book, size: tuple[int, int] = COVER_SIZE) -> Image.Image:
    """A collage of the journeys' illustrations under a band with the title."""
    ids = book.images or sorted(book.area_ids)[:9]
    width, height = size
    ink, paper, accent = PALETTES[len(book.title) % len(PALETTES)]
    image = Image.new("RGB", size, ink)
    columns, rows = 3, 4
    tile_w, tile_h = width // columns, height // rows
    for i in range(columns * rows):
        card_id = ids[i % len(ids)]
        tile = Image.open(BytesIO(area_picture(card_id))).convert("RGB")
        tile = ImageOps.fit(tile, (tile_w, tile_h), Image.Resampling.LANCZOS)
        image.paste(tile, ((i % columns) * tile_w, (i // columns) * tile_h))
    # The title band, a third of the way up from the foot.
    band_top, band_bottom = int(height * 0.52), int(height * 0.84)
    band = Image.new("RGB", (width, band_bottom - band_top), ink)
    image.paste(band, (0, band_top))
    draw = ImageDraw.Draw(image)
    margin = 100
    japanese = _needs_japanese(book.title)
    label = _font(30, japanese=_needs_japanese(book.game_title))
    _centered(draw, band_top + 40, _spaced(book.game_title), label, accent, width)
    lines, font, font_size = _fit_title(draw, book.title, width - 2 * margin, japanese)
    lines = lines[:3]
    y = band_top + 100
    for line in lines:
        _centered(draw, y, line, font, paper, width)
        y += int(font_size * (1.25 if japanese else 1.08))
    names = " · ".join(book.authors)
    names_font = _font(36, japanese=_needs_japanese(names))
    _centered(
        draw,
        band_bottom - 80,
        _wrap(draw, names, names_font, width - 2 * margin)[0],
        names_font,
        paper,
        width,
    )
    return image


def contest_cast(book: Book) -> list[tuple[str, str]]:
    """(character, player) for each character of the cast chapter, in seat order."""
    for chapter in book.chapters:
        if chapter.kind == "cast":
            return [
                (c.get("character") or "", c.get("player") or "")
                for c in chapter.data.get("cast", [])
                if c.get("character")
            ]
    return []


def draw_contest(book: Book, size: tuple[int, int] = COVER_SIZE) -> Image.Image:
    """The characters' names, large, like a fight card, under the four attributes' suits."""
    width, height = size
    seed = int(hashlib.sha256(f"{book.story.pk}:{book.title}".encode()).hexdigest()[:12], 16)
    ink, paper, accent = PALETTES[seed % len(PALETTES)]
    image = Image.new("RGB", size, ink)
    draw = ImageDraw.Draw(image)
    margin = 110
    label = _font(30, japanese=_needs_japanese(book.game_title))
    _centered(draw, 60, _spaced(book.game_title), label, accent, width)
    cast = contest_cast(book) or [(name, "") for name in book.players]
    names = [c for c, _player in cast][:6]
    y = int(height * 0.18)
    for i, name in enumerate(names):
        japanese = _needs_japanese(name)
        lines, font, font_size = _fit_title(draw, name, width - 2 * margin, japanese)
        for line in lines[:1]:
            _centered(draw, y, line, font, paper, width)
        y += int(font_size * 1.1)
        if i < len(names) - 1:
            _centered(draw, y, "vs", _font(40, italic=True), accent, width)
            y += 60
    title_font = _font(56, japanese=_needs_japanese(book.title), italic=True)
    title_lines = _wrap(draw, book.title, title_font, width - 2 * margin)[:2]
    y = height - 130 - 70 * len(title_lines)
    _centered(
        draw, y - 140, "\u2660   \u2663   \u2666   \u2665", _font(56, japanese=True), accent, width
    )
    draw.line((width / 2 - 90, y - 30, width / 2 + 90, y - 30), fill=accent, width=3)
    for line in title_lines:
        _centered(draw, y, line, title_font, paper, width)
        y += 70
    draw.rectangle((28, 28, width - 29, height - 29), outline=accent, width=2)
    return image


COVER_ARTISTS: dict[str, Callable[[Book, tuple[int, int]], Image.Image]] = {
    "amnesia_stories": draw_amnesia_stories,
    "contest": draw_contest,
}


def generated_cover(book: Book, size: tuple[int, int] = COVER_SIZE) -> Image.Image:
    """The game's own cover; Amnesia's typographic one for a game without an artist yet."""
    return COVER_ARTISTS.get(book.game, draw_amnesia)(book, size)


def _cover_key(book: Book) -> str:
    texts = [p.text for c in book.chapters for p in c.passages][:24]
    cards = [
        c["card"]["code"]
        for ch in book.chapters
        for item in ch.data.get("items", [])
        if item.get("type") == "dispute"
        for c in item["cards"]
        if c.get("card")
    ][:14]
    raw = repr(
        (3, book.story.pk, book.game, book.title, book.subtitle, book.authors, texts, cards)
        + (book.images,)
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def cover_image(book: Book) -> tuple[bytes, str]:
    """The cover and its type: the uploaded JPEG if any, else the generated PNG (cached)."""
    story = book.story
    if story.cover:
        try:
            with story.cover.open("rb") as handle:
                return handle.read(), "image/jpeg"
        except FileNotFoundError:
            pass  # the upload went missing: the generated cover stands in
    return generated_cover_png(book), "image/png"


def generated_cover_png(book: Book) -> bytes:
    story = book.story
    path = cache_dir() / "covers" / f"{story.pk}-{_cover_key(book)}.png"
    return cached(path, lambda: _png(generated_cover(book)), stale=f"{story.pk}-*.png")


def _png(image: Image.Image) -> bytes:
    return images.encode(image, "PNG", optimize=False, compress_level=6)


def area_picture(card_id: str) -> bytes:
    """A built-in area card's art for the book and its cover (drawn once, then cached)."""
    return area_store.print_picture(card_id, cache_dir() / "areas")
