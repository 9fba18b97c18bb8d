"""Covers: uploads are checked, stripped and resized; generated covers come from the game."""

from __future__ import annotations

import math
import re
import struct
import zlib
from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import ExifTags, Image, ImageChops, ImageStat

from stories import covers, services
from stories.models import Story

from .conftest import make_story

pytestmark = pytest.mark.django_db


def upload(data: bytes, name: str = "cover.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def photo_with_gps(size=(2000, 1200)) -> bytes:
    """A JPEG as a phone makes it: EXIF with GPS position, camera and a 90° orientation."""
    image = Image.new("RGB", size, (200, 120, 40))
    for x in range(0, size[0], 50):  # some detail, so the orientation can be checked
        image.paste((20, 20, 20), (x, 0, x + 10, 40))
    exif = Image.Exif()
    exif[ExifTags.Base.Make] = "SpyPhone"
    exif[ExifTags.Base.Orientation] = 6  # the camera was held sideways
    exif[ExifTags.IFD.GPSInfo] = {
        ExifTags.GPS.GPSLatitudeRef: "S",
        ExifTags.GPS.GPSLatitude: (23.0, 33.0, 1.0),
        ExifTags.GPS.GPSLongitudeRef: "W",
        ExifTags.GPS.GPSLongitude: (46.0, 38.0, 2.0),
    }
    out = BytesIO()
    image.save(out, "JPEG", exif=exif, comment=b"secret comment")
    return out.getvalue()


def png_header_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header announces a huge picture: a decompression bomb's first bytes."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    data = zlib.compress(b"\x00" * 1000)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def test_an_upload_loses_its_metadata_and_is_turned_upright_and_resized():
    raw = photo_with_gps()
    assert b"SpyPhone" in raw and b"secret comment" in raw
    assert Image.open(BytesIO(raw)).getexif().get_ifd(ExifTags.IFD.GPSInfo)
    clean = covers.clean_cover(upload(raw)).read()
    image = Image.open(BytesIO(clean))
    assert image.format == "JPEG"
    assert not image.getexif() and "exif" not in image.info and "icc_profile" not in image.info
    assert b"SpyPhone" not in clean and b"secret comment" not in clean and b"GPS" not in clean
    # Orientation 6 means the picture is really portrait: 1200 x 2000, fitted in the cover size.
    assert image.height > image.width
    assert image.width <= covers.MAX_COVER[0] and image.height <= covers.MAX_COVER[1]


def test_a_transparent_png_is_flattened_onto_paper():
    image = Image.new("RGBA", (400, 600), (0, 0, 0, 0))
    out = BytesIO()
    image.save(out, "PNG")
    clean = Image.open(covers.clean_cover(upload(out.getvalue(), "c.png")))
    assert clean.mode == "RGB"
    assert all(abs(a - b) <= 2 for a, b in zip(clean.getpixel((10, 10)), covers.PAPER, strict=True))


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"GIF89a" + b"\x00" * 100, "invalid_image"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'></svg>", "invalid_image"),
        (b"not an image at all", "invalid_image"),
        (photo_with_gps()[:3000], "invalid_image"),  # truncated
        (png_header_claiming(30_000, 30_000), "too_many_pixels"),  # 900 megapixels
        (png_header_claiming(7_000, 7_000), "too_many_pixels"),  # over our own limit
    ],
    ids=["gif", "svg", "text", "truncated", "bomb", "too-many-pixels"],
)
def test_bad_uploads_are_refused(data, code):
    with pytest.raises(ValidationError) as error:
        covers.clean_cover(upload(data))
    assert error.value.code == code


def test_a_gif_is_refused_even_when_it_is_a_real_image():
    out = BytesIO()
    Image.new("RGB", (400, 400)).save(out, "GIF")
    with pytest.raises(ValidationError):
        covers.clean_cover(upload(out.getvalue(), "c.gif"))


def test_tiny_and_huge_files_are_refused():
    out = BytesIO()
    Image.new("RGB", (50, 50)).save(out, "PNG")
    with pytest.raises(ValidationError) as error:
        covers.clean_cover(upload(out.getvalue()))
    assert error.value.code == "too_small"
    with pytest.raises(ValidationError) as error:
        covers.clean_cover(upload(b"\xff\xd8" + b"0" * (covers.MAX_UPLOAD_BYTES + 1)))
    assert error.value.code == "too_big"


