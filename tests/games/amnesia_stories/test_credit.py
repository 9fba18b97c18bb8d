"""The game names its designer as its seed does (printed by the rules page, the
print-and-play sheets and the books: tests/games/test_credits.py)."""

from __future__ import annotations

from django.utils import translation

from games import registry


def test_the_kit_credits_what_the_text_says() -> None:
    kit = registry.kit("amnesia_stories")
    with translation.override("en"):
        assert (
            kit.credit.line()
            == "From the designer’s draft (draft 4 of its rules, written in Japanese)."
        )
    assert kit.credit.designer == ""
