"""The book's bundled fonts, and the developer tool that made them.

The PDF must not depend on the fonts of the machine that renders it, so the story stylesheet
loads its families from ``static/fonts`` (see ``static/fonts/README.md``):

- **Amnesia Serif**: EB Garamond 12 (regular and italic), for Latin text;
- **Amnesia Serif JP**: Noto Serif CJK JP cut down to kana, JIS X 0208 symbols, the JIS level 1
  and level 2 kanji, the Jōyō and Jinmeiyō kanji (``stories/kanji``, from KANJIDIC2), Latin and
  the punctuation and card suits the book prints, every character of the texts the registered
  games print in their books (their kits' ``printed_texts``) and of the Japanese catalogue.
  The same cut serves the pages, as WOFF2 (``static/css/app.css``), and the PDF, as OTF;
- **Amnesia Symbols**: the card suits, the arrows and the check mark, for pages in any language;
- **Amnesia Emoji**: Noto Color Emoji cut to the emoji, its colour bitmaps made smaller, for
  the PDF alone (the emoji players type on their phones).

``build_fonts`` rebuilds them from Debian's ``fonts-ebgaramond``, ``fonts-noto-cjk`` and
``fonts-noto-color-emoji``, and the kanji lists from Debian's ``kanjidic-xml`` when it is
installed (``python manage.py story fonts``). It runs on a developer's machine, never during
set-up: the checked-in files are what the site uses. The families are renamed so that a PDF's font list
shows whether the bundled fonts (and not a system font of the same name) were used.
"""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

import polib
from django.conf import settings
from PIL import Image

from amnesia_site.catalogues import catalogue_path
from games import registry

# fontTools is imported by the functions that read or cut a font (the font tool, the tests):
# the site starts without it (its subsetter alone is about half a second of CPU to import).
if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

FONT_DIR = Path(settings.BASE_DIR) / "static" / "fonts"

LATIN_FAMILY = "Amnesia Serif"
JAPANESE_FAMILY = "Amnesia Serif JP"
SYMBOLS_FAMILY = "Amnesia Symbols"
EMOJI_FAMILY = "Amnesia Emoji"


@dataclass(frozen=True)
class BundledFont:
    file: str
    family: str
    style: str  # "Regular" or "Italic"
    postscript: str

    @property
    def path(self) -> Path:
        return FONT_DIR / self.file


FONTS = (
    BundledFont("AmnesiaSerif-Regular.otf", LATIN_FAMILY, "Regular", "AmnesiaSerif-Regular"),
    BundledFont("AmnesiaSerif-Italic.otf", LATIN_FAMILY, "Italic", "AmnesiaSerif-Italic"),
    BundledFont("AmnesiaSerifJP-Regular.otf", JAPANESE_FAMILY, "Regular", "AmnesiaSerifJP-Regular"),
    # The card suits and the check mark alone, so an English page need not fetch the
    # Japanese font to print a 7♥.
    BundledFont("AmnesiaSymbols-Regular.otf", SYMBOLS_FAMILY, "Regular", "AmnesiaSymbols-Regular"),
    # Noto Color Emoji cut to the emoji, its colour bitmaps halved: for the PDF only (the
    # print rules of story.css), after the text fonts.
    BundledFont("AmnesiaEmoji-Regular.ttf", EMOJI_FAMILY, "Regular", "AmnesiaEmoji-Regular"),
)
POSTSCRIPT_NAMES = frozenset(f.postscript for f in FONTS)
# The Japanese cut again, compressed for browsers (the pages); the PDF embeds the OTF.
JAPANESE_WEB_FONT = FONT_DIR / "AmnesiaSerifJP-Regular.woff2"

