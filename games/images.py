"""The one image pipeline: untrusted bytes in, bare pixels out, encoded and written safely.

Everything the site draws or accepts goes through here: custom deck pictures, story covers, the
area card art (its files for the pages and its pictures for the book).

- :func:`decode` reads untrusted bytes: allow-listed formats only, the pixel count checked from
  the header before any decoding (a decompression bomb, Pillow's warning included, is refused),
  ``verify()``, then a full decode of a fresh copy with truncated files refused, turned upright
  from its EXIF orientation. Every refusal is an :class:`ImageRefused` with a ``reason``.
- :func:`header_size` reads only the header: format, size, bombs (what an upload's request
  can afford to check; the decoding is a worker's).
- :func:`bare_rgb` keeps the pixels only: no EXIF (so no GPS), ICC, XMP or text chunks.
- :func:`encode` and :func:`web_format` turn pixels into bytes; :func:`write_atomically` puts
  bytes on disk so that no reader ever sees half a file.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError, features

ALLOWED_FORMATS = ("JPEG", "PNG", "WEBP")
_DECODING = threading.Lock()


class ImageRefused(ValueError):
    """Why an upload is not a usable picture: ``reason`` is one of

    ``not_an_image`` (not one of the allowed formats), ``damaged`` (truncated or broken),
    ``bomb`` (Pillow's decompression bomb limit), ``too_many_pixels`` (above the caller's
    limit; ``size`` says how many) and ``too_small`` (a side under the caller's minimum).
    """

    def __init__(self, reason: str, *, size: tuple[int, int] | None = None, error=None) -> None:
        self.reason = reason
        self.size = size
        self.error = error
        super().__init__(f"{reason}: {error}" if error else reason)


@contextlib.contextmanager
def strict_decoding() -> Iterator[None]:
    """Truncated files raise while we decode. WeasyPrint switches Pillow's process-wide
    ``LOAD_TRUNCATED_IMAGES`` on when it is imported (so a PDF survives a damaged picture);
    an upload must be whole, so it is off for the time of our checks and put back after."""
    with _DECODING:
        before = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            yield
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = before


def _open(data: bytes, formats) -> Image.Image:
    return Image.open(io.BytesIO(data), formats=formats)


def header_size(data: bytes, *, max_pixels: int, formats=ALLOWED_FORMATS) -> tuple[int, int]:
    """The picture's (width, height) as its header says, nothing decoded (a few
    microseconds, whatever its size): ImageRefused when it is not an allowed format, a
    decompression bomb or above ``max_pixels``. :func:`decode` checks it all again."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with _open(data, formats) as probe:
                width, height = probe.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageRefused("bomb", error=exc) from exc
    except UnidentifiedImageError as exc:
        raise ImageRefused("not_an_image", error=exc) from exc
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageRefused("damaged", error=exc) from exc
    if width * height > max_pixels:
        raise ImageRefused("too_many_pixels", size=(width, height))
    return width, height


def decode(
    data: bytes, *, max_pixels: int, min_side: int = 1, formats=ALLOWED_FORMATS
) -> Image.Image:
    """Untrusted bytes as a loaded, upright picture (its first frame), or ImageRefused."""
    try:
        with strict_decoding(), warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with _open(data, formats) as probe:
                width, height = probe.size
                if width * height > max_pixels:
                    raise ImageRefused("too_many_pixels", size=(width, height))
                if min(width, height) < min_side:
                    raise ImageRefused("too_small", size=(width, height))
                probe.verify()
            # verify() leaves the image unusable: decode a fresh copy, all of it.
            with _open(data, formats) as image:
                image.seek(0)  # an animated WebP: its first frame
                image.load()
                return ImageOps.exif_transpose(image)  # a copy: the file can close
    except ImageRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageRefused("bomb", error=exc) from exc
    except UnidentifiedImageError as exc:
        raise ImageRefused("not_an_image", error=exc) from exc
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as exc:
        raise ImageRefused("damaged", error=exc) from exc


def bare_rgb(image: Image.Image, background: tuple[int, int, int]) -> Image.Image:
    """The pixels only, as RGB, transparency laid on ``background``: a new image carries no
    EXIF, GPS, ICC, XMP or text chunks."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        rgb = Image.new("RGB", rgba.size, background)
        rgb.paste(rgba, mask=rgba.getchannel("A"))
    else:
        rgb = image.convert("RGB")
    bare = Image.new("RGB", rgb.size)
    bare.paste(rgb)
    return bare


def web_format() -> tuple[str, str, dict[str, Any]]:
    """(Pillow format, file extension, save options) for pictures on the pages: WebP when this
    Pillow has it, JPEG otherwise."""
    if features.check("webp"):
        # Method 2 of WebP's 0-6 (effort): an area card's picture (960 x 640) in 13 ms instead
        # of 37 at method 4, for about a tenth more bytes (11 KB against 10), at the same quality.
        return "WEBP", "webp", {"quality": 86, "method": 2}
    return "JPEG", "jpg", {"quality": 88, "optimize": True}


def encode(image: Image.Image, fmt: str, **options: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def write_atomically(path: Path, data: bytes) -> None:
    """Write beside, then rename: a reader sees the old file, or the new one whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def stored_bytes(field_file) -> bytes:
    """The bytes of a stored file (a cover, a deck's picture), or b"" when the file is gone
    (a media folder that was not copied with the database)."""
    try:
        with field_file.open("rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return b""
