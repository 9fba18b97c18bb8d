"""Playtest fixtures: golden scripts with `at` timestamps, finished tables, many reports fast."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from games.models import Ruleset, Seat, Table
from games.playtests import reports as playtest
from games.playtests.models import DESIGNERS_GROUP, Impression, PlaytestReport
from games.services import new_tables
from tests.stories.conftest import weasyprint_once  # noqa: F401 - a fixture, for the report PDFs

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
T0 = datetime(2026, 3, 14, 19, 0, tzinfo=UTC)


def golden(name: str) -> dict:
    """The script of a golden file, e.g. ``golden("amnesia/11_finale_and_end_story")``."""
    return copy.deepcopy(json.loads((SCRIPTS / f"{name}.json").read_text("utf-8"))["script"])


def with_times(script: dict, gaps: dict[int, int] | None = None, every: int = 60) -> dict:
    """Stamp each move ``every`` seconds after the one before; ``gaps[i]`` overrides the gap
    between move i-1 and move i."""
    stamp = T0
    for i, move in enumerate(script["moves"]):
        if i:
            stamp += timedelta(seconds=(gaps or {}).get(i, every))
        move["at"] = stamp.isoformat()
    return script


def finished_table(owner, name: str, gaps=None, every: int = 60, **fields) -> Table:
    table = new_tables.import_script(with_times(golden(name), gaps, every), owner)
    assert table.status == Table.Status.FINISHED, name
    for key, value in fields.items():
        setattr(table, key, value)
    if fields:
        table.save(update_fields=list(fields))
    return table


@pytest.fixture(autouse=True)
def intervals_once(monkeypatch):
    """A figure's interval (``games.simulate.figures.interval_of``: SciPy's bootstrap or exact
    binomial interval, seeded) worked out once a run for the same values and seed
    (tests/memo.py: once per ``make test``, across its workers and both engines, whose seeded
    games agree): the lab's tests simulate the same runs again and again (a run in chunks and
    whole, a study's cells and their comparisons, each on SQLite and PostgreSQL), and the
    bootstrap was most of a run's time. The first time for real; a handful of values is
    always worked out (cheap). tests/simulate/ tests the function itself."""
    import json

    from games.simulate import figures
    from tests.memo import remember

    real = figures.interval_of

    def kept(values: list, seed: int) -> dict:
        if len(values) < figures.HANDFUL:
            return real(values, seed)
        (made,) = remember(
            "interval", repr((values, seed)), lambda: (json.dumps(real(values, seed)).encode(),)
        )
        return json.loads(made)

    monkeypatch.setattr(figures, "interval_of", kept)


@pytest.fixture
def designer(db, django_user_model):
    user = django_user_model.objects.create_user(username="designer", password="pw-designer-1")
    group, _created = Group.objects.get_or_create(name=DESIGNERS_GROUP)
    user.groups.add(group)
    return user


def page_in(client, url: str, language: str) -> str:
    """``url``'s page as a reader of ``language`` gets it (their browser's language, and the
    translations of ``language`` active while the test reads it)."""
    from django.utils import translation

    with translation.override(language):
        return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.fixture
def designer_client(designer, client):
    client.force_login(designer)
    return client


def builtin(game: str, name: str) -> Ruleset:
    return Ruleset.objects.get(game=game, name=name, version=1)


def newest(game: str, name: str) -> Ruleset:
    """The version the new-table form offers: the newest of each ruleset."""
    return Ruleset.objects.filter(game=game, name=name).order_by("-version").first()


AMNESIA_STORIES_FIGURES: dict = {}


def amnesia_stories_figures() -> dict:
    """The figures of a finished Amnesia Stories golden game, computed once per process."""
    if not AMNESIA_STORIES_FIGURES:
        from games.rules.script import parse_script

        setup, moves = parse_script(with_times(golden("amnesia_stories/01_judging_branches")))
        AMNESIA_STORIES_FIGURES.update(playtest.figures(setup, moves))
    return copy.deepcopy(AMNESIA_STORIES_FIGURES)


def many_reports(
    owner,
    count: int,
    rulesets: list[Ruleset],
    impressions: int = 2,
    sharing: str = Table.ReportSharing.NAMES,
) -> list[Table]:
    """``count`` finished tables with cached reports, written in bulk (no replay per table).

    Their figures are a real game's, with the seats rotated and the duration varied, so the
    dashboard's statistics have something to chew on. Their owner shares their reports with
    the designers (``sharing``), as a playtest meant for the dashboard does.
    """
    base = amnesia_stories_figures()
    names = base["participants"]
    tables = Table.objects.bulk_create(
        Table(
            name=f"Playtest {i}",
            game="amnesia_stories",
            owner=owner,
            options=rulesets[i % len(rulesets)].options,
            ruleset=rulesets[i % len(rulesets)],
            start_player=names[i % 3],
            status=Table.Status.FINISHED,
            started_at=T0,
            finished_at=T0 + timedelta(minutes=30 + i % 17),
            last_seq=12,
            report_sharing=sharing,
        )
        for i in range(count)
    )
    Seat.objects.bulk_create(
        Seat(table=t, position=p, name=n) for t in tables for p, n in enumerate(names)
    )
    reports = []
    for i, table in enumerate(tables):
        fig = copy.deepcopy(base)
        shift = i % 3
        fig["seat_order"] = names[shift:] + names[:shift]
        fig["duration_seconds"] = (30 + i % 17) * 60
        reports.append(
            PlaytestReport(
                table=table,
                figures=fig,
                computed_seq=12,
                computed_version=playtest.FIGURES_VERSION,
                computed_at=T0,
            )
        )
    reports = PlaytestReport.objects.bulk_create(reports)
    Impression.objects.bulk_create(
        Impression(
            report=r,
            player=names[k],
            fun=1 + (i + k) % 5,
            length=3,
            clarity=4,
            downtime=2 + k,
            decisions=5,
            again=1 + i % 5,
            change="fewer steps" if k == 0 else "",
        )
        for i, r in enumerate(reports)
        for k in range(impressions)
    )
    return tables
