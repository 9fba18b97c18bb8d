"""The bundle format: its name and version, the files a bundle may hold, the limits (each
can be set in settings) and :class:`BundleError`, the sentence a refused bundle gets.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.utils.translation import gettext as _

FORMAT = "amnesia-table-bundle"
VERSION = 1
MANIFEST = "bundle.json"
# Covers, and the pictures a game carries (a custom deck's: see GameKit.carry).
FILE_NAME = re.compile(r"^files/[0-9a-f]{32}\.(jpg|png|webp)$")
FILE_EXTENSIONS = {"jpg": "jpg", "jpeg": "jpg", "png": "png", "webp": "webp"}

# Limits (each can be set in settings): a bundle of many evenings' tables is a few megabytes.
LIMITS = {
    "BUNDLE_MAX_BYTES": 64 * 1024 * 1024,  # the zip itself
    "BUNDLE_MAX_ENTRIES": 2000,
    "BUNDLE_MAX_MANIFEST_BYTES": 32 * 1024 * 1024,
    "BUNDLE_MAX_FILE_BYTES": 10 * 1024 * 1024,  # one cover
    "BUNDLE_MAX_TOTAL_BYTES": 256 * 1024 * 1024,  # everything, uncompressed
    "BUNDLE_MAX_RATIO": 100,  # uncompressed / compressed, for entries over a megabyte
}


def limit(name: str) -> int:
    return int(getattr(settings, name, LIMITS[name]))


class BundleError(ValueError):
    """Why a bundle was refused (a sentence for the person who sent it)."""


def too_large() -> BundleError:
    return BundleError(
        _("The bundle is too large once unpacked (a zip bomb, or more than this site accepts).")
    )
