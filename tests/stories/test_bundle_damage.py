"""A damaged bundle uploaded on the designers' page is refused in words, never a 500: a deflated
entry whose bytes are broken (zlib's own error, before any CRC check) and a bundle.json holding
a number longer than Python reads (``json`` raises a plain ValueError for it). The fuzz test
(tests/games/test_fuzz.py) found both."""

from __future__ import annotations

import io
import json
import zipfile
import zlib

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games.models import Table
from games.playtests.models import DESIGNERS_GROUP

pytestmark = pytest.mark.django_db


def zip_of(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


def deflate_broken(manifest: bytes) -> bytes:
    """The zip of ``manifest`` with one bit of its deflated bytes flipped, where zlib itself
    gives up on them (found by trying each bit from the start, the same on every run)."""
    good = zip_of({"bundle.json": manifest})
    start = good.index(b"bundle.json") + len("bundle.json")  # the local header's name
    for at in range(start, start + 200):
        for bit in range(8):
            data = bytearray(good)
            data[at] ^= 1 << bit
            try:
                with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
                    archive.read("bundle.json")
            except zlib.error:
                return bytes(data)
            except Exception:  # noqa: BLE001 - another kind of damage: try the next bit
                continue
    raise AssertionError("no bit found that breaks the deflated stream")


@pytest.fixture
def designer_client(gm, gm_client):
    gm.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    return gm_client


@pytest.mark.parametrize(
    "data, says",
    [
        (lambda: deflate_broken(json.dumps({"format": "x" * 400}).encode()), "damaged"),
        (lambda: zip_of({"bundle.json": b'{"version": ' + b"9" * 5000 + b"}"}), "not valid JSON"),
    ],
)
def test_a_damaged_bundle_on_the_page_is_refused_in_words(designer_client, data, says):
    upload = io.BytesIO(data())
    upload.name = "tables.zip"
    designer_client.raise_request_exception = False
    response = designer_client.post(reverse("stories:bundle_import"), {"bundle": upload})
    assert response.status_code == 400
    assert "refused and nothing was imported" in response.content.decode()
    assert says in response.content.decode()
    assert not Table.objects.exists()
