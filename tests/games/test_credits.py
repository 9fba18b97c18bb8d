"""Each game names its designer as its seed does, from its own kit: the contest's text is
signed by its author; the others name nobody, so they say they come from the designer's draft
and no name is invented. The rules page, the print-and-play sheets and the book (tested with
the book, tests/stories/test_book_credits_and_order.py) print it."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from games import registry
from games.registry import Credit

CREDITS = {
    "amnesia": "From the designer’s draft (the second version of its rules, written in Portuguese).",
    "amnesia_stories": "From the designer’s draft (draft 4 of its rules, written in Japanese).",
    "contest": "A game by Phillip Foster.",
}


def test_each_kit_carries_its_credit() -> None:
    with translation.override("en"):
        assert {kit.slug: kit.credit.line() for kit in registry.kits()} == CREDITS
    assert registry.kit("contest").credit.designer == "Phillip Foster"
    assert registry.kit("amnesia").credit.designer == ""
    assert registry.kit("amnesia_stories").credit.designer == ""


def test_a_kit_without_a_credit_invents_no_name() -> None:
    assert Credit().line() == "From the designer’s draft."
    assert Credit(designer="Someone").line() == "A game by Someone."


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(CREDITS))
def test_the_rules_page_names_the_designer(game: str) -> None:
    html = Client().get(reverse("games:rules", args=[game])).content.decode()
    assert html.count(CREDITS[game]) == 2  # under the title and in the credits
    assert 'id="credits"' in html


@pytest.mark.parametrize("game", sorted(CREDITS))
def test_every_printed_sheet_names_the_designer(tmp_path, game: str) -> None:
    out = tmp_path / "out.pdf"
    with override_settings(STORY_CACHE_DIR=str(tmp_path / "cache")):
        call_command("components", game, str(out), stdout=io.StringIO())
    pages = PdfReader(out).pages
    credit = "".join(CREDITS[game].split())
    printed = ["".join(page.extract_text().split()) for page in pages]
    # Faces and sheets carry it; their backs (every other page) stay blank in the margin.
    assert all(credit in text for text in printed[::2])
    assert not any(credit in text for text in printed[1::2])