# The lists of the Jōyō (2,136) and Jinmeiyō (863) kanji, one character a line, derived from
# KANJIDIC2's grades (Debian's kanjidic-xml; see the files' headers) by write_kanji_lists.
KANJI_DIR = Path(__file__).resolve().parent / "kanji"
DEBIAN_KANJIDIC2 = Path("/usr/share/edict/kanjidic2.xml.gz")
# KANJIDIC2's <grade>: 1-6 the Kyōiku kanji and 8 the rest of the Jōyō; 9 the Jinmeiyō and
# 10 the Jinmeiyō variants of Jōyō kanji.
KANJI_GRADES = {"joyo": {"1", "2", "3", "4", "5", "6", "8"}, "jinmeiyo": {"9", "10"}}

DEBIAN_GARAMOND = Path("/usr/share/fonts/opentype/ebgaramond")
DEBIAN_NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc")
DEBIAN_NOTO_EMOJI = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")


def _ranges(*pairs: tuple[int, int]) -> set[int]:
    return {c for start, end in pairs for c in range(start, end + 1)}


# What the Japanese cut keeps besides JIS X 0208: Latin, punctuation, arrows, the four card
# suits (in both colours) and the check mark of a won guess.
JAPANESE_EXTRA = _ranges(
    (0x20, 0x7E),
    (0xA0, 0x17F),
    (0x2000, 0x206F),
    (0x2190, 0x2193),
    (0x2660, 0x2667),
    (0x2713, 0x2713),
    (0x3000, 0x30FF),
    (0x31F0, 0x31FF),
    (0xFF00, 0xFFEF),
)


SYMBOLS = _ranges((0x20, 0x20), (0x2190, 0x2193), (0x2660, 0x2667), (0x2713, 0x2713))

# What the emoji cut keeps of Noto Color Emoji: the emoji blocks, the older symbols that are
# emoji too (⭐ ⌛ ☀ ✨ ⬆...), the joiner and the keycap (a 👨‍👩‍👧 is one of the font's
# ligatures; its variation sequences, ❤️, are in its cmap's format 14) and the tags of the
# subdivision flags. Not the digits, #, *, © or ®, which Noto maps too: the text fonts draw
# those. story.css's unicode-range for the cut is its characters exactly (``unicode_range``).
EMOJI = _ranges(
    (0x200D, 0x200D),
    (0x203C, 0x203C),
    (0x2049, 0x2049),
    (0x20E3, 0x20E3),
    (0x2122, 0x2122),
    (0x2139, 0x2139),
    (0x2194, 0x21FF),
    (0x2300, 0x23FF),
    (0x24C2, 0x24C2),
    (0x25A0, 0x25FF),
    (0x2600, 0x27BF),
    (0x2900, 0x297F),
    (0x2B00, 0x2BFF),
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x3297, 0x3299),
    (0xFE0F, 0xFE0F),
    (0x1F000, 0x1FAFF),
    (0xE0020, 0xE007F),
)
# The colour bitmaps in the cut: Noto draws each emoji 136 by 128 pixels (109 pixels an em),
# 10 MB of PNGs for the emoji alone. Scaled to 49 by 46 pixels, an emoji at 11 pt still has
# 300 pixels an inch on paper; and 40 colours an emoji (from thousands, most of them the
# anti-aliased edges) look the same at that size. The cut is a third of the size (3.3 MB).
EMOJI_SCALE = 0.36
EMOJI_COLOURS = 40


# The Japanese cut's OpenType features: composition, kerning and proportional punctuation, and
# vertical forms. Not the alternates (jp78, jp83, nlck, fwid, hwid, aalt...) nor the other
# languages' local forms: they doubled the glyphs for characters no page asks for.
JAPANESE_FEATURES = ["ccmp", "liga", "kern", "palt", "halt", "vert", "vrt2", "vkrn", "vpal"]


def jis_x_0208(rows: range) -> set[int]:
    """The code points of JIS X 0208 rows (1-8 symbols and kana, 16-47 level 1 kanji)."""
    out = set()
    for row in rows:
        for cell in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes([row + 0xA0, cell]).decode("euc_jp")))
            except UnicodeDecodeError:
                continue
    return out


