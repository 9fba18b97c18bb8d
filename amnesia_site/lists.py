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


def bracketed(text: str, language: str | None = None) -> str:
    """`` (text)`` after a word, or ``（text）`` in Japanese, whose brackets are full width and
    take no space before them."""
    language = (language or get_language() or "").lower()
    return f"（{text}）" if language.startswith("ja") else f" ({text})"


def groups(language: str | None = None) -> str:
    """Between groups that hold commas themselves: a semicolon; a full stop in Japanese, which
    has no semicolon of its own."""
    language = (language or get_language() or "").lower()
    return "。" if language.startswith("ja") else "; "


def sentences(*texts: str, language: str | None = None) -> str:
    """Sentences one after another: a space between them, none in Japanese, whose full stop
    (。) is wide enough."""
    language = (language or get_language() or "").lower()
    return ("" if language.startswith("ja") else " ").join(t for t in texts if t)


def span(low: str, high: str, language: str | None = None) -> str:
    """From ``low`` to ``high``, an interval's ends: "31%–55%", or "31%〜55%" in Japanese."""
    language = (language or get_language() or "").lower()
    return f"{low}〜{high}" if language.startswith("ja") else f"{low}–{high}"
