"""Every number and every JSON value the lab's pages read from a request is bounded: at the
endpoints, on the real database (the seed's overflow differs by engine: SQLite's
OverflowError, PostgreSQL's DataError), a clear refusal in the form or a 404, never a 500.

The lab's form will change; these post what a designer (or anyone with a designer's
session) can type, and read the answer."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.playtests import lab_chunks, lab_start
from games.playtests.models import SimulationRun
from tests.playtests.conftest import builtin

pytestmark = pytest.mark.django_db

GAME = "amnesia_stories"
DEEP = "[" * 100_000


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 3


def _form(**changes) -> dict:
    data = {
        "ruleset": builtin(GAME, "Amnesia Stories draft 4").pk,
        "players": "4",
        "games": "3",
        "bots": "sensible",
        "seed": "1",
    }
    return data | changes


def _refused(client, data: dict) -> str:
    client.raise_request_exception = True  # an exception fails the test, as a 500 would
    response = client.post(reverse("playtests:lab", args=[GAME]), data)
    assert response.status_code == 400
    assert not SimulationRun.objects.exists()
    return " ".join(response.content.decode().split())


@pytest.mark.parametrize(
    "seed",
    [str(2**63), str(2**64 + 1), "9" * 5000, "1_000", "²"],
    ids=["2^63", "2^64+1", "5000", "1_000", "sup2"],
)
def test_a_seed_out_of_range_is_refused_in_the_form(designer_client, seed):
    body = _refused(designer_client, _form(seed=seed))
    assert "Seed" in body and ("less than or equal to" in body or "whole number" in body)


@pytest.mark.parametrize("field", ["changed", "params"])
def test_a_value_nested_without_end_is_refused_in_words(designer_client, field):
    body = _refused(designer_client, _form(**{field: "bard_points=" + DEEP}))
    assert "at most" in body  # the field's size bound, in Django's words
    deep = "[" * 40 + "]" * 40
    body = _refused(designer_client, _form(**{field: "bard_points=" + deep}))
    assert "The JSON nests more than 32 levels deep." in body


def test_sweep_values_nested_without_end_are_refused_in_words(designer_client):
    body = _refused(
        designer_client, _form(sweep_name="bard_points", sweep_values="1," + "[" * 10_000)
    )
    assert "at most" in body
    deep = "[" * 40 + "]" * 40
    body = _refused(designer_client, _form(sweep_name="bard_points", sweep_values="1," + deep))
    assert "The JSON nests more than 32 levels deep." in body


def test_a_value_in_portuguese(designer_client):
    designer_client.cookies["django_language"] = "pt-br"
    body = _refused(designer_client, _form(changed="bard_points=" + "[" * 40 + "]" * 40))
    assert "32" in body and "The JSON nests" not in body


def test_plain_values_still_read_as_json_or_text(designer_client):
    response = designer_client.post(
        reverse("playtests:lab", args=[GAME]), _form(changed="bard_points=3")
    )
    assert response.status_code == 302
    assert SimulationRun.objects.get().changed == {"bard_points": 3}


def _done_run(designer, **kw) -> SimulationRun:
    run = lab_start.start(
        designer,
        GAME,
        builtin(GAME, "Amnesia Stories draft 4"),
        players=4,
        games=3,
        bots=["sensible"],
        seed=2,
        **kw,
    )
    lab_chunks.run_everything(run)
    return run


@pytest.mark.parametrize(
    "raw",
    ["9" * 4301, "9" * 20, str(2**63), "²", "١", "-1", "x"],
    ids=["4301", "20", "2^63", "sup2", "arabic1", "-1", "x"],
)
def test_the_ruleset_pdf_refuses_a_run_that_is_no_number(designer_client, raw):
    ruleset = builtin(GAME, "Amnesia Stories draft 4")
    designer_client.raise_request_exception = True
    response = designer_client.get(
        reverse("playtests:ruleset_pdf", args=[ruleset.pk]), {"run": raw}
    )
    assert response.status_code == 404


def test_compare_reads_the_other_run_through_the_bounded_reader(designer, designer_client):
    a = _done_run(designer)
    b = _done_run(designer, changed={"bard_points": 3})
    url = reverse("playtests:run_compare", args=[a.pk])
    designer_client.raise_request_exception = True
    assert designer_client.get(url, {"other": str(b.pk)}).status_code == 200
    # What int() reads and the bounded reader does not: "1_2", " +12", 4,301 digits.
    spelled = "_".join(str(b.pk)) if b.pk > 9 else f"0_{b.pk}"
    for raw in [spelled, f"+{b.pk}", "9" * 4301, "9" * 20, "²"]:
        assert designer_client.get(url, {"other": raw}).status_code == 404, raw
