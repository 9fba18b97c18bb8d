"""Where the art of the 48 built-in area cards lives, in which sizes and format, and how a
missing picture is drawn.

The pages show two files per card in ``MEDIA_ROOT/areas`` (``large`` and ``thumb``, WebP when
Pillow has it), written by ``manage.py generate_area_cards`` or drawn on first use by the
picture view. The book prints a JPEG of its own size, kept in the folder its caller names
(``BOOK_PICTURES``, the kit's ``pictures``, keeps them in the story cache). The art is deterministic (``games.amnesia_stories.art``), so a picture drawn on
first use is the one the command writes.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from games import images
from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.art.render import render_area
from stories.cache import cache_dir

LARGE = (960, 640)
THUMB = (240, 160)
PRINT = (720, 480)
KINDS = ("large", "thumb")


def areas_dir() -> Path:
    root = getattr(settings, "MEDIA_ROOT", "") or Path(settings.BASE_DIR) / "media"
    return Path(root) / "areas"


def card_paths(card_id: str, folder: Path | None = None) -> dict[str, Path]:
    """The card's files for the pages, by kind."""
    folder = folder or areas_dir()
    _fmt, ext, _save = images.web_format()
    return {"large": folder / f"{card_id}.{ext}", "thumb": folder / f"{card_id}_thumb.{ext}"}


def draw(card_id: str, paths: dict[str, Path]) -> None:
    """Draw the card once and write the kinds in ``paths`` (each file whole or not at all)."""
    fmt, _ext, save = images.web_format()
    large = render_area(card_id, LARGE)
    # THUMB is a quarter of LARGE each way: the mean of each 4x4 block, a tenth of Lanczos's time.
    pictures = {"large": large, "thumb": large.reduce(LARGE[0] // THUMB[0])}
    for kind, path in paths.items():
        images.write_atomically(path, images.encode(pictures[kind], fmt, **save))


def picture(card_id: str, kind: str) -> Path:
    """The file of one kind for the pages, drawn (both kinds) when it is not there yet."""
    paths = card_paths(card_id)
    if not paths[kind].exists():
        draw(card_id, paths)
    return paths[kind]


def print_picture(card_id: str, folder: Path) -> bytes:
    """The card for a printed book: a JPEG of ``PRINT`` size, drawn once into ``folder``."""
    path = folder / f"{card_id}.jpg"
    if path.is_file():
        return path.read_bytes()
    data = images.encode(
        render_area(card_id, PRINT).convert("RGB"), "JPEG", quality=85, optimize=True
    )
    images.write_atomically(path, data)
    return data


class BookAreas:
    """The built-in area cards as the pictures the story book prints (the kit's ``pictures``):
    a journey's illustration from a custom deck has no picture to print."""

    ids = frozenset(AREA_IDS)

    def picture(self, picture_id: str) -> bytes:
        """The card's art for the book and its cover (drawn once, then cached)."""
        return print_picture(picture_id, cache_dir() / "areas")


BOOK_PICTURES = BookAreas()
