"""Reading a bundle safely: the zip's entries read into memory by name (never extracted),
refused whole when it is cut short, too large, a zip bomb or names a file outside its own
folders; its ``bundle.json`` is then checked against the schema (``stories.bundles.schema``).
"""

from __future__ import annotations

import json
import stat
import zipfile
import zlib
from io import BytesIO
from pathlib import PurePosixPath
from typing import Any

from django.utils.translation import gettext as _

from games.rules.script import holds_nul
from stories.bundles.format import FILE_NAME, MANIFEST, BundleError, limit, too_large
from stories.bundles.schema import check_manifest


# -- reading a bundle safely --------------------------------------------------------------
def _safe_name(name: str) -> bool:
    if not name or "\\" in name or "\x00" in name or name.startswith("/") or ":" in name:
        return False
    path = PurePosixPath(name)
    return ".." not in path.parts and (name == MANIFEST or bool(FILE_NAME.match(name)))


def read_bundle(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and the files of a bundle, or a :class:`BundleError` saying why not."""
    if len(data) > limit("BUNDLE_MAX_BYTES"):
        raise BundleError(_("The bundle is larger than this site accepts."))
    try:
        archive = zipfile.ZipFile(BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise BundleError(_("The file is not a bundle: it is not a whole zip file.")) from None
    if len(infos) > limit("BUNDLE_MAX_ENTRIES"):
        raise BundleError(_("The bundle holds more files than this site accepts."))
    # The sizes first, over every entry: a zip bomb is refused for being one, whatever its
    # entries are called.
    total = 0
    for info in infos:
        ceiling = limit(
            "BUNDLE_MAX_MANIFEST_BYTES" if info.filename == MANIFEST else "BUNDLE_MAX_FILE_BYTES"
        )
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if (
            info.file_size > ceiling
            or total > limit("BUNDLE_MAX_TOTAL_BYTES")
            or (info.file_size > 1024 * 1024 and ratio > limit("BUNDLE_MAX_RATIO"))
        ):
            raise too_large()
    for info in infos:
        if not _safe_name(info.filename) or stat.S_ISLNK(info.external_attr >> 16):
            raise BundleError(
                _("The bundle names a file outside its own folders: %(name)s")
                % {"name": info.filename[:80]}
            )
    names = [i.filename for i in infos]
    if len(set(names)) != len(names):
        raise BundleError(_("The bundle holds the same file twice."))
    if MANIFEST not in names:
        raise BundleError(_("The bundle has no bundle.json."))
    contents = {}
    try:
        for info in infos:
            # Never more than the declared size is read (zipfile stops there, and checks the
            # CRC): a header that lies about the size gets a broken file, not a bigger one.
            with archive.open(info) as handle:
                contents[info.filename] = handle.read(info.file_size + 1)
            if len(contents[info.filename]) > info.file_size:
                raise too_large()
    except (
        zipfile.BadZipFile,
        zlib.error,
        OSError,
        EOFError,
        ValueError,
        NotImplementedError,
        RuntimeError,
    ):
        # RuntimeError: an encrypted entry; NotImplementedError: an unknown compression;
        # zlib.error: a deflated entry whose bytes were damaged (the CRC is checked after).
        raise BundleError(_("The bundle is damaged: a file in it cannot be read.")) from None
    try:
        manifest = json.loads(contents.pop(MANIFEST).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # ValueError: bad JSON, or an integer longer than Python reads; RecursionError:
        # arrays nested thousands deep, which no bundle has.
        raise BundleError(_("The bundle's bundle.json is not valid JSON.")) from None
    if holds_nul(manifest):
        # PostgreSQL stores no NUL in a text (SQLite would): refused on both, before any write.
        raise BundleError(_("The bundle holds a NUL character, which no text may hold."))
    check_manifest(manifest, contents)
    return manifest, contents
