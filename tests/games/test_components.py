"""Print-and-play components: the command writes each game's PDF, the 48 area cards are in it
with their texts, pages come in face/back pairs, and each card's back sits behind its face
when the sheet is printed on both sides and flipped on its long edge."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pytest
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings
from django.utils import translation
from PIL import Image
from pypdf import PdfReader

from games import components, registry
from games.amnesia_stories.area_texts import AREA_IDS, area_text
from games.amnesia_stories.components import AREA_CARD, AREA_INSET
from games.amnesia_stories.models import CustomCard, CustomDeck
from games.amnesia_stories.options import PRESETS
from tests.pdfs import page_texts
from tests.stories.conftest import weasyprint_once  # noqa: F401 - a fixture

MM = 72 / 25.4  # PDF points in a millimetre

pytestmark = pytest.mark.xdist_group("components")


def squeeze(text: str) -> str:
    """Text without whitespace (extraction breaks lines where the layout did)."""
    return re.sub(r"\s+", "", text)


def chunks(page) -> list[tuple[str, float, float]]:
    """Every piece of text on the page with its start (x, y) in points from the bottom left."""
    found = []

    def visit(text, cm, tm, font_dict, font_size):
        if not text.strip():
            return
        a, b, c, d, e, f = cm
        x = a * tm[4] + c * tm[5] + e
        y = b * tm[4] + d * tm[5] + f
        found.append((text, x, y))

    page.extract_text(visitor_text=visit)
    return found


@dataclass(frozen=True)
class Sheet:
    """A printed PDF: pypdf's reader (for the boxes and the placed text) and each page's text
    (tests/pdfs.py: read once a run for the same bytes)."""

    reader: PdfReader
    texts: list[str]

    @classmethod
    def of(cls, data: bytes) -> Sheet:
        return cls(PdfReader(io.BytesIO(data)), page_texts(data))

    @property
    def whole(self) -> str:
        return "".join(self.texts)


def render(tmp_path_factory, *args: str) -> Sheet:
    out = tmp_path_factory.mktemp("components") / "out.pdf"
    cache = tmp_path_factory.mktemp("cache")
    with override_settings(STORY_CACHE_DIR=str(cache)):
        call_command("components", *args[:1], str(out), *args[1:], stdout=io.StringIO())
    return Sheet.of(out.read_bytes())


# The 48-card deck is rendered once per language (components_pdf, tests/games/conftest.py:
# the English one in the default size is the one tests/games/test_credits.py reads too, and
# the two modules run on one test worker, their xdist group).
@pytest.fixture(scope="module")
def stories_en(components_pdf) -> Sheet:
    return Sheet.of(components_pdf("amnesia_stories"))


@pytest.fixture(scope="module")
def stories_ja(components_pdf) -> Sheet:
    return Sheet.of(components_pdf("amnesia_stories", "--language", "ja", "--size", "letter"))


def area_pages(sheet: Sheet, language: str = "en") -> list[int]:
    """The face pages of the area cards (the backs are the pages just after), found by their
    heading in the sheet's language."""
    with translation.override(language):
        heading = translation.gettext("Area cards")
    return [i for i, text in enumerate(sheet.texts) if heading in text]


def test_the_48_area_cards_and_their_english_texts(stories_en):
    faces = area_pages(stories_en)
    assert faces == [0, 2, 4, 6, 8, 10]  # 8 cards a page, each page followed by its backs
    face_text = "".join(stories_en.texts[i] for i in faces)
    back_text = squeeze("".join(stories_en.texts[i + 1] for i in faces))
    for card_id in AREA_IDS:
        assert card_id in face_text
        assert squeeze(area_text(card_id, "en")) in back_text
    assert len(stories_en.texts) % 2 == 0
    box = stories_en.reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 by default
    whole = stories_en.whole
    # the seed's box: four players' sets and the selection slots', its 4 red cards, 4 score
    # cards (one marked S) and their markers
    assert "5 sets of 1 to 5" in whole and "4 red cards" in whole
    assert "4 score cards, one marked S" in whole and "Score markers" in whole
    assert "score sheet" in whole


def test_japanese_texts(stories_ja):
    faces = area_pages(stories_ja, "ja")
    assert len(faces) == 6 and len(stories_ja.texts) % 2 == 0
    back_text = squeeze("".join(stories_ja.texts[i + 1] for i in faces))
    for card_id in AREA_IDS:
        assert squeeze(area_text(card_id, "ja")) in back_text
    box = stories_ja.reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)  # US letter


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_back_sits_behind_its_face_when_flipped_on_the_long_edge(lang, stories_en, stories_ja):
    sheet = {"en": stories_en, "ja": stories_ja}[lang]
    reader = sheet.reader
    width = float(reader.pages[0].mediabox.width)
    card_width, inset_x = AREA_CARD[0] * MM, AREA_INSET[0] * MM
    # English texts share the id's font, so their first line sits exactly on the id's
    # baseline; a Japanese line sits on the Japanese font's, 2.2 pt lower, which the sheet's
    # style raises by as much (issue 27: the Japanese backs sat below the ids).
    dy = {"en": 0.1, "ja": 0.6}[lang]
    checked = 0
    for face in area_pages(sheet, lang):
        backs = chunks(reader.pages[face + 1])
        for text, x, y in chunks(reader.pages[face]):
            if text.strip() not in AREA_IDS:
                continue
            card_id = text.strip()
            card_left = x - inset_x
            # Flipped over the vertical centre line, the card's left edge becomes its back's
            # right edge; the back's text starts an inset in from the back's left edge.
            back_x = width - card_left - card_width + inset_x
            here = [t for t, bx, by in backs if abs(bx - back_x) < 0.1 and abs(y - by) < dy]
            assert here, f"nothing behind {card_id} at ({back_x:.1f}, {y:.1f})"
            assert squeeze(area_text(card_id, lang)).startswith(squeeze(here[0]))
            # ... and the card's text is nowhere else on that page
            assert all(
                abs(bx - back_x) < 0.1
                for t, bx, by in backs
                if squeeze(t)
                and squeeze(area_text(card_id, lang)).startswith(squeeze(t))
                and len(squeeze(t)) > 6
            )
            checked += 1
    assert checked == 48


