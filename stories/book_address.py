"""Where the book's own files live for WeasyPrint: an address that cannot be reached
(``https://book.invalid/``, a reserved name), under which the book's fetcher
(``stories.fetcher``) serves the static files and the few resources handed to it for one book,
and refuses everything else (``RefusedURL``). See ``stories.pdf``."""

from __future__ import annotations


class RefusedURL(ValueError):
    pass


BOOK_HOST = "book.invalid"
BASE_URL = f"https://{BOOK_HOST}/"
COVER_PATH = "/book/cover"
# A game's illustrations (its kit's ``pictures``): ``/book/picture/<id>``, one entry per
# picture the book shows, handed to the fetcher like the cover (nothing else is served there).
# The table's own uploads the book shows (a custom deck's cards): ``/book/upload/<n>``, read
# from storage for this book, never by their path under /media/.
UPLOAD_PATH = "/book/upload/"
PICTURE_PATH = "/book/picture/"
