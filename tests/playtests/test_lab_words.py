"""The lab answers in the designer's words: no code name on its pages, its PDF or its sentences
in Portuguese and Japanese (``tests/codenames.py``), figures in their unit and numbers in the
reader's form, a compare page that names its direction, two sweeps compared, a sweep chosen by
label and a wrong name answered with what can be swept, a settled run's bar full."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games.playtests import figures as F
from games.playtests import lab_bounds, lab_chunks, lab_reading, lab_start, lab_words
from games.playtests.models import SimulationRun
from tests.codenames import code_names
from tests.crawl_reading import visible
from tests.pdfs import all_text
from tests.playtests.conftest import builtin

GAME = "amnesia_stories"
LANGUAGES = ["pt-br", "ja"]


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0


def played(user, draft: str, **kw) -> SimulationRun:
    kw.setdefault("players", 3)
    kw.setdefault("bots", ["sensible", "random"])
    kw.setdefault("games", 6)
    run = lab_start.start(user, GAME, builtin(GAME, draft), seed=4, **kw)
    lab_chunks.run_everything(run)
    run.refresh_from_db()
    return run


def clarity(values=(0.3, 0.9)) -> dict:
    return {"kind": "param", "name": "clarity", "values": list(values)}


def seen(client, url: str, language: str, **query) -> str:
    client.cookies["django_language"] = language
    response = client.get(url, query)
    assert response.status_code == 200, url
    return " ".join(visible(response.content.decode()))


@pytest.fixture
def runs(designer):
    """Draft 4 and draft 3, each swept over the bard's clarity, and a plain run of draft 4
    with a changed option and a bot parameter."""
    four = played(designer, "Amnesia Stories draft 4", sweep=clarity())
    three = played(designer, "Amnesia Stories draft 3", sweep=clarity())
    plain = played(
        designer,
        "Amnesia Stories draft 4",
        changed={"red_card_on_all_wrong": False},
        params={"agreement": 0.8},
    )
    return {"four": four, "three": three, "plain": plain}


# SQLite only (tests/conftest.py): it reads the words the lab's views render, in three
# languages, and the lab's own tests (test_lab.py, test_studies.py...) run on both engines.
@pytest.mark.sqlite_only
def test_the_lab_pages_and_the_report_pdf_in_the_readers_words(designer_client, runs):
    """The runs are played once (30 games) and read by every check below: each built them
    again when it was a test of its own (five times, 150 games)."""
    for language in LANGUAGES:
        no_code_name_on_the_lab_pages_and_the_report_pdf(designer_client, runs, language)
    numbers_and_shares_in_the_readers_form(designer_client, runs)
    compare_names_its_direction_and_two_sweeps_have_common_figures(designer_client, runs)
    the_compare_list_shows_players_and_rulesets_in_words(designer_client, runs)


def no_code_name_on_the_lab_pages_and_the_report_pdf(designer_client, runs, language):
    four, three, plain = runs["four"], runs["three"], runs["plain"]
    detail = "playtests:run_detail"
    pages = {
        "lab": seen(designer_client, reverse("playtests:lab", args=[GAME]), language),
        "run": seen(designer_client, reverse(detail, args=[plain.pk]), language),
        "sweep": seen(
            designer_client, reverse(detail, args=[four.pk]), language, figure="bard_share"
        ),
        "compare sweeps": seen(
            designer_client,
            reverse("playtests:run_compare", args=[four.pk]),
            language,
            other=three.pk,
        ),
        "compare runs": seen(
            designer_client,
            reverse("playtests:run_compare", args=[plain.pk]),
            language,
            other=four.pk,
        ),
        "dashboard": seen(designer_client, reverse("playtests:dashboard", args=[GAME]), language),
    }
    designer_client.cookies["django_language"] = language
    pdf = designer_client.get(
        reverse("playtests:ruleset_pdf", args=[plain.ruleset_id]), {"run": plain.pk}
    )
    pages["report PDF"] = " ".join(all_text(pdf.content, " ").split())
    for name, text in pages.items():
        assert not code_names(text), (language, name, code_names(text))
    # The figures are named in the reader's language, and the rulesets in words.
    with translation.override(language):
        share = str(F.label(GAME, "bard_share"))
        four_words = lab_words.ruleset_words(four.ruleset)
    assert share in pages["run"] and share in pages["sweep"] and share in pages["report PDF"], (
        language
    )
    assert four_words in pages["run"] and "@" not in pages["run"], language


def numbers_and_shares_in_the_readers_form(designer_client, runs):
    plain = runs["plain"]
    text = seen(designer_client, reverse("playtests:run_detail", args=[plain.pk]), "pt-br")
    # Shares as percentages, never as 0.286; no decimal point in Portuguese.
    assert not re.search(r"(?<![\d.])0\.\d(?!\.)", text), text  # (the app version 0.1.0 aside)
    share = plain.figures["bard_share"]
    with translation.override("pt-br"):
        shown = F.show_figure(GAME, "bard_share", share)
    assert "%" in shown and shown in text
    moves = plain.figures["moves"]["value"]
    with translation.override("pt-br"):
        assert F.number(5.32) == "5,32"
        assert F.show(GAME, "moves", moves) in text


def compare_names_its_direction_and_two_sweeps_have_common_figures(designer_client, runs):
    four, three = runs["four"], runs["three"]
    url = reverse("playtests:run_compare", args=[four.pk])
    text = seen(designer_client, url, "en", other=three.pk)
    assert "Amnesia Stories draft 3, version 1 against Amnesia Stories draft 4, version 1" in text
    assert "at 3 players" in text
    assert f"Each difference is run #{three.pk} less run #{four.pk}" in text
    assert "No figure in common yet." not in text
    # One section a swept value, each with the figures in common.
    sections = lab_reading.compare_sections(four, three)
    assert len(sections) == 2 and all(s["rows"] for s in sections)
    assert "The bard’s clarity: 0.3" in sections[0]["title"]
    body = designer_client.get(url, {"other": three.pk}).content.decode()
    assert f'href="{reverse("playtests:run_compare", args=[three.pk])}?other={four.pk}"' in body


def test_a_difference_reads_the_same_way_in_its_sentence_and_its_cell():
    up = {"value": 0.023, "low": 0.014, "high": 0.031, "n": 500}
    down = {"value": -0.023, "low": -0.031, "high": -0.014, "n": 500}
    with translation.override("en"):
        assert lab_words.said(GAME, "bard_share", up) == (
            "The bard’s share of the points: 2.3 points higher (1.4 points to 3.1 points)."
        )
        assert F.show_difference(GAME, "bard_share", up).startswith("+2.3")
        assert lab_words.said(GAME, "bard_share", down).startswith(
            "The bard’s share of the points: 2.3 points lower"
        )
        assert F.show_difference(GAME, "bard_share", down).startswith("−2.3")


def the_compare_list_shows_players_and_rulesets_in_words(designer_client, runs):
    plain = runs["plain"]
    text = seen(designer_client, reverse("playtests:run_detail", args=[plain.pk]), "en")
    assert f"#{runs['three'].pk} Amnesia Stories draft 3, version 1, 3 players" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sweep_is_chosen_by_label_and_a_wrong_name_listed_in_words(designer_client, language):
    url = reverse("playtests:lab", args=[GAME])
    designer_client.cookies["django_language"] = language
    body = designer_client.get(url).content.decode()
    with translation.override(language):
        clarity_label = lab_words.param_label(GAME, "clarity")
        meaning = lab_words.param_meaning(GAME, "clarity")
    assert f'<option value="clarity">{clarity_label}</option>' in body.replace("&#x27;", "'")
    assert meaning in body
    response = designer_client.post(
        url,
        {
            "players": 3,
            "games": 3,
            "bots": "sensible",
            "seed": 1,
            "sweep_name": "bard_pionts",
            "sweep_values": "1,2",
        },
    )
    assert response.status_code == 400 and not SimulationRun.objects.exists()
    text = " ".join(visible(response.content.decode()))
    with translation.override(language):
        expected = lab_words.unknown_setting(GAME, "bard_pionts")
    assert expected in text and clarity_label in expected
    assert not code_names(expected.replace("bard_pionts", "")), expected


def test_a_settled_run_fills_its_bar(designer, designer_client):
    run = lab_start.start(designer, GAME, None, players=3, games=9, bots=["sensible"], seed=2)
    lab_chunks.play_chunk(run.pk, 0)
    lab_chunks.cancel(run)
    run.refresh_from_db()
    assert run.status == "partial" and run.games_done == 3
    body = designer_client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    bar = re.search(r"<progress[^>]*>", body).group(0)
    assert 'max="3"' in bar and 'value="3"' in bar


def test_a_bot_parameter_out_of_range_is_said_by_its_label(designer):
    with translation.override("pt-br"):
        with pytest.raises(lab_bounds.LabError) as refused:
            lab_start.start(
                designer, GAME, None, players=3, games=3, bots=["sensible"], params={"clarity": 2}
            )
        text = str(refused.value)
        label = lab_words.param_label(GAME, "clarity")
    assert text == f"{label} vai de 0 a 1: 2 não é um dos seus valores.", text
    assert not code_names(text), text


@pytest.mark.parametrize(("language", "written"), [("pt-br", "%d/%m/%Y"), ("ja", "%Y/%m/%d")])
def test_the_playtests_days_in_the_readers_form(designer, designer_client, language, written):
    from tests.playtests.conftest import many_reports

    table = many_reports(designer, 1, [builtin(GAME, "Amnesia Stories draft 4")])[0]
    day = timezone.localdate(table.finished_at)
    text = seen(designer_client, reverse("playtests:dashboard", args=[GAME]), language)
    assert day.strftime(written) in text and day.isoformat() not in text