def test_the_grid_mirrors_every_cell_for_every_size():
    for page in components.PAGE_SIZES.values():
        for size in ((88, 63), (44, 63), (90, 125)):
            grid = components.grid_for(page, size)
            assert grid.left >= components.MIN_MARGIN and grid.top >= components.MIN_MARGIN
            for slot in range(grid.per_page):
                (fx, fy), (bx, by) = grid.face(slot), grid.back(slot)
                assert fx + size[0] / 2 - page.width / 2 == pytest.approx(
                    page.width / 2 - (bx + size[0] / 2)
                )
                assert fy == by


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("amnesia", ["On your turn", "The challenge", "The finale", "Bank", "Discard"]),
        ("contest", ["Brains", "Muscle", "Moves", "Coolness", "A contest", "Ties", "Pretzels"]),
    ],
)
def test_the_command_writes_each_games_pdf(components_pdf, game, expected):
    sheet = Sheet.of(components_pdf(game))
    assert len(sheet.texts) % 2 == 0
    whole = sheet.whole
    for text in expected:
        assert text in whole
    if game == "contest":  # the 1–5 scale and the suits of the four attributes
        assert "♠" in whole and "♥" in whole and "1 2 3 4 5" in whole.replace("\n", " ")


def test_every_registered_game_prints_through_its_kit():
    assert all(kit.components is not None for kit in registry.kits())


# The deck's sheets read nothing of the rows' ids, so make test's PostgreSQL run reads the
# PDFs the SQLite run printed (weasyprint_once).
@pytest.mark.usefixtures("weasyprint_once")
@pytest.mark.django_db
def test_a_table_sets_the_options_players_and_deck(tmp_path_factory, make_table, gm):
    deck = CustomDeck.objects.create(owner=gm, name="Moons")
    png = io.BytesIO()
    Image.new("RGB", (30, 20), (200, 40, 40)).save(png, "PNG")
    for position in range(24):
        card = CustomCard(deck=deck, card_id=f"M{position}", text=f"Moon text {position}.")
        card.position = position
        card.image.save(f"m{position}.png", ContentFile(png.getvalue()), save=False)
        card.thumb.save(f"m{position}t.png", ContentFile(png.getvalue()), save=False)
        card.save()
    # The table plays draft 3's options (6 choices where the default is 5)...
    table = make_table(
        "amnesia_stories",
        ["Ana", "Bruno", "Caio"],
        options=dict(PRESETS["draft3"]["options"]),
        extra={"area_ids": [f"M{i}" for i in range(24)], "custom_deck": deck.pk},
    )
    sheet = render(tmp_path_factory, "amnesia_stories", "--table", str(table.pk))
    whole = sheet.whole
    assert "4 sets of 1 to 6" in whole  # 3 players and the selection slots
    assert "Moons" in whole and "M11" in whole and "Moon text 11." in whole
    assert "A01" not in whole
    assert len(sheet.texts) % 2 == 0

    # ... so the deck asked for by its id with the same preset and count of players is the
    # same document, which WeasyPrint prints once (weasyprint_once): the command reads the
    # deck from its id all the same, and a document that lost the deck would print anew.
    by_deck = render(
        tmp_path_factory,
        "amnesia_stories",
        "--deck",
        str(deck.pk),
        "--preset",
        "draft3",
        "--players",
        "3",
    )
    assert "Moon text 0." in by_deck.whole and "4 sets of 1 to 6" in by_deck.whole


@pytest.mark.django_db
def test_the_command_refuses_what_it_cannot_print(tmp_path, make_table):
    with pytest.raises(CommandError, match="No game"):
        call_command("components", "chess", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match="No preset"):
        call_command("components", "amnesia", str(tmp_path / "x.pdf"), "--preset", "nope")
    table = make_table("amnesia")
    with pytest.raises(CommandError, match="plays amnesia"):
        call_command("components", "contest", str(tmp_path / "x.pdf"), "--table", str(table.pk))
    with pytest.raises(CommandError, match="No custom deck"):
        call_command("components", "amnesia_stories", str(tmp_path / "x.pdf"), "--deck", "999")


# The view prints the sheets the command printed for stories_ja (and make test's PostgreSQL
# run, the SQLite run's): WeasyPrint prints them once between them (weasyprint_once).
@pytest.mark.usefixtures("weasyprint_once")
@pytest.mark.django_db
def test_the_view_serves_anyone_a_pdf(gm_client, monkeypatch, settings, tmp_path):
    settings.STORY_CACHE_DIR = str(tmp_path)  # an empty cache: the first request prints
    printing = []
    real = components.html_to_pdf
    monkeypatch.setattr(
        components, "html_to_pdf", lambda *a, **k: printing.append(1) or real(*a, **k)
    )
    asked = "/rules/amnesia_stories/components.pdf?size=letter&language=ja"
    response = Client().get(asked)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    # The second request comes from the cache, not the printer: the same bytes.
    again = Client().get(asked)
    assert again.content == response.content and len(printing) == 1
    assert Client().get("/rules/amnesia/components.pdf?size=a3").status_code == 404
    assert Client().get("/rules/chess/components.pdf").status_code == 404
    page = gm_client.get("/rules/contest/")
    assert b"/rules/contest/components.pdf?size=a4" in page.content