def kanji_list(name: str) -> set[int]:
    """The code points of a committed kanji list (``joyo`` or ``jinmeiyo``)."""
    text = (KANJI_DIR / f"{name}.txt").read_text(encoding="utf-8")
    return {ord(line) for line in text.splitlines() if line and not line.startswith("#")}


def write_kanji_lists(source: Path = DEBIAN_KANJIDIC2, out: Path = KANJI_DIR) -> list[Path]:
    """Derive the Jōyō and Jinmeiyō lists from KANJIDIC2 (a developer's tool, as the fonts)."""
    found: dict[str, list[str]] = {name: [] for name in KANJI_GRADES}
    version = ""
    with gzip.open(source) as f:
        for _event, element in ET.iterparse(f):
            if element.tag == "database_version":
                version = element.text or ""
            elif element.tag == "character":
                grade = element.findtext("misc/grade")
                for name, grades in KANJI_GRADES.items():
                    if grade in grades:
                        found[name].append(element.findtext("literal") or "")
                element.clear()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, characters in found.items():
        path = out / f"{name}.txt"
        header = (
            f"# The {name} kanji ({len(characters)}), one a line: KANJIDIC2 {version}, grades "
            f"{', '.join(sorted(KANJI_GRADES[name], key=int))} (Debian kanjidic-xml). "
            "KANJIDIC2 (c) the Electronic Dictionary Research and Development Group, CC BY-SA "
            "3.0. Rebuilt by `manage.py story fonts`.\n"
        )
        path.write_text(header + "".join(f"{c}\n" for c in characters), encoding="utf-8")
        written.append(path)
    return written


def catalogue_characters(locale: str = "ja") -> set[int]:
    """Every character the site's translations into ``locale`` print."""
    path = catalogue_path(locale)
    if not path.is_file():
        return set()
    points: set[int] = set()
    for entry in polib.pofile(str(path)):
        for text in (entry.msgstr, *entry.msgstr_plural.values()):
            points |= {ord(ch) for ch in text}
    return points


def japanese_code_points() -> set[int]:
    # JIS X 0208: rows 1-8 symbols and kana, 16-47 the level 1 kanji, 48-84 the level 2.
    points = JAPANESE_EXTRA | jis_x_0208(range(1, 9)) | jis_x_0208(range(16, 85))
    points |= kanji_list("joyo") | kanji_list("jinmeiyo")
    # What the translators wrote (the pages' and the book's headings).
    points |= catalogue_characters("ja")
    # The games' own printed texts (Amnesia Stories' adventure texts...) are in Japanese
    # stories too.
    for kit in registry.kits():
        if kit.printed_texts is not None:
            for text in kit.printed_texts():
                points |= {ord(ch) for ch in text}
    return points