def test_the_cover_form_stores_a_clean_image_under_a_random_name(gm, gm_client, settings):
    story = make_story(gm, "en", visibility=Story.Visibility.PUBLIC, published=True)
    url = reverse("stories:edit", args=[story.pk])
    fields = {"title": story.title, "language": "en", "visibility": "public", "tags_text": ""}
    response = gm_client.post(url, {**fields, "cover_upload": upload(photo_with_gps())})
    assert response.status_code == 302
    story.refresh_from_db()
    assert re.fullmatch(r"stories/covers/[0-9a-f]{32}\.jpg", story.cover.name)
    served = gm_client.get(reverse("stories:cover", args=[story.pk]))
    assert served["Content-Type"] == "image/jpeg"
    assert b"SpyPhone" not in served.content
    # A bad upload is a form error, and the old cover stays.
    old = story.cover.name
    bad = gm_client.post(
        url, {**fields, "cover_upload": upload(png_header_claiming(30_000, 30_000))}
    )
    assert bad.status_code == 400 and "too many pixels" in bad.content.decode()
    story.refresh_from_db()
    assert story.cover.name == old
    # Back to the generated cover; the uploaded file is deleted.
    assert gm_client.post(url, {**fields, "remove_cover": "on"}).status_code == 302
    story.refresh_from_db()
    assert not story.cover and not story.cover.storage.exists(old)
    assert gm_client.get(reverse("stories:cover", args=[story.pk]))["Content-Type"] == "image/png"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_generated_cover_is_drawn_from_the_game(gm, language):
    story = make_story(gm, language, subtitle="Sub")
    book = services.make_book(story)
    image = covers.generated_cover(book)
    assert image.size == covers.COVER_SIZE
    # The same story gives the same picture; another title, another one.
    assert covers.generated_cover(book).tobytes() == image.tobytes()
    book.title = "Another title entirely"
    assert covers.generated_cover(book).tobytes() != image.tobytes()


def test_the_generated_cover_is_cached_and_redrawn_when_the_story_changes(gm, monkeypatch):
    story = make_story(gm, "en")
    drawn = []
    real = covers.generated_cover
    # The site's own drawing, not the run's kept covers (tests/plugins/pictures.py), which would answer
    # a cover drawn by an earlier test without drawing it.
    monkeypatch.setattr(covers, "drawn_png", covers.drawn_png.real)
    monkeypatch.setattr(covers, "generated_cover", lambda book: drawn.append(1) or real(book))
    first, mime = covers.cover_image(services.make_book(story))
    assert mime == "image/png" and first.startswith(b"\x89PNG")
    assert covers.cover_image(services.make_book(story))[0] == first
    assert len(drawn) == 1
    story.title = "Retitled"
    story.save()
    covers.cover_image(services.make_book(story))
    assert len(drawn) == 2


def test_the_pdf_embeds_a_generated_cover_as_a_full_quality_jpeg(gm):
    """WeasyPrint copies a JPEG into the PDF as it is, and compresses a PNG again in every
    book: the generated cover (a PNG for the pages and the EPUB) goes to the PDF as a JPEG
    at full quality and full colour resolution, the same picture to the eye; an uploaded cover
    (a JPEG already) goes as it is."""
    from stories import pdf as story_pdf

    book = services.make_book(make_story(gm, "en"))
    png, mime = covers.cover_image(book)
    assert mime == "image/png"
    data, mime = story_pdf.print_cover(png, mime)
    assert mime == "image/jpeg" and data[:3] == b"\xff\xd8\xff"
    drawn = Image.open(BytesIO(png)).convert("RGB")
    printed = Image.open(BytesIO(data))
    assert printed.size == drawn.size and printed.mode == "RGB"
    assert [(h, v) for _id, h, v, _table in printed.layer] == [(1, 1)] * 3  # no colour halved
    # Peak signal to noise: 40 dB and more is the same picture to the eye.
    mse = sum(a * a for a in ImageStat.Stat(ImageChops.difference(drawn, printed)).rms) / 3
    assert 10 * math.log10(255 * 255 / max(mse, 1e-9)) > 40
    assert story_pdf.print_cover(data, "image/jpeg") == (data, "image/jpeg")
