"""Impressions sent through the public form are kept ``PLAYTEST_IMPRESSION_DAYS`` days, then
``purge_impressions`` deletes them; those of tables played in the app stay with their report."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.playtests.models import ExternalReport, Impression
from games.playtests.service import ensure_report

from .conftest import finished_table

pytestmark = pytest.mark.django_db

RATINGS = dict(fun=4, length=3, clarity=5, downtime=4, decisions=3, again=5)


def sent(days_ago: int, *names: str) -> ExternalReport:
    """A report sent through the public form ``days_ago`` days ago, with one impression a name."""
    report = ExternalReport.objects.create(
        game="amnesia", played_on=date(2024, 1, 1), players=3, duration_minutes=40, ip_hash="x"
    )
    # submitted_at is set on creation: moved back afterwards.
    ExternalReport.objects.filter(pk=report.pk).update(
        submitted_at=timezone.now() - timedelta(days=days_ago)
    )
    for name in names:
        Impression.objects.create(external=report, player=name, change="x", **RATINGS)
    return report


def purge(*args: str) -> str:
    out = StringIO()
    call_command("purge_impressions", *args, stdout=out)
    return out.getvalue()


def players() -> set[str]:
    return set(Impression.objects.values_list("player", flat=True))


def test_the_default_keeps_two_years():
    assert settings.PLAYTEST_IMPRESSION_DAYS == 730


def test_old_public_impressions_go_and_the_rest_stay(gm):
    old = sent(731, "Old Ann", "Old Bob")
    sent(729, "Recent Cy")
    table = finished_table(gm, "amnesia/11_finale_and_end_story")
    # A table's impressions stay with its report (its owner answers for them).
    Impression.objects.create(report=ensure_report(table), player="Ana", **RATINGS)
    assert "2 impression(s) older than 730 days to delete" in purge("--dry-run")
    assert players() == {"Old Ann", "Old Bob", "Recent Cy", "Ana"}
    assert "2 impression(s) older than 730 days deleted" in purge()
    assert players() == {"Recent Cy", "Ana"}
    assert ExternalReport.objects.filter(pk=old.pk).exists()  # its counts still count
    assert purge().startswith("0 impression(s)")


def test_the_setting_and_the_option_set_the_time(settings):
    sent(40, "Dora")
    sent(10, "Elio")
    settings.PLAYTEST_IMPRESSION_DAYS = 30
    purge()
    assert players() == {"Elio"}
    purge("--days", "5")
    assert players() == set()
    with pytest.raises(CommandError):
        purge("--days", "-1")
