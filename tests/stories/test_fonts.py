"""The bundled Japanese cut: every JIS X 0208 kanji (levels 1 and 2), the Jōyō and Jinmeiyō
lists, the Japanese catalogue's text; the same cut as WOFF2 for the pages; a character
outside it reported by the missing-glyph check, never silently boxed; and the emoji cut the
PDF draws a player's emoji with."""

from __future__ import annotations

import logging
import re
from io import BytesIO
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from amnesia_site.catalogues import catalogue_path
from games import registry
from games.models import Table
from stories import fonts, services
from stories import pdf as story_pdf
from stories.fonts import JAPANESE_WEB_FONT, jis_x_0208, kanji_list, missing_glyphs
from stories.models import story_for
from tests.pdfs import all_text, page_texts

from .conftest import make_story, short_script, squeeze

JAPANESE_OTF = next(f for f in fonts.FONTS if f.family == fonts.JAPANESE_FAMILY).path


def cmap(path: Path) -> set[int]:
    return set(TTFont(path, lazy=True).getBestCmap())


def chars(points: set[int]) -> str:
    return "".join(sorted(map(chr, points)))


def test_the_kanji_lists_are_the_official_sizes() -> None:
    joyo, jinmeiyo = kanji_list("joyo"), kanji_list("jinmeiyo")
    assert len(joyo) == 2136  # the 2010 list
    assert len(jinmeiyo) == 863  # the 2017 list, the variants of Jōyō kanji included
    assert not joyo & jinmeiyo
    # Four of the 2010 additions are not in JIS X 0208: the lists are not JIS in disguise.
    assert {ord("𠮟"), ord("剝")} <= joyo - jis_x_0208(range(16, 85))
    assert {ord(c) for c in "亜愛曖悪握"} <= joyo


def test_jis_x_0208_has_its_two_levels() -> None:
    assert len(jis_x_0208(range(16, 48))) == 2965
    assert len(jis_x_0208(range(48, 85))) == 3390


def test_the_cut_holds_every_jis_kanji_and_the_joyo_and_jinmeiyo_lists() -> None:
    held = cmap(JAPANESE_OTF)
    for name, wanted in (
        # Noto Serif CJK JP itself has no ≒ (U+2252): the check reports it on any page.
        ("JIS X 0208 symbols and kana", jis_x_0208(range(1, 9)) - {ord("≒")}),
        ("JIS level 1", jis_x_0208(range(16, 48))),
        ("JIS level 2", jis_x_0208(range(48, 85))),
        ("Jōyō", kanji_list("joyo")),
        ("Jinmeiyō", kanji_list("jinmeiyo")),
    ):
        assert wanted <= held, f"{name}: missing {chars(wanted - held)[:40]}"
    # Every kanji the cut is made from (the games' printed texts too) is there.
    kanji = {p for p in fonts.japanese_code_points() if 0x3400 <= p <= 0x9FFF or p >= 0x20000}
    assert kanji - held == set()
    assert missing_glyphs("≒") == {"≒"}


def test_the_pages_get_the_same_cut_as_woff2() -> None:
    assert JAPANESE_WEB_FONT.read_bytes()[:4] == b"wOF2"
    assert cmap(JAPANESE_WEB_FONT) == cmap(JAPANESE_OTF)
    # As small as it goes: a cut, compressed (the whole Noto Serif CJK JP is ~25 MB).
    assert JAPANESE_WEB_FONT.stat().st_size < 2_000_000
    assert JAPANESE_OTF.stat().st_size < 3_000_000


def test_every_page_and_the_book_declare_the_bundled_cut() -> None:
    static = Path(settings.BASE_DIR) / "static" / "css"
    for sheet in ("app.css", "story.css"):
        css = (static / sheet).read_text()
        face = re.search(r'@font-face \{\s*font-family: "Amnesia Serif JP";(.*?)\}', css, re.S)
        assert face, sheet
        assert "AmnesiaSerifJP-Regular.woff2" in face.group(1)
        assert "U+4E00-9FFF" in face.group(1)  # the kanji, and only a range: no download in vain
    # The site's own font list falls to the bundled cut before the browser's fallback.
    font_list = re.search(r"--font:(.*?);", (static / "app.css").read_text(), re.S).group(1)
    assert font_list.index('"Amnesia Serif JP"') < font_list.index("sans-serif")


