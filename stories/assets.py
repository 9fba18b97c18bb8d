"""The files a book shows besides its text: the cover, the game's illustrations and the table's
own uploads, each under the unreachable path the print template names it by (``stories.pdf``).

The EPUB and the single HTML file are given exactly these, the same set the PDF's fetcher is
handed: nothing else can end up in a download.
"""

from __future__ import annotations

from io import BytesIO

from PIL import Image

from games import registry, uploads
from stories.covers import cover_image
from stories.pdf import COVER_PATH, PICTURE_PATH, UPLOAD_PATH
from stories.services import Book

# What every EPUB reader shows without a fallback (EPUB 3 core media types).
PLAIN_IMAGES = {"image/jpeg": "jpg", "image/png": "png", "image/gif": "gif"}


def book_files(book: Book) -> dict[str, tuple[bytes, str]]:
    """``{path in the template: (bytes, media type)}`` for every picture the book shows."""
    files = {COVER_PATH: _plain(*cover_image(book))}
    pictures = book.pictures
    if pictures is not None:
        for picture_id in book.images:
            files[f"{PICTURE_PATH}{picture_id}"] = (pictures.picture(picture_id), "image/jpeg")
    for number in book.uploads:
        found = uploads.read(registry.picture(book.story.table, number, "large"))
        if found is not None:
            files[f"{UPLOAD_PATH}{number}"] = _plain(*found)
    return files


def _plain(data: bytes, mime: str) -> tuple[bytes, str]:
    """A picture in a type every reader draws (a WebP upload becomes a PNG)."""
    if mime in PLAIN_IMAGES:
        return data, mime
    out = BytesIO()
    with Image.open(BytesIO(data)) as image:
        image.convert("RGBA" if image.mode in ("RGBA", "LA", "P") else "RGB").save(out, "PNG")
    return out.getvalue(), "image/png"
