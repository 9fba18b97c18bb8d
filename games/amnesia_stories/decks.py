"""Custom decks of area cards for Amnesia Stories: a ZIP of images plus a CSV of ids and texts.

An upload is untrusted input, read in two steps:

1. **Check what is cheap** (:class:`Upload`, in the request). The archive's members are
   listed (no path traversal, a bounded number of members and of uncompressed bytes, every
   read capped whatever the header claims), the CSV is parsed, and every picture the CSV names
   has its header read, nothing decoded: allow-listed formats only, the pixel cap
   (DECK_MAX_PIXELS), decompression bombs (Pillow's warning included) refused.
2. **Clean each picture** (:func:`clean_image`): ``verify()`` and then a full ``load()`` of a
   fresh copy (a truncated file fails there), re-encoded from its bare pixels, so EXIF (GPS
   included), ICC and any other metadata are gone, and cropped to the card's 3:2 landscape at
   two sizes. The upload page leaves this to the ``pictures`` worker (``deck_queue``), about
   half a second of CPU for a 40-megapixel picture; :func:`import_deck` (a bundle's deck, the
   tests) does it here, then writes the deck and its cards in one transaction, and if anything
   fails on the way, the files already written are deleted and nothing remains.

Every refusal is a :class:`DeckError` whose message names the file at fault.
"""

from __future__ import annotations

import csv
import io
import posixpath
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from PIL import Image, ImageOps

from games import images
from games.amnesia_stories.models import CustomCard, CustomDeck
from games.amnesia_stories.rules import GAME, cards_needed

# -- limits ----------------------------------------------------------------------------------
MAX_ARCHIVE_BYTES = 60 * 1024 * 1024
MAX_MEMBERS = 400
MAX_TOTAL_BYTES = 300 * 1024 * 1024  # uncompressed, over the whole archive
MAX_IMAGE_BYTES = 12 * 1024 * 1024  # one image file
MAX_CSV_BYTES = 1024 * 1024
MAX_CARDS = 300
MAX_ID = 40
MAX_TEXT = 600
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp")
LARGE = (960, 640)
THUMB = (240, 160)
CARD_BACKGROUND = (30, 26, 22)  # under a transparent picture's see-through parts
# The smallest deck any game plays (3 choices: the first selection and journey); the
# discard refills the deck after that.
MIN_CARDS = cards_needed({"choices": GAME.options["choices"].min})


def max_pixels() -> int:
    """The most pixels (width × height) one picture may have (DECK_MAX_PIXELS)."""
    return int(getattr(settings, "DECK_MAX_PIXELS", 40_000_000))


class DeckError(Exception):
    """A refused upload; ``message`` says why, naming the file at fault when there is one."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass
class CardData:
    card_id: str
    text: str
    source: str  # the archive member the picture came from
    large: bytes
    thumb: bytes


# -- the archive -----------------------------------------------------------------------------
def _ignored(name: str) -> bool:
    parts = name.split("/")
    return (
        name.endswith("/")
        or parts[0] == "__MACOSX"
        or any(part.startswith(".") for part in parts if part)
    )


def _safe_name(name: str) -> bool:
    if not name or "\\" in name or "\x00" in name or name.startswith("/"):
        return False
    if len(name) > 1 and name[1] == ":":  # a Windows drive letter
        return False
    return ".." not in name.split("/")


def _members(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise DeckError(
            _("The archive holds %(n)s entries; the limit is %(max)s.")
            % {"n": len(infos), "max": MAX_MEMBERS}
        )
    total = 0
    files = []
    for info in infos:
        if not _safe_name(info.filename):
            raise DeckError(
                _("“%(name)s”: file names in the archive may not leave its folder.")
                % {"name": info.filename}
            )
        if _ignored(info.filename):
            continue
        if info.flag_bits & 0x1:
            raise DeckError(
                _("“%(name)s” is encrypted; upload an archive without a password.")
                % {"name": info.filename}
            )
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise DeckError(
                _(
                    "The archive unpacks to more than %(mb)s MB; the limit is there to stop zip bombs."
                )
                % {"mb": MAX_TOTAL_BYTES // (1024 * 1024)}
            )
        files.append(info)
    return files


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """The member's bytes, never more than ``limit`` whatever its header says."""
    if info.file_size > limit:
        raise DeckError(
            _("“%(name)s” is larger than %(mb)s MB.")
            % {"name": info.filename, "mb": round(limit / (1024 * 1024), 1)}
        )
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as exc:
        raise DeckError(
            _("“%(name)s” cannot be read from the archive (%(error)s).")
            % {"name": info.filename, "error": exc}
        ) from exc
    if len(data) > limit:
        raise DeckError(
            _("“%(name)s” is larger than %(mb)s MB.")
            % {"name": info.filename, "mb": round(limit / (1024 * 1024), 1)}
        )
    return data