def test_the_japanese_catalogue_is_drawn_by_the_bundled_fonts() -> None:
    """Whatever the translators wrote: a character outside the cut is named here (rebuild the
    cut with ``manage.py story fonts``, which adds the catalogue's characters)."""
    catalogue = polib.pofile(str(catalogue_path("ja")))
    text = "".join(t for e in catalogue for t in (e.msgstr, *e.msgstr_plural.values()) if t)
    assert missing_glyphs(text) == set()


def test_a_character_outside_the_bundled_fonts_is_reported() -> None:
    # U+2A6B2: an extension-B kanji in no list; U+1F000: a mahjong tile that is no emoji (the
    # emoji cut draws the one that is, 🀄).
    assert missing_glyphs("麒麟𪚲🀀🀄 a") == {"𪚲", "🀀"}
    assert missing_glyphs("𠮟る 頰 剝がす") == set()  # Jōyō kanji outside JIS X 0208


# The ranges the pages' @font-face gives the Japanese cut (static/css/app.css).
CJK = re.compile(
    r"[\u3000-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ja", "pt-br"])
def test_every_japanese_character_the_pages_show_is_in_the_bundled_cut(
    language, gm, gm_client, make_table
) -> None:
    """The pages as a person in that language sees them (the table's language Japanese too):
    no character of theirs falls to whatever fonts the browser's machine has."""
    gm_client.post(reverse("set_language"), {"language": language, "next": "/"})
    urls = [reverse("games:home"), reverse("games:table_new")]
    for kit in registry.kits():
        urls.append(reverse("games:rules", args=[kit.slug]))
    table = make_table("amnesia_stories", ("アナ", "ブルーノ", "カイオ"))
    Table.objects.filter(pk=table.pk).update(language=language)
    urls += [table.get_absolute_url(), reverse("amnesia_stories:projector", args=[table.pk])]
    urls.append(story_for(table, language).get_absolute_url())
    shown = ""
    for url in urls:
        response = gm_client.get(url)
        assert response.status_code == 200, url
        shown += response.content.decode()
    assert "アナ" in shown
    assert missing_glyphs("".join(CJK.findall(shown))) == set()


def test_no_glyph_of_the_japanese_cut_has_overlapping_contours():
    """Japanese headings are bold, and the cut has no bold: the browser and the PDF make it by
    stroking each contour, which draws the inside of overlapping strokes hollow (に, た, ご in
    Noto as shipped). Every glyph of the books' cut is one outline, its overlaps merged."""
    assert fonts.overlapping_glyphs(JAPANESE_OTF) == []


def test_the_pages_cut_draws_the_books_outlines_or_is_checked_itself():
    """The pages' WOFF2 is the books' cut in another wrapping: its outlines (the CFF table) and
    its character map are the same bytes, so the check above holds for it too. A WOFF2 made
    otherwise is checked glyph by glyph (the check takes a CPU half-minute a font)."""
    books, pages = TTFont(JAPANESE_OTF, lazy=True), TTFont(JAPANESE_WEB_FONT, lazy=True)
    same = all(books.reader[tag] == pages.reader[tag] for tag in ("CFF ", "cmap"))
    assert same or fonts.overlapping_glyphs(JAPANESE_WEB_FONT) == []


