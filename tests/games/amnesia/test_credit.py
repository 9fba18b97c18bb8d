"""The game names its designer as its seed does (printed by the rules page, the
print-and-play sheets and the books: tests/games/test_credits.py)."""

from __future__ import annotations

from django.utils import translation

from games import registry


def test_the_kit_credits_what_the_text_says() -> None:
    kit = registry.kit("amnesia")
    with translation.override("en"):
        assert (
            kit.credit.line()
            == "From the designer’s draft (the second version of its rules, written in Portuguese)."
        )
    assert kit.credit.designer == ""
