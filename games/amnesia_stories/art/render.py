"""A built-in area card's picture: the painter of its scene, its seed, the night accent of
its scene, and ``render_area`` (the same picture for the same id every time), with
``contact_sheet`` to check the art by eye.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence

from PIL import Image

from games.amnesia_stories.area_texts import AREA_IDS, area_scene
from games.amnesia_stories.art.buildings import castle, ruins, tower, village
from games.amnesia_stories.art.canvas import SUPERSAMPLE, Canvas, Color
from games.amnesia_stories.art.landscapes import (
    canyon,
    cave,
    desert,
    forest,
    island,
    lake,
    mountains,
    sea,
    snowfield,
    swamp,
    volcano,
    waterfall,
)

# Night skies differ from scene to scene, so dark cards stay apart across the table.
NIGHT_ACCENTS: dict[str, Color] = {
    "sea": (24, 44, 120),
    "forest": (20, 96, 80),
    "desert": (110, 50, 140),
    "cave": (40, 60, 110),
    "castle": (70, 40, 120),
    "village": (30, 70, 150),
    "swamp": (50, 110, 70),
    "volcano": (150, 40, 40),
    "lake": (60, 120, 170),
    "waterfall": (30, 90, 120),
    "island": (130, 50, 120),
    "tower": (80, 50, 150),
}


SCENE_PAINTERS: dict[str, Callable[[Canvas], None]] = {
    "mountains": mountains,
    "sea": sea,
    "forest": forest,
    "desert": desert,
    "snowfield": snowfield,
    "cave": cave,
    "castle": castle,
    "village": village,
    "ruins": ruins,
    "swamp": swamp,
    "volcano": volcano,
    "lake": lake,
    "canyon": canyon,
    "waterfall": waterfall,
    "island": island,
    "tower": tower,
}


def card_seed(card_id: str) -> int:
    return int.from_bytes(hashlib.sha256(f"area:{card_id}".encode()).digest()[:8], "big")


def render_area(card_id: str, size: tuple[int, int] = (960, 640)) -> Image.Image:
    """The illustration of a built-in area card as an RGB image of ``size``."""
    scene, variant, time = area_scene(card_id)
    rng = random.Random(card_seed(card_id))
    accent = NIGHT_ACCENTS.get(scene) if time == "night" else None
    canvas = Canvas(size, rng, time, accent)
    SCENE_PAINTERS[scene](canvas)
    img = canvas.finish(mirror=variant == 1)
    # The canvas is SUPERSAMPLE times the size each way: each pixel is the mean of its block
    # (supersampling's own filter; Lanczos took half of a card's time for a picture whose
    # pixels differ by under one level in 255 on average).
    return img.reduce(SUPERSAMPLE)


def contact_sheet(
    size: tuple[int, int] = (240, 160), columns: int = 8, ids: Sequence[str] = AREA_IDS
) -> Image.Image:
    """Cards in a grid (for checking the art by eye)."""
    gap = 6
    rows = math.ceil(len(ids) / columns)
    sheet = Image.new(
        "RGB", (columns * (size[0] + gap) + gap, rows * (size[1] + gap) + gap), (30, 30, 30)
    )
    for i, card_id in enumerate(ids):
        x = gap + (i % columns) * (size[0] + gap)
        y = gap + (i // columns) * (size[1] + gap)
        sheet.paste(render_area(card_id, size), (x, y))
    return sheet
