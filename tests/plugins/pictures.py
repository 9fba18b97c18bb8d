"""Pictures that are the same bytes for the same input, made once a run (a plugin of
tests/conftest.py: ``pictures_made_once_per_run``)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def pictures_made_once_per_run():
    """Pictures that are the same bytes for the same input every time, made once a run
    (tests/memo.py: once per ``make test`` across its workers and both engines' runs, once
    per process for a plain ``pytest``) and written again where each test asks:

    - the 48 area cards' art, for the pages and the book (the same for the same card every
      time: tests/games/amnesia_stories/test_areas.py draws it twice to prove it); pages and
      books draw it on first use into each test's own media and cache folders, a tenth of a
      second a picture, hundreds of times a run;
    - a deck's uploaded picture cleaned (``decks.clean_image``: decoded, fitted and re-encoded
      at two sizes, about 40 ms a picture, twelve a deck, and most deck tests upload the same
      twelve). A refused picture is refused for real every time;
    - a generated cover's PNG (``covers.drawn_png``), by ``covers._cover_key``, the name the
      site's own cache keeps it under (the same key, the same cover: what the drawers read is
      in it, the story's id and times included); a cover not kept yet is drawn for real, and
      its PNG (``covers._png``) is kept by its pixels, since the same picture comes of other
      keys (times differ between runs, the Amnesia cover does not show them): a tenth to a
      fifth of a second a cover, and the PostgreSQL run prints the same books;
    - the cover as a book embeds it (``pdf.print_cover``: the PNG decoded and written as a
      JPEG, about 40 ms a book), by the PNG's bytes.
    """
    import tempfile

    from games import images
    from games.amnesia_stories import area_store, carry, decks
    from stories import covers
    from stories import pdf as story_pdf
    from tests.memo import remember

    real_draw, real_print, real_clean = area_store.draw, area_store.print_picture, decks.clean_image
    real_png, real_drawn_png = covers._png, covers.drawn_png
    real_print_cover = story_pdf.print_cover

    def drawn(card_id: str) -> dict[str, bytes]:
        def make() -> tuple[bytes, ...]:
            with tempfile.TemporaryDirectory() as scratch:
                paths = area_store.card_paths(card_id, Path(scratch))
                real_draw(card_id, paths)
                return tuple(paths[kind].read_bytes() for kind in area_store.KINDS)

        fmt = images.web_format()[0]
        return dict(zip(area_store.KINDS, remember("area", f"{fmt}:{card_id}", make), strict=True))

    def draw(card_id: str, paths: dict[str, Path]) -> None:
        pictures = drawn(card_id)
        for kind, path in paths.items():
            images.write_atomically(path, pictures[kind])

    def print_picture(card_id: str, folder: Path) -> bytes:
        def make() -> tuple[bytes, ...]:
            with tempfile.TemporaryDirectory() as scratch:
                return (real_print(card_id, Path(scratch)),)

        (data,) = remember("area-print", card_id, make)
        if not (folder / f"{card_id}.jpg").is_file():
            images.write_atomically(folder / f"{card_id}.jpg", data)
        return data

    def clean_image(data: bytes, name: str) -> tuple[bytes, bytes]:
        fmt = images.web_format()[0]
        large, thumb = remember(
            "deck-picture", fmt.encode() + b"\0" + data, lambda: real_clean(data, name)
        )
        return large, thumb

    def png(image) -> bytes:
        # Everything the PNG writer reads: the pixels, their shape, a palette, the info (a
        # transparency or an ICC profile there is written into the file).
        head = repr((image.mode, image.size, image.getpalette(), sorted(image.info.items())))
        pixels = head.encode() + b"\0" + image.tobytes()
        (data,) = remember("cover-png", pixels, lambda: (real_png(image),))
        return data

    def drawn_png(book) -> bytes:
        (data,) = remember("cover", covers._cover_key(book), lambda: (real_drawn_png(book),))
        return data

    def print_cover(data: bytes, mime: str) -> tuple[bytes, str]:
        def make() -> tuple[bytes, bytes]:
            printed, printed_mime = real_print_cover(data, mime)
            return printed, printed_mime.encode()

        printed, printed_mime = remember("print-cover", mime.encode() + b"\0" + data, make)
        return printed, printed_mime.decode()

    # The real functions, for tests/test_memo.py's proof that they make the same bytes twice.
    draw.real, print_picture.real, clean_image.real = real_draw, real_print, real_clean
    png.real, drawn_png.real, print_cover.real = real_png, real_drawn_png, real_print_cover
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(area_store, "draw", draw)
        patch.setattr(area_store, "print_picture", print_picture)
        patch.setattr(decks, "clean_image", clean_image)
        patch.setattr(carry, "clean_image", clean_image)
        patch.setattr(covers, "_png", png)
        patch.setattr(covers, "drawn_png", drawn_png)
        patch.setattr(story_pdf, "print_cover", print_cover)
        yield
