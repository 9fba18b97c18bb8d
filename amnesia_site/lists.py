"""Lists of names and things in the reader's language: Japanese joins them with 、 (the
ideographic comma), the others with a comma and a space."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import get_language


def separator(language: str | None = None) -> str:
    language = (language or get_language() or "").lower()
    return "、" if language.startswith("ja") else ", "


def listing(items: Iterable[Any], language: str | None = None) -> str:
    """``items`` joined as the language writes a list."""
    return separator(language).join(str(item) for item in items)


def colon(language: str | None = None) -> str:
    """The mark between a label and what it labels."""
    language = (language or get_language() or "").lower()
    return "：" if language.startswith("ja") else ": "
