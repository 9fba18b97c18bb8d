"""Custom deck uploads: a good archive, and every way a bad one is refused with nothing left."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from games import images
from games.amnesia_stories import decks
from games.amnesia_stories.models import CustomCard, CustomDeck
from tests.workers import run_queued

pytestmark = pytest.mark.django_db

IDS = [f"F{i:02d}" for i in range(1, 13)]  # a small playable deck (6 cards is the smallest)


@pytest.fixture(autouse=True)
def media(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def png(colour=(200, 120, 40), size=(90, 60)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


def jpeg_with_gps() -> bytes:
    image = Image.new("RGB", (120, 80), (30, 90, 160))
    exif = Image.Exif()
    exif[0x010F] = "SpyCam"  # Make
    exif[0x0110] = "Model X"  # Model
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (48.0, 51.0, 29.0)
    gps[3] = "E"
    gps[4] = (2.0, 17.0, 40.0)
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    data = out.getvalue()
    assert Image.open(io.BytesIO(data)).getexif().get_ifd(0x8825)  # the fixture carries GPS
    return data


def bomb_png(width: int = 40_000, height: int = 40_000) -> bytes:
    """A tiny PNG whose header claims a gigantic picture (Pillow refuses it on open)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    data = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def csv_text(ids=IDS) -> str:
    return "id,text\n" + "".join(f"{i},The hero passed by place {i}.\n" for i in ids)


def make_zip(files: dict[str, bytes | str]) -> SimpleUploadedFile:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return SimpleUploadedFile("deck.zip", out.getvalue(), content_type="application/zip")


def good_files(**override) -> dict[str, bytes | str]:
    files: dict[str, bytes | str] = {
        f"{card}.png": png((20 * i % 255, 80, 200 - 10 * i)) for i, card in enumerate(IDS)
    }
    files["cards.csv"] = csv_text()
    files.update(override)
    return files


def assert_nothing_left(media: Path) -> None:
    assert CustomDeck.objects.count() == 0 and CustomCard.objects.count() == 0
    written = [p for p in media.rglob("*") if p.is_file()] if media.exists() else []
    assert written == []


def refused(gm, media, files, **kwargs) -> str:
    with pytest.raises(decks.DeckError) as info:
        decks.import_deck(gm, "Bad deck", make_zip(files), **kwargs)
    assert_nothing_left(media)
    return info.value.message


def test_a_valid_zip_becomes_a_deck_of_cleaned_pictures(gm, media):
    deck = decks.import_deck(gm, "Forest deck", make_zip(good_files()))
    cards = list(deck.cards.order_by("position"))
    assert [c.card_id for c in cards] == IDS
    assert cards[0].text == "The hero passed by place F01."
    fmt, _ext, _save = images.web_format()
    for card in cards:
        with Image.open(card.image.path) as large, Image.open(card.thumb.path) as thumb:
            assert (large.format, large.size) == (fmt, decks.LARGE)
            assert (thumb.format, thumb.size) == (fmt, decks.THUMB)
    assert decks.table_extra(deck)["area_ids"] == IDS


def test_the_csv_may_come_beside_the_zip_and_folders_and_mac_junk_are_ignored(gm, media):
    files = {f"deck/{k}": v for k, v in good_files().items() if k != "cards.csv"}
    files["__MACOSX/deck/._F01.png"] = b"junk"
    files["deck/.DS_Store"] = b"junk"
    csv_file = SimpleUploadedFile("cards.csv", csv_text().encode("utf-8-sig"))
    deck = decks.import_deck(gm, "Beside", make_zip(files), csv_file)
    assert deck.cards.count() == len(IDS)


def test_upload_page_imports_and_lists_the_deck(gm_client, media):
    response = gm_client.post(
        reverse("amnesia_stories:deck_upload"),
        {"name": "Through the page", "archive": make_zip(good_files())},
    )
    assert response.status_code == 302
    assert CustomDeck.objects.get().name == "Through the page"
    run_queued(
        ("pictures",)
    )  # the pictures worker (tests/games/amnesia_stories/test_deck_queue.py)
    page = gm_client.get(response["Location"]).content.decode()
    assert "Through the page" in page and "F12" in page
    assert "Through the page" in gm_client.get(reverse("amnesia_stories:decks")).content.decode()


def test_a_non_image_is_named(gm, media):
    message = refused(gm, media, good_files(**{"F03.png": b"this is not a picture"}))
    assert "F03.png" in message and "not a JPEG, PNG or WebP" in message


def test_a_format_outside_the_allow_list_is_refused(gm, media):
    gif = io.BytesIO()
    Image.new("RGB", (30, 20)).save(gif, "GIF")
    message = refused(gm, media, good_files(**{"F04.png": gif.getvalue()}))
    assert "F04.png" in message