def _rename(font, bundled: BundledFont, source: str) -> None:
    """Give the cut its own names (OFL: a modified font may not pass for the original)."""
    name = font["name"]
    full = f"{bundled.family} {bundled.style}".replace(" Regular", "")
    for record in list(name.names):
        if record.nameID in (1, 4, 16, 17, 6, 3, 21, 22):
            name.removeNames(nameID=record.nameID)
    name.setName(bundled.family, 1, 3, 1, 0x409)
    name.setName(bundled.style, 2, 3, 1, 0x409)
    name.setName(f"{bundled.postscript};{source}", 3, 3, 1, 0x409)
    name.setName(full, 4, 3, 1, 0x409)
    name.setName(bundled.postscript, 6, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [bundled.postscript]
        top = cff.topDictIndex[0]
        top.FullName = full
        top.FamilyName = bundled.family


def build_fonts(
    garamond_dir: Path = DEBIAN_GARAMOND,
    noto_cjk: Path = DEBIAN_NOTO_CJK,
    out: Path = FONT_DIR,
    noto_emoji: Path = DEBIAN_NOTO_EMOJI,
) -> list[Path]:
    """Cut and rename the bundled fonts from Debian's packages; returns the files written."""
    from fontTools import subset  # the font tool's: the site starts without fontTools (above)
    from fontTools.ttLib import TTCollection, TTFont  # the same

    def options(features: list[str] | None = None) -> subset.Options:
        opts = subset.Options()
        opts.layout_features = features or ["*"]
        opts.name_IDs = ["*"]
        opts.name_languages = ["*"]
        opts.notdef_outline = True
        opts.glyph_names = False
        opts.hinting = False
        return opts

    written = []
    out.mkdir(parents=True, exist_ok=True)
    latin = _ranges((0x20, 0x7E), (0xA0, 0x24F), (0x2000, 0x206F), (0x2100, 0x2199))
    latin |= _ranges((0x2600, 0x2767), (0xFB00, 0xFB06), (0x300, 0x36F))
    for bundled, source in (
        (FONTS[0], garamond_dir / "EBGaramond12-Regular.otf"),
        (FONTS[1], garamond_dir / "EBGaramond12-Italic.otf"),
    ):
        font = TTFont(source)
        subsetter = subset.Subsetter(options())
        subsetter.populate(unicodes=sorted(latin))
        subsetter.subset(font)
        _rename(font, bundled, source.name)
        font.save(bundled.path if out == FONT_DIR else out / bundled.file)
        written.append(out / bundled.file)

    for bundled, points in ((FONTS[2], japanese_code_points()), (FONTS[3], SYMBOLS)):
        collection = TTCollection(noto_cjk)
        font = next(f for f in collection.fonts if f["name"].getDebugName(1) == "Noto Serif CJK JP")
        subsetter = subset.Subsetter(options(JAPANESE_FEATURES))
        subsetter.populate(unicodes=sorted(points))
        subsetter.subset(font)
        merge_overlaps(font)
        _rename(font, bundled, noto_cjk.name)
        font.save(out / bundled.file)
        written.append(out / bundled.file)
        if bundled is FONTS[2]:
            # The same cut for the pages, as WOFF2 (fontTools compresses it with brotli).
            font.flavor = "woff2"
            web = out / JAPANESE_WEB_FONT.name
            font.save(web)
            written.append(web)
    written.append(build_emoji_font(noto_emoji, out / FONTS[4].file))
    return written


def unicode_range(points: set[int]) -> str:
    """A CSS ``unicode-range`` of exactly ``points`` (story.css's for the emoji cut)."""
    runs: list[list[int]] = []
    for point in sorted(points):
        if runs and point == runs[-1][1] + 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


def build_emoji_font(source: Path = DEBIAN_NOTO_EMOJI, out: Path = FONTS[4].path) -> Path:
    """Noto Color Emoji cut to ``EMOJI`` (its ZWJ sequences, skin tones and flags kept: they
    are its ligatures) with its PNG bitmaps scaled by ``EMOJI_SCALE``. WeasyPrint draws each
    emoji as the glyph's PNG, sized by the glyph's advance, and keeps the character in the
    PDF's text; the bitmaps' metrics are scaled with them, so any other reader agrees."""
    from fontTools import subset  # the font tool's: the site starts without fontTools (above)
    from fontTools.ttLib import TTFont  # the same

    NONE = Image.Dither.NONE
    font = TTFont(source)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(EMOJI & set(font.getBestCmap()) | {0x20}))
    subsetter.subset(font)
    # The space, at the text's width: Pango shapes a space between two emoji of text style
    # (♂ ♀, ☀ ☎) with the emoji font, and Noto's space is as wide as an emoji (1.25 em), which
    # left a gap of two spaces' worth. The Latin cut's space instead; story.css does not
    # give the cut the space, so every other space is the text font's own.
    latin = TTFont(FONTS[0].path, lazy=True)
    width = latin["hmtx"][latin.getBestCmap()[0x20]][0] / latin["head"].unitsPerEm
    space = font.getBestCmap()[0x20]
    font["hmtx"][space] = (round(width * font["head"].unitsPerEm), 0)

    def scaled(value: int) -> int:
        return round(value * EMOJI_SCALE)

    for strike in font["CBLC"].strikes:
        size = strike.bitmapSizeTable
        size.ppemX, size.ppemY = scaled(size.ppemX), scaled(size.ppemY)
        for line in (size.hori, size.vert):
            for attr in ("ascender", "descender", "widthMax", "maxBeforeBL", "minAfterBL"):
                setattr(line, attr, scaled(getattr(line, attr)))
            for attr in ("minOriginSB", "minAdvanceSB"):
                setattr(line, attr, scaled(getattr(line, attr)))
    for strike in font["CBDT"].strikeData:
        for glyph in strike.values():
            glyph.ensureDecompiled()
            image = Image.open(BytesIO(glyph.imageData)).convert("RGBA")
            width, height = max(1, scaled(image.width)), max(1, scaled(image.height))
            # Scaled in RGBA (Pillow premultiplies the alpha), then back to a palette.
            small = image.resize((width, height), Image.Resampling.LANCZOS)
            data = BytesIO()
            palette = small.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE, dither=NONE)
            palette.save(data, "PNG", optimize=True)
            glyph.imageData = data.getvalue()
            metrics = glyph.metrics
            metrics.width, metrics.height = width, height
            for attr in ("BearingX", "BearingY", "Advance"):
                setattr(metrics, attr, scaled(getattr(metrics, attr)))
    _rename(font, FONTS[4], source.name)
    font.save(out)
    return out


