"""The adventure texts of the built-in area cards (kept with the referee, which is pure)."""

from __future__ import annotations

from games.rules.area_texts import (
    AREA_IDS,
    AREA_TEXTS,
    LANGUAGES,
    SCENES,
    area_scene,
    area_text,
    area_texts,
)

__all__ = ["AREA_IDS", "AREA_TEXTS", "LANGUAGES", "SCENES", "area_scene", "area_text", "area_texts"]