# -- the CSV ---------------------------------------------------------------------------------
def parse_csv(data: bytes, name: str) -> list[dict[str, str]]:
    """Rows of ``id,text`` (a header row is optional; a third ``image`` column may name the
    picture's file when it is not ``<id>.png`` or the like)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DeckError(_("“%(name)s” is not UTF-8 text.") % {"name": name}) from exc
    try:
        rows = [row for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)]
    except csv.Error as exc:
        raise DeckError(
            _("“%(name)s” is not a valid CSV file (%(error)s).") % {"name": name, "error": exc}
        ) from exc
    if rows and [c.strip().lower() for c in rows[0][:2]] == ["id", "text"]:
        rows = rows[1:]
    cards: list[dict[str, str]] = []
    seen: set[str] = set()
    for number, row in enumerate(rows, start=1):
        card_id = row[0].strip()
        where = {"name": name, "row": number, "id": card_id}
        if not card_id:
            raise DeckError(_("“%(name)s”, row %(row)s: the card id is empty.") % where)
        if len(card_id) > MAX_ID:
            raise DeckError(
                _("“%(name)s”, row %(row)s: the id “%(id)s” is longer than %(max)s characters.")
                % {**where, "max": MAX_ID}
            )
        if card_id in seen:
            raise DeckError(_("“%(name)s”, row %(row)s: the id “%(id)s” appears twice.") % where)
        seen.add(card_id)
        text = row[1].strip() if len(row) > 1 else ""
        if len(text) > MAX_TEXT:
            raise DeckError(
                _(
                    "“%(name)s”, row %(row)s: the text of “%(id)s” is longer than %(max)s characters."
                )
                % {**where, "max": MAX_TEXT}
            )
        image = row[2].strip() if len(row) > 2 else ""
        cards.append({"id": card_id, "text": text, "image": image})
    if not cards:
        raise DeckError(_("“%(name)s” lists no cards.") % {"name": name})
    if len(cards) > MAX_CARDS:
        raise DeckError(
            _("“%(name)s” lists %(n)s cards; a deck holds at most %(max)s.")
            % {"name": name, "n": len(cards), "max": MAX_CARDS}
        )
    if len(cards) < MIN_CARDS:
        raise DeckError(
            _(
                "“%(name)s” lists %(n)s cards; even the smallest game (3 choices) deals "
                "%(min)s at the start."
            )
            % {"name": name, "n": len(cards), "min": MIN_CARDS}
        )
    return cards


# -- the images ------------------------------------------------------------------------------
def clean_image(data: bytes, name: str) -> tuple[bytes, bytes]:
    """The picture re-encoded at the two card sizes, or DeckError naming ``name``."""
    fmt, _ext, save = images.web_format()
    try:
        image = images.decode(data, max_pixels=max_pixels())
    except images.ImageRefused as refused:
        raise DeckError(_refusal(refused, name)) from refused
    rgb = images.bare_rgb(image, CARD_BACKGROUND)
    large = ImageOps.fit(rgb, LARGE, Image.Resampling.LANCZOS)
    thumb = large.resize(THUMB, Image.Resampling.LANCZOS)
    return images.encode(large, fmt, **save), images.encode(thumb, fmt, **save)


def _refusal(refused: images.ImageRefused, name: str) -> str:
    return refusal_text(refused.reason, name, refused.size, refused.error)


def refusal_text(reason: str, name: str, size=None, error: object = "") -> str:
    """Why the picture ``name`` was refused (an ``ImageRefused``'s reason), in words."""
    if reason == "too_many_pixels" and size:
        width, height = size
        return _("“%(name)s” is %(w)s × %(h)s pixels; the limit is %(max)s pixels.") % {
            "name": name,
            "w": width,
            "h": height,
            "max": f"{max_pixels():,}",
        }
    if reason == "bomb":
        return _("“%(name)s” looks like a decompression bomb (%(error)s).") % {
            "name": name,
            "error": error,
        }
    if reason == "not_an_image":
        return _("“%(name)s” is not a JPEG, PNG or WebP image.") % {"name": name}
    if reason == "damaged":
        return _("“%(name)s” is damaged or truncated (%(error)s).") % {
            "name": name,
            "error": error,
        }
    return _("“%(name)s” could not be prepared (%(error)s).") % {"name": name, "error": error}


# -- the whole upload ------------------------------------------------------------------------
@dataclass
class RawCard:
    """A card as uploaded: its picture's bytes checked only as far as its header goes."""

    card_id: str
    text: str
    source: str
    data: bytes


class Upload:
    """An uploaded archive, checked as far as it can be without decoding a picture: opening
    it lists its members and reads its CSV (``rows``); :meth:`cards` reads each card's picture
    and checks its format and size from its header. Use it as a context manager."""

    def __init__(self, archive_file, csv_file=None) -> None:
        size = getattr(archive_file, "size", None)
        if size is not None and size > MAX_ARCHIVE_BYTES:
            raise DeckError(
                _("The archive is larger than %(mb)s MB.")
                % {"mb": MAX_ARCHIVE_BYTES // (1024 * 1024)}
            )
        try:
            self.archive = zipfile.ZipFile(archive_file)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
            name = getattr(archive_file, "name", "") or _("the upload")
            raise DeckError(_("“%(name)s” is not a ZIP archive.") % {"name": name}) from exc
        try:
            self._list(csv_file)
        except BaseException:
            self.archive.close()
            raise

    def __enter__(self) -> Upload:
        return self

    def __exit__(self, *exc: object) -> None:
        self.archive.close()

    def _list(self, csv_file) -> None:
        archive = self.archive
        files = _members(archive)
        if csv_file is not None:
            csv_name = getattr(csv_file, "name", "") or "cards.csv"
            csv_data = csv_file.read(MAX_CSV_BYTES + 1)
            if len(csv_data) > MAX_CSV_BYTES:
                raise DeckError(_("“%(name)s” is larger than 1 MB.") % {"name": csv_name})
        else:
            csvs = [i for i in files if i.filename.lower().endswith(".csv")]
            if not csvs:
                raise DeckError(
                    _(
                        "The archive has no CSV file of card ids and texts (id,text), and none was uploaded beside it."
                    )
                )
            if len(csvs) > 1:
                raise DeckError(
                    _("The archive holds several CSV files (%(names)s); keep only one.")
                    % {"names": ", ".join(i.filename for i in csvs)}
                )
            csv_name = csvs[0].filename
            csv_data = _read(archive, csvs[0], MAX_CSV_BYTES)
        self.csv_name = csv_name
        self.rows = parse_csv(csv_data, csv_name)
        self.by_name: dict[str, zipfile.ZipInfo] = {}
        self.by_stem: dict[str, list[zipfile.ZipInfo]] = {}
        for info in files:
            base = posixpath.basename(info.filename)
            self.by_name.setdefault(base, info)
            stem, ext = posixpath.splitext(base)
            if ext.lower() in IMAGE_EXTENSIONS:
                self.by_stem.setdefault(stem, []).append(info)
        # Every card has its picture before any is read.
        self.infos = [_image_for(r, self.by_name, self.by_stem, csv_name) for r in self.rows]

    def cards(self) -> Iterator[RawCard]:
        """Each card with its picture's bytes, one at a time (a refused header: DeckError)."""
        for row, info in zip(self.rows, self.infos, strict=True):
            data = _read(self.archive, info, MAX_IMAGE_BYTES)
            check_header(data, info.filename)
            yield RawCard(row["id"], row["text"], info.filename, data)


def check_header(data: bytes, name: str) -> None:
    """The picture's format and size as its header gives them, nothing decoded: DeckError
    naming ``name`` when it is not an allowed format or has too many pixels."""
    try:
        images.header_size(data, max_pixels=max_pixels())
    except images.ImageRefused as refused:
        raise DeckError(_refusal(refused, name)) from refused


def read_deck(archive_file, csv_file=None) -> list[CardData]:
    """Check an upload and prepare its cards in memory, in this process (a bundle's deck, the
    tests); DeckError on the first problem. The upload page leaves this to a worker
    (``deck_queue``)."""
    with Upload(archive_file, csv_file) as upload:
        cards = []
        for raw in upload.cards():
            large, thumb = clean_image(raw.data, raw.source)
            cards.append(CardData(raw.card_id, raw.text, raw.source, large, thumb))
    return cards


def _image_for(
    row: dict[str, str],
    by_name: dict[str, zipfile.ZipInfo],
    by_stem: dict[str, list[zipfile.ZipInfo]],
    csv_name: str,
) -> zipfile.ZipInfo:
    if row["image"]:
        info = by_name.get(posixpath.basename(row["image"]))
        if info is None:
            raise DeckError(
                _(
                    "“%(csv)s” names the image “%(image)s” for card “%(id)s”, but the archive has no such file."
                )
                % {"csv": csv_name, "image": row["image"], "id": row["id"]}
            )
        return info
    found = by_stem.get(row["id"], [])
    if not found:
        raise DeckError(
            _(
                "“%(csv)s” names card “%(id)s”, but the archive has no image %(id)s.png, .jpg or .webp."
            )
            % {"csv": csv_name, "id": row["id"]}
        )
    if len(found) > 1:
        raise DeckError(
            _("Card “%(id)s” has several images (%(names)s); keep only one.")
            % {"id": row["id"], "names": ", ".join(i.filename for i in found)}
        )
    return found[0]


def import_deck(owner, name: str, archive_file, csv_file=None) -> CustomDeck:
    """A new custom deck from an upload; DeckError (and nothing written) when it is refused."""
    cards = read_deck(archive_file, csv_file)
    with transaction.atomic():
        deck = CustomDeck.objects.create(owner=owner, name=name.strip()[:120] or _("My deck"))
        save_cards(deck, cards)
    return deck


def save_cards(deck: CustomDeck, cards: list[CardData]) -> list[Any]:
    """Write ``cards`` (pictures already made safe) into ``deck``; returns the files written.
    When a write fails, the files already written are taken away again (the rows go with the
    caller's transaction). A card with no picture (``large`` empty) keeps its id and text."""
    _fmt, ext, _save = images.web_format()
    written: list[Any] = []
    try:
        for position, card in enumerate(cards):
            row = CustomCard(deck=deck, card_id=card.card_id, text=card.text, position=position)
            if card.large:
                # The names are drawn at random (models.card_picture_path): only the extension
                # of these counts.
                row.image.save(f"large.{ext}", ContentFile(card.large), save=False)
                written.append(row.image)
                row.thumb.save(f"thumb.{ext}", ContentFile(card.thumb), save=False)
                written.append(row.thumb)
            row.save()
    except BaseException:
        for field_file in written:
            field_file.storage.delete(field_file.name)
        raise
    return written


def delete_deck(deck: CustomDeck) -> None:
    """The deck, its cards and their files (tables that used it keep their ids and texts)."""
    files = []
    for card in deck.cards.all():
        files += [card.image, card.thumb, card.raw]
    deck.delete()
    for field_file in files:
        if field_file.name:
            field_file.storage.delete(field_file.name)


# -- a deck at a table ------------------------------------------------------------------------
SIZES = ("large", "thumb")


def table_cards(table) -> QuerySet[CustomCard]:
    """The cards of the custom deck ``table`` plays with: only its owner's own deck, so that an
    imported script naming another user's deck borrows none of its pictures."""
    deck = table.extra.get("custom_deck")
    if table.extra.get("area_ids") is None or not isinstance(deck, int) or isinstance(deck, bool):
        return CustomCard.objects.none()
    return CustomCard.objects.filter(deck_id=deck, deck__owner_id=table.owner_id)


def card_picture(card: CustomCard, size: str):
    """The stored file of one size of a card's picture (None for a size there is not)."""
    if size not in SIZES or not card.image:
        return None
    return card.image if size == "large" else card.thumb


def table_picture(table, card_pk: int, size: str):
    """The kit's ``picture`` hook: a picture of the table's deck, None when the table does not
    play with the deck that card belongs to."""
    card = table_cards(table).filter(pk=card_pk).first()
    return card_picture(card, size) if card is not None else None


def table_extra(deck: CustomDeck) -> dict[str, Any]:
    """The script keys that make a table play with ``deck`` (see games.amnesia_stories.rules)."""
    cards = list(deck.cards.order_by("position"))
    return {
        "area_ids": [c.card_id for c in cards],
        "area_texts": {c.card_id: c.text for c in cards if c.text},
        "custom_deck": deck.pk,
    }


class DeckUploadForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Deck name"), max_length=120)
    archive = forms.FileField(
        label=gettext_lazy("ZIP of images"),
        help_text=gettext_lazy(
            "JPEG, PNG or WebP, one per card, named after the card id (A01.png…); landscape "
            "pictures work best: each is cropped to 3:2."
        ),
    )
    cards = forms.FileField(
        label=gettext_lazy("CSV of card ids and texts (optional)"),
        required=False,
        help_text=gettext_lazy(
            "Two columns, id,text (UTF-8). Leave empty if the CSV is inside the ZIP."
        ),
    )
