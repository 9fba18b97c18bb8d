"""Each game names its designer as its seed does, from its own kit (each game's own credit is
tested with the game: tests/games/<slug>/test_credit.py); a text that names nobody says it
comes from the designer's draft and no name is invented. The rules page, the print-and-play sheets and the book (tested with
the book, tests/stories/test_book_credits_and_order.py) print it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import registry
from games.registry import Credit
from tests.pdfs import page_texts

SLUGS = [kit.slug for kit in registry.kits()]

pytestmark = pytest.mark.xdist_group("components")


def test_each_kit_carries_a_credit() -> None:
    """Each game's own credit (what its text says) is tested with the game, in
    tests/games/<slug>/test_credit.py; here, that every kit has one to print."""
    with translation.override("en"):
        for kit in registry.kits():
            assert isinstance(kit.credit, Credit), kit.slug
            assert kit.credit.line().startswith(("A game by ", "From the designer")), kit.slug


def test_a_kit_without_a_credit_invents_no_name() -> None:
    assert Credit().line() == "From the designer’s draft."
    assert Credit(designer="Someone").line() == "A game by Someone."


@pytest.mark.django_db
@pytest.mark.parametrize("game", SLUGS)
def test_the_rules_page_names_the_designer(game: str) -> None:
    with translation.override("en"):
        credit = registry.kit(game).credit.line()
    html = Client().get(reverse("games:rules", args=[game])).content.decode()
    assert html.count(credit) == 2  # under the title and in the credits
    assert 'id="credits"' in html


@pytest.mark.parametrize("game", SLUGS)
def test_every_printed_sheet_names_the_designer(components_pdf, game: str) -> None:
    with translation.override("en"):
        credit = "".join(registry.kit(game).credit.line().split())
    # The command's PDF (tests/games/conftest.py): tests/games/test_components.py reads the
    # same ones, on the same test worker (the modules' xdist group).
    printed = ["".join(text.split()) for text in page_texts(components_pdf(game))]
    # Faces and sheets carry it; their backs (every other page) stay blank in the margin.
    assert all(credit in text for text in printed[::2])
    assert not any(credit in text for text in printed[1::2])
