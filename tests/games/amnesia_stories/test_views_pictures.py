"""Amnesia Stories' card pictures in the pages: drawn on first use, then cached, and the table
page links them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.amnesia_stories.pages import (
    media,  # noqa: F401 - a fixture
    new_table,
    seen,
)

pytestmark = pytest.mark.django_db


# -- pictures -------------------------------------------------------------------------------------
def test_card_pictures_are_drawn_on_first_use_and_cached(client, media):  # noqa: F811
    url = reverse("amnesia_stories:area_image", args=["A07", "thumb"])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/webp", "image/jpeg")
    assert "max-age" in response["Cache-Control"]
    body = b"".join(response.streaming_content)
    assert len(body) > 500
    files = sorted(p.name for p in (media / "areas").iterdir())
    assert len(files) == 2 and files[0].startswith("A07")  # the large one came along
    assert (
        client.get(reverse("amnesia_stories:area_image", args=["A99", "thumb"])).status_code == 404
    )
    assert (
        client.get(reverse("amnesia_stories:area_image", args=["A07", "huge"])).status_code == 404
    )


def test_the_table_page_uses_the_card_picture_urls(gm_client):
    table = new_table(gm_client)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    for card in seen(table)["selection"].values():
        assert reverse("amnesia_stories:area_image", args=[card, "large"]) in page