def test_a_truncated_image_is_named(gm, media):
    out = io.BytesIO()
    Image.effect_noise((300, 200), 60).convert("RGB").save(out, "PNG")
    data = out.getvalue()
    message = refused(gm, media, good_files(**{"F05.png": data[: len(data) // 2]}))
    assert "F05.png" in message and "truncated" in message


def test_a_decompression_bomb_is_refused(gm, media):
    message = refused(gm, media, good_files(**{"F06.png": bomb_png()}))
    assert "F06.png" in message and "decompression bomb" in message


def test_pillows_bomb_warning_counts_as_a_refusal(gm, media, monkeypatch):
    # Above MAX_IMAGE_PIXELS but below twice it, Pillow only warns: the upload treats it as an error.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 6000)  # the other cards have 5400
    message = refused(gm, media, good_files(**{"F07.png": png(size=(100, 100))}))
    assert "F07.png" in message and "decompression bomb" in message


def test_too_many_pixels_is_refused(gm, media, settings):
    settings.DECK_MAX_PIXELS = 6000
    message = refused(gm, media, good_files(**{"F08.png": png(size=(100, 100))}))
    assert "F08.png" in message and "100 × 100 pixels" in message and "6,000" in message


def test_gps_and_all_metadata_are_stripped(gm, media):
    files = good_files()
    del files["F02.png"]
    files["F02.jpg"] = jpeg_with_gps()
    deck = decks.import_deck(gm, "With GPS", make_zip(files))
    card = deck.cards.get(card_id="F02")
    for field in (card.image, card.thumb):
        raw = Path(field.path).read_bytes()
        with Image.open(field.path) as stored:
            assert not stored.getexif()
            assert "exif" not in stored.info and "icc_profile" not in stored.info
        assert b"SpyCam" not in raw and b"GPS" not in raw and b"Exif" not in raw


def test_a_csv_naming_a_missing_image_is_named(gm, media):
    files = good_files()
    files["cards.csv"] = csv_text([*IDS, "F99"])
    message = refused(gm, media, files)
    assert "F99" in message and "cards.csv" in message


def test_archive_safety(gm, media, monkeypatch):
    assert "not a ZIP" in refused_raw(gm, media, b"PK but not really")
    message = refused(gm, media, good_files(**{"../evil.png": png()}))
    assert "../evil.png" in message
    monkeypatch.setattr(decks, "MAX_MEMBERS", 5)
    assert "entries" in refused(gm, media, good_files())
    monkeypatch.setattr(decks, "MAX_MEMBERS", 400)
    monkeypatch.setattr(decks, "MAX_TOTAL_BYTES", 2000)
    assert "zip bombs" in refused(gm, media, good_files())


def refused_raw(gm, media, data: bytes) -> str:
    with pytest.raises(decks.DeckError) as info:
        decks.import_deck(gm, "Raw", SimpleUploadedFile("deck.zip", data))
    assert_nothing_left(media)
    return info.value.message


def test_csv_problems_are_named(gm, media):
    files = good_files()
    files["cards.csv"] = csv_text(IDS[:5])
    assert "5 cards" in refused(gm, media, files)
    files["cards.csv"] = csv_text([*IDS, "F01"])
    assert "appears twice" in refused(gm, media, files)
    files = good_files()
    del files["cards.csv"]
    assert "no CSV" in refused(gm, media, files)


def test_a_failure_while_writing_leaves_no_file_behind(gm, media, monkeypatch):
    saved = CustomCard.save
    calls = {"n": 0}

    def flaky(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            raise OSError("disk full")
        return saved(self, *args, **kwargs)

    monkeypatch.setattr(CustomCard, "save", flaky)
    with pytest.raises(OSError):
        decks.import_deck(gm, "Half", make_zip(good_files()))
    assert_nothing_left(media)


def test_the_upload_page_shows_the_message_and_keeps_nothing(gm_client, media):
    files = good_files(**{"F09.png": b"nope"})
    response = gm_client.post(
        reverse("amnesia_stories:deck_upload"), {"name": "Broken", "archive": make_zip(files)}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "F09.png" in body and "Nothing was imported" in body
    assert_nothing_left(media)


def test_decks_are_private_and_deletable(gm_client, other_client, gm, media):
    deck = decks.import_deck(gm, "Mine", make_zip(good_files()))
    assert other_client.get(reverse("amnesia_stories:deck", args=[deck.pk])).status_code == 404
    assert (
        other_client.post(reverse("amnesia_stories:deck_delete", args=[deck.pk])).status_code == 404
    )
    response = gm_client.post(reverse("amnesia_stories:deck_delete", args=[deck.pk]))
    assert response.status_code == 302
    assert_nothing_left(media)
