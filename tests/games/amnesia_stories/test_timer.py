"""The answer timer: about a minute from the telling, the same on every screen and after a
reload (its start is kept on the server), adjustable per table, and never answering for
anyone."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.amnesia_stories.models import AnswerTimer
from games.models import Table
from games.services import reading, writing
from tests.games.amnesia_stories.pages import new_table, seen, tell

pytestmark = pytest.mark.django_db


def ends(html: str) -> int | None:
    found = re.search(r'data-answer-timer[^>]*data-seconds="(\d+)" data-ends="(\d+)"', html)
    return int(found.group(2)) if found else None


def seconds(html: str) -> int:
    return int(re.search(r'data-answer-timer[^>]*data-seconds="(\d+)"', html).group(1))


def pages(client, table) -> list[str]:
    """The table page, its partial, the projector, and the answer screen of the last seat."""
    last = table.seats.order_by("-position").first().position
    return [
        client.get(table.get_absolute_url()).content.decode(),
        client.get(table.get_absolute_url(), HTTP_HX_REQUEST="true").content.decode(),
        client.get(reverse("amnesia_stories:projector", args=[table.pk])).content.decode(),
        client.get(reverse("amnesia_stories:answer", args=[table.pk, last])).content.decode(),
    ]


def test_the_timer_runs_from_the_telling_on_every_screen_and_after_a_reload(gm_client):
    table = new_table(gm_client)
    assert all(ends(html) is None for html in pages(gm_client, table))  # nothing to answer yet
    tell(gm_client, table)
    told = reading.live_moves(table)[-1].at
    expected = int((told + timedelta(seconds=60)).timestamp() * 1000)
    first = pages(gm_client, table)
    assert [ends(html) for html in first] == [expected] * 4  # every screen
    assert "About 60 seconds to answer from the telling." in first[0]
    # a reload later shows the same end (the start is the server's, not the browser's)
    assert [ends(html) for html in pages(gm_client, table)] == [expected] * 4
    # the timer script is served to both screens, and the page holds no inline script
    for html in first[0], first[2], first[3]:
        assert "amnesia_stories/timer.js" in html


def test_the_timer_is_set_on_the_new_table_form_and_can_be_switched_off(gm_client):
    form = gm_client.get(reverse("games:table_new") + "?game=amnesia_stories").content.decode()
    assert re.search(r'name="answer_seconds"[^>]*value="60"', form)
    table = new_table(gm_client, answer_seconds=90)
    assert AnswerTimer.objects.get(table=table).seconds == 90
    tell(gm_client, table)
    assert all(seconds(html) == 90 for html in pages(gm_client, table))
    silent = new_table(gm_client, answer_seconds=0)
    tell(gm_client, silent)
    assert all(ends(html) is None for html in pages(gm_client, silent))
    response = gm_client.post(
        reverse("games:table_new"),
        {"game": "amnesia_stories", "players": "A\nB\nC", "answer_seconds": 9999},
    )
    assert response.status_code == 400


def test_the_table_page_adjusts_and_restarts_it(gm_client, other_client):
    table = new_table(gm_client)
    tell(gm_client, table)
    before = ends(pages(gm_client, table)[0])
    url = reverse("amnesia_stories:timer", args=[table.pk])
    assert other_client.post(url, {"seconds": 5, "action": "set"}).status_code == 404
    assert gm_client.post(url, {"seconds": 45, "action": "set"}).status_code == 302
    assert ends(pages(gm_client, table)[0]) == before - 15_000
    # started again: from now, on every screen, this turn only
    gm_client.post(url, {"seconds": 45, "action": "restart"})
    timer = AnswerTimer.objects.get(table=table)
    assert timer.restarted_turn == seen(table)["turn_number"]
    again = int((timer.restarted_at + timedelta(seconds=45)).timestamp() * 1000)
    assert [ends(html) for html in pages(gm_client, table)] == [again] * 4
    assert gm_client.post(url, {"seconds": "soon"}).status_code == 302
    assert AnswerTimer.objects.get(table=table).seconds == 45  # unchanged, and said why
    assert "whole number of seconds" in gm_client.get(table.get_absolute_url()).content.decode()


def test_at_the_end_it_only_says_so(gm, gm_client):
    table = new_table(gm_client)
    state = seen(table)
    story = state["journey"][:3]
    long_ago = timezone.now() - timedelta(minutes=5)
    writing.play_many(
        table, [{"by": state["bard"], "do": "tell", "story": story}], None, gm, at=long_ago
    )
    page = gm_client.get(table.get_absolute_url()).content.decode()
    assert "Time is up: finish your answers (no answer is sent for anyone)." in page
    table.refresh_from_db()
    after = seen(table)
    assert after["phase"] == "answer" and after["answered"] == []
    assert Table.objects.get(pk=table.pk).last_seq == table.last_seq