def merge_overlaps(font: TTFont) -> None:
    """Merge each glyph's overlapping contours into one outline.

    Noto draws a few kana (こ, た, に...) from strokes that overlap. Filled, they look right;
    but a browser that makes the bold of a face with no bold weight (every Japanese heading)
    strokes each contour's outline, and the overlaps come out hollow. Needs skia-pathops (a
    development dependency)."""
    # skia-pathops is a development dependency: the site itself never merges outlines
    from fontTools.ttLib.removeOverlaps import removeOverlaps

    removeOverlaps(font)


def overlapping_glyphs(path: Path) -> list[str]:
    """The characters of the font at ``path`` whose contours overlap: the area each contour
    fills, summed with its sign, is larger than the area of their union."""
    import pathops  # a development dependency (the tests and the font tool only)
    from fontTools.ttLib import TTFont  # the font check's: the site starts without fontTools

    font = TTFont(path)
    glyphs = font.getGlyphSet()
    found = []
    for point, name in sorted(font.getBestCmap().items()):
        outline = pathops.Path()
        # Running a glyph's charstring is most of the check's time: it is drawn once, into
        # pathops, whose ``area`` is the contours' areas summed with their signs (fontTools'
        # AreaPen's formula, made absolute) and ``clockwise`` that sum's sign. The same figures
        # as an AreaPen beside it, to the last bit, on every glyph of the Japanese cut.
        glyphs[name].draw(outline.getPen(glyphSet=glyphs))
        union = pathops.simplify(outline, clockwise=outline.clockwise)
        if abs(outline.area - union.area) > 1.0:  # in font units (1,000 an em)
            found.append(chr(point))
    return found


# A variation selector (an emoji's U+FE0F) is never drawn: the font picks the form by its own
# table of sequences (Noto's cmap format 14), and HarfBuzz hides one a font does not map.
VARIATION_SELECTORS = _ranges((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def missing_glyphs(text: str, family: str = JAPANESE_FAMILY) -> set[str]:
    """The characters of ``text`` that no bundled font of ``family`` (nor the Latin, symbols or
    emoji one) draws."""
    from fontTools.ttLib import TTFont  # read when asked: the site starts without fontTools

    covered: set[int] = set()
    for bundled in FONTS:
        if bundled.family in (family, LATIN_FAMILY, SYMBOLS_FAMILY, EMOJI_FAMILY):
            covered |= set(TTFont(bundled.path, lazy=True).getBestCmap())
    covered |= VARIATION_SELECTORS
    return {ch for ch in text if not ch.isspace() and ord(ch) not in covered}
