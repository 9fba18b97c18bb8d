"""The study in the report: the playtest report PDF holds a whole study (its sentences, its
table, its charts) beside the real plays of the same ruleset version; a sweep's PDF shows
its figures."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.playtests import lab_chunks, lab_start, study_answer, study_reading, study_start
from tests.pdfs import all_text
from tests.playtests.conftest import builtin, many_reports

GAME = "amnesia_stories"


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 5
    settings.LAB_YIELD_SECONDS = 0


def words(pdf: bytes) -> str:
    return " ".join(all_text(pdf, " ").split())


def test_the_report_pdf_holds_the_study_beside_the_real_plays(designer, client):
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    draft3 = builtin(GAME, "Amnesia Stories draft 3")
    top = study_start.start(
        designer, GAME, [draft4, draft3], players=[3], games=5, bots=["sensible"], grid=None, seed=3
    )
    lab_chunks.run_everything(top)
    top.refresh_from_db()
    many_reports(designer, 2, [draft4])
    client.force_login(designer)
    study_page = client.get(reverse("playtests:study", args=[top.pk])).content.decode()
    url = reverse("playtests:ruleset_pdf", args=[draft4.pk])
    assert f"{url}?run={top.pk}" in study_page
    response = client.get(url, {"run": top.pk})
    assert response["Content-Type"] == "application/pdf"
    text = words(response.content)
    assert f"Study #{top.pk}" in text
    said = study_answer.answer(study_reading.view_of(top))
    assert said and all(" ".join(s.split()) in text for s in said)
    assert "Real plays beside the simulation" in text and "Length in minutes" in text
    assert text.count("<svg") == 0 and "Length in moves" in text


def test_a_sweeps_report_pdf_shows_its_figures(designer, client):
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    run = lab_start.start(
        designer,
        GAME,
        draft4,
        players=3,
        games=5,
        bots=["sensible"],
        sweep={"kind": "param", "name": "agreement", "values": [0.3, 0.9]},
    )
    lab_chunks.run_everything(run)
    client.force_login(designer)
    text = words(
        client.get(reverse("playtests:ruleset_pdf", args=[draft4.pk]), {"run": run.pk}).content
    )
    assert f"Study #{run.pk}" in text
    label = study_reading.figure(GAME, study_answer.headline(study_reading.view_of(run))[0])[
        "label"
    ]
    assert label in text


def test_a_studys_pdf_lists_its_player_counts_as_the_language_does(designer, client):
    """The PDF's line under 'Study #N' said 'プレイヤー 3, 4' (the study's page: 'プレイヤー：3、4')."""
    draft4 = builtin(GAME, "Amnesia Stories draft 4")
    draft3 = builtin(GAME, "Amnesia Stories draft 3")
    grid = [{"kind": "param", "name": "agreement", "values": [0.3, 0.9]}]
    top = study_start.start(
        designer, GAME, [draft4, draft3], players=[3, 4], games=5, bots=["sensible"], grid=grid
    )
    lab_chunks.run_everything(top)
    client.force_login(designer)
    url = reverse("playtests:ruleset_pdf", args=[draft4.pk])
    with translation.override("ja"):
        text = words(client.get(url, {"run": top.pk}, HTTP_ACCEPT_LANGUAGE="ja").content)
    # The PDF's text has a space where a Japanese line breaks: read it without spaces.
    packed = text.replace(" ", "")
    assert "プレイヤー3、4" in packed and "3,4" not in packed
    assert "聞き手の一致：0.3、0.9" in packed and "0.3,0.9" not in packed
    text = words(client.get(url, {"run": top.pk}, HTTP_ACCEPT_LANGUAGE="en").content)
    assert "Players 3, 4" in text and "Listeners’ agreement: 0.3, 0.9" in text
