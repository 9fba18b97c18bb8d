"""Covers: an uploaded image made safe, or one drawn with Pillow from the game itself.

An upload is read only if Pillow recognises one of the allowed formats, is refused before
decoding when its header announces too many pixels (a decompression bomb), is turned the right
way up from its EXIF orientation, and is re-encoded from its pixels alone into a fresh JPEG: no
EXIF (so no GPS position), no ICC profile, no comments survive. It is resized to fit
``MAX_COVER``.

A generated cover is drawn by the game itself (its kit's ``cover``, in the game's own
``cover`` module), with the lettering helpers below: the bundled fonts, line breaking, a title
fitted to the width, centred lines. A game without one gets a plain cover, its title and its
authors. Generated covers are cached, keyed on everything in the book a drawer may read.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from games import images, registry
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
        data = strip_cover(data)
    except images.ImageRefused as refused:
        raise _refusal(refused) from None
    return ContentFile(data, name="cover.jpg")


def strip_cover(data: bytes, *, min_side: int = MIN_SIDE) -> bytes:
    """The picture in ``data`` as a fresh JPEG of its pixels alone, fitted to ``MAX_COVER``
    (``images.ImageRefused`` when it is not a picture to keep). An upload and a cover that
    arrives in a bundle both pass here."""
    image = images.decode(data, max_pixels=MAX_PIXELS, min_side=min_side)
    # Only the pixels are copied: whatever metadata the upload carried stays behind.
    clean = images.bare_rgb(image, PAPER)
    clean.thumbnail(MAX_COVER, Image.Resampling.LANCZOS)
    return images.encode(clean, "JPEG", quality=86, optimize=True, progressive=True)


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
# The helpers every game's cover drawer letters with.

# Deep inks for the background, each with the pale tone its lettering is set in.
PALETTES = (
    ((24, 30, 48), (236, 222, 196), (196, 150, 92)),  # ink blue, parchment, brass
    ((52, 20, 24), (244, 226, 206), (214, 140, 110)),  # oxblood
    ((20, 40, 36), (230, 232, 214), (170, 190, 140)),  # bottle green
    ((40, 26, 52), (238, 224, 236), (196, 160, 210)),  # plum
    ((30, 30, 30), (240, 234, 222), (200, 170, 120)),  # charcoal
)


def font(size: int, *, japanese: bool = False, italic: bool = False):
    """One of the book's bundled fonts (the Japanese cut also draws the card suits)."""
    bundled = FONTS[2] if japanese else (FONTS[1] if italic else FONTS[0])
    return ImageFont.truetype(str(bundled.path), size)


def needs_japanese(text: str) -> bool:
    return any(ord(ch) >= 0x2E80 for ch in text)


def wrap(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """Greedy line breaking: by words, or by characters for text written without spaces."""
    words = text.split()
    units = words if len(words) > 1 or not needs_japanese(text) else list(text)
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


def fit_title(draw, text: str, width: int, japanese: bool) -> tuple[list[str], object, int]:
    """The title's lines, font and size: the largest size that sets it in four lines."""
    for size in (150, 132, 116, 102, 90, 80, 70, 62):
        title_font = font(size, japanese=japanese)
        lines = wrap(draw, text, title_font, width)
        if len(lines) <= 4:
            return lines, title_font, size
    return lines[:5], title_font, size


def centered(draw, y: int, text: str, font, fill, width: int) -> None:
    """One line centred across ``width`` at height ``y``."""
    w = draw.textlength(text, font=font)
    draw.text(((width - w) / 2, y), text, font=font, fill=fill)


def spaced(text: str) -> str:
    """Letter-spaced capitals for a label (Japanese stays as it is)."""
    return " ".join(text.upper()) if not needs_japanese(text) else text


def cover_seed(book: Book) -> int:
    """A number for the cover's layout and palette, the same for the same story and title."""
    return int(hashlib.sha256(f"{book.story.pk}:{book.title}".encode()).hexdigest()[:12], 16)


def plain_cover(book: Book, size: tuple[int, int] = COVER_SIZE) -> Image.Image:
    """The cover of a game that draws none: the game, the title and the authors."""
    width, height = size
    ink, paper, accent = PALETTES[cover_seed(book) % len(PALETTES)]
    image = Image.new("RGB", size, ink)
    draw = ImageDraw.Draw(image)
    margin = 110
    label = font(30, japanese=needs_japanese(book.game_title))
    centered(draw, 60, spaced(book.game_title), label, accent, width)
    japanese = needs_japanese(book.title)
    lines, title_font, font_size = fit_title(draw, book.title, width - 2 * margin, japanese)
    line_height = int(font_size * (1.25 if japanese else 1.08))
    y = int(height * 0.36)
    for line in lines:
        centered(draw, y, line, title_font, paper, width)
        y += line_height
    draw.line((width / 2 - 90, y + 40, width / 2 + 90, y + 40), fill=accent, width=3)
    names = " · ".join(book.authors)
    names_font = font(40, japanese=needs_japanese(names))
    name_lines = wrap(draw, names, names_font, width - 2 * margin)[:3]
    y = height - 110 - 56 * len(name_lines)
    for line in name_lines:
        centered(draw, y, line, names_font, paper, width)
        y += 56
    draw.rectangle((28, 28, width - 29, height - 29), outline=accent, width=2)
    return image


def _drawer(book: Book):
    """The game's own cover drawer (its kit's ``cover``), or the plain one."""
    try:
        drawer = registry.kit(book.game).cover
    except registry.UnknownGame:
        drawer = None
    return drawer or plain_cover


def generated_cover(book: Book, size: tuple[int, int] = COVER_SIZE) -> Image.Image:
    """The game's own cover; a plain one for a game that draws none."""
    return _drawer(book)(book, size)


def _cover_key(book: Book) -> str:
    """What the cover is drawn from. A game's drawer may read anything in the book (Amnesia
    its first lines and disputed cards, the contest its cast, Amnesia Stories its pictures),
    so the key holds all of it, and which drawer draws it; not the print design, which a
    cover does not use."""
    drawer = _drawer(book)
    raw = repr(
        (
            5,  # 5: the Amnesia drift is set in whole words
            getattr(drawer, "__module__", ""),
            getattr(drawer, "__qualname__", type(drawer).__qualname__),
            book.story.pk,
            book.game,
            book.game_title,
            [book.title, book.subtitle, book.blurb, book.language, book.tags],
            [book.players, book.game_master, book.authors],
            [book.started_at, book.finished_at, book.finished],
            [asdict(c) for c in book.chapters],
            book.images,
            sorted(book.picture_ids),
        )
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
    return cached(path, lambda: drawn_png(book), stale=f"{story.pk}-*.png")


def drawn_png(book: Book) -> bytes:
    """The generated cover drawn and encoded: what ``_cover_key(book)`` names."""
    return _png(generated_cover(book))


def _png(image: Image.Image) -> bytes:
    return images.encode(image, "PNG", optimize=False, compress_level=6)