def test_the_overlap_check_finds_overlapping_strokes(tmp_path):
    """The check above can fail: two overlapping squares drawn as one glyph are found."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    def squares(*origins):
        pen = T2CharStringPen(600, None)
        for x, y in origins:
            pen.moveTo((x, y))
            pen.lineTo((x, y + 300))
            pen.lineTo((x + 300, y + 300))
            pen.lineTo((x + 300, y))
            pen.closePath()
        return pen.getCharString()

    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "a", "b"])
    builder.setupCharacterMap({ord("a"): "a", ord("b"): "b"})
    strings = {".notdef": squares(), "a": squares((0, 0), (150, 150)), "b": squares((0, 0))}
    builder.setupCFF("Test", {"FullName": "Test"}, strings, {})
    builder.setupHorizontalMetrics({name: (600, 0) for name in strings})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Test", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    path = tmp_path / "test.otf"
    builder.save(path)
    assert fonts.overlapping_glyphs(path) == ["a"]


# What players type on their phones: faces, a die, a heart and a sun with the emoji variation
# selector (U+FE0F), a family and a wizard joined by ZWJ (U+200D), a thumb with a skin tone,
# a flag, a star (U+2B50, outside the emoji blocks) and two emoji newer than Unicode 10.
EMOJI_NARRATION = "She rolls 🎲 and laughs 😀 ❤️ 🔥 👻 🌙 ✨ ☀️ 👨‍👩‍👧 🧙‍♂️ 👍🏽 🇧🇷 ⭐ 🥰 🫠."


def test_the_emoji_players_type_are_in_the_bundled_fonts():
    assert missing_glyphs(EMOJI_NARRATION) == set()
    assert missing_glyphs(EMOJI_NARRATION, family=fonts.LATIN_FAMILY) == set()
    emoji = next(f for f in fonts.FONTS if f.family == fonts.EMOJI_FAMILY)
    assert emoji.path.stat().st_size < 3_500_000  # a cut: the whole Noto Color Emoji is 11 MB
    # Its space (Pango sets the one between two emoji of text style, ♂ ♀, in the emoji font)
    # is a word space, not Noto's, as wide as an emoji.
    cut, latin = TTFont(emoji.path), TTFont(fonts.FONTS[0].path)
    widths = [f["hmtx"][f.getBestCmap()[0x20]][0] / f["head"].unitsPerEm for f in (cut, latin)]
    assert widths[0] == pytest.approx(widths[1], abs=0.01)
    css = (Path(settings.BASE_DIR) / "static" / "css" / "story.css").read_text()
    face = re.search(r'@font-face \{\s*font-family: "Amnesia Emoji";(.*?)\}', css, re.S)
    assert face and emoji.file in face.group(1)
    # Its range is the cut's characters and the emoji variation selector, exactly: WeasyPrint
    # takes a face to have every character of its range, so a ★ (in the emoji block, not an
    # emoji) would print as nothing. Rebuilt, the cut's range is the one to paste here.
    declared = set()
    for start, end in re.findall(r"U\+([0-9A-F]+)(?:-([0-9A-F]+))?", face.group(1)):
        declared |= set(range(int(start, 16), int(end or start, 16) + 1))
    held = cmap(emoji.path) - {0x20} | {0xFE0F}  # its space is for the runs of emoji alone
    assert declared == held, fonts.unicode_range(held)
    # On paper, after the text fonts: a ♥ or a ☝ the text fonts draw stays theirs.
    stack = re.search(r"@media print \{.*?--book-font:([^;]*);", css, re.S).group(1)
    assert (
        stack.index('"Amnesia Serif JP"') < stack.index('"Amnesia Emoji"') < stack.rindex("serif")
    )


@pytest.mark.django_db
def test_a_narration_with_emoji_prints_them_with_the_bundled_cut(gm, caplog):
    """The book of a story whose narration has emoji: WeasyPrint draws each with the bundled
    emoji cut (its colour pictures), fetched from our static files, and no character falls to
    a .notdef box (WeasyPrint warns of each); the PDF's text keeps the emoji."""
    story = make_story(gm, "en", script=short_script(EMOJI_NARRATION))
    fetchers = []
    real = story_pdf._fetcher

    def recording(extra):
        fetchers.append(real(extra))
        return fetchers[-1]

    with pytest.MonkeyPatch.context() as patch, caplog.at_level(logging.WARNING, "weasyprint"):
        patch.setattr(story_pdf, "_fetcher", recording)
        data = story_pdf.render_book_pdf(services.make_book(story))
    assert not [r.getMessage() for r in caplog.records if ".notdef" in r.getMessage()]
    served = [url for fetcher in fetchers for url in fetcher.served]
    assert any(url.endswith("/fonts/AmnesiaEmoji-Regular.ttf") for url in served)
    assert not [url for fetcher in fetchers for url in fetcher.refused]

    reader = PdfReader(BytesIO(data))
    page = reader.pages[next(i for i, text in enumerate(page_texts(data)) if "🎲" in text)]
    fonts_used = page["/Resources"]["/Font"]
    names = {str(fonts_used[key].get_object()["/BaseFont"]).split("+", 1)[-1] for key in fonts_used}
    assert "Amnesia-Emoji" in names
    assert all(name.startswith(("Amnesia-Serif", "Amnesia-Emoji")) for name in names), names
    assert len(page.images) >= 10  # the emoji's colour pictures
    assert squeeze(EMOJI_NARRATION.replace("\ufe0f", "")) in squeeze(
        all_text(data).replace("\ufe0f", "")
    )
