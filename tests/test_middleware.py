"""A request body the site cannot read is a sentence and a 400, with DEBUG on as well."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import new_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(gm):
    return new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=1)


def assert_plain_400(response) -> None:
    assert response.status_code == 400
    body = response.content.decode()
    assert body == "The request is too large, or has too many fields, to be read."
    assert "Traceback" not in body and "SECRET_KEY" not in body


@pytest.mark.parametrize("debug", [True, False])
def test_too_many_fields_or_too_large_a_body_is_a_plain_400(gm_client, table, settings, debug):
    settings.DEBUG = debug
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    url = reverse("games:move", args=[table.pk])
    assert_plain_400(gm_client.post(url, {f"f{i}": "x" for i in range(60)}))
    assert_plain_400(gm_client.post(url, {"text": "x" * 20_000}))
    assert_plain_400(gm_client.post(url, b"[" + b"1," * 10_000 + b"1]", "application/json"))
    # the seat links need no login: the same answer there
    seat = table.seats.first()
    assert_plain_400(
        gm_client.post(reverse("contest:seat_move", args=[seat.token]), {"x": "y" * 20_000})
    )
    assert not table.moves.exists()


def test_a_readable_body_goes_on_to_the_view(gm_client, table, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
    url = reverse("games:move", args=[table.pk])
    response = gm_client.post(url, {"by": "Ana", "do": "continue", "expected_seq": 0})
    assert response.status_code == 302 and table.moves.count() == 1
