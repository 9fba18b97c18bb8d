"""The narrator's clock stands still while a contest is played (the seed: about a minute of
narration "minus the time it takes to perform any contests"), and every screen computes the
same remaining time from the times the server stamped on the moves."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games.contest.clock import narration_time
from games.services import new_tables, writing

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_the_clock_runs_in_the_story_and_stands_still_in_a_contest() -> None:
    # control given at 0; a challenge at 20 (response); accepted, played, paid; story at 320
    phases = ["story", "response", "contest", "penalty", "story"]
    times = [at(0), at(20), at(40), at(200), at(320)]
    clock = narration_time(0, phases, times, at(330))
    assert (clock.elapsed, clock.paused) == (30, False)
    # during the contest: 20 seconds counted, however long it lasts
    for now in (at(41), at(319), at(3600)):
        clock = narration_time(0, phases[:3], times[:3], now)
        assert (clock.elapsed, clock.paused) == (20, True)
    # two contests, and moves of the story (pretzels) that do not stop it
    phases = ["story", "story", "response", "story", "response", "heal", "story"]
    times = [at(0), at(5), at(10), at(70), at(80), at(90), at(100)]
    assert narration_time(0, phases, times, at(110)).elapsed == 10 + 10 + 10
    # control taken back in the middle of a contest phase list: counts from that move on
    assert narration_time(3, phases, times, at(110)).elapsed == 10 + 10


@pytest.mark.django_db
def test_the_page_leaves_the_contest_out_and_says_the_clock_stands_still(gm, gm_client):
    table = new_tables.create_table(gm, "contest", ["Ana", "Bo"], deck_mode="physical")
    start = timezone.now() - timedelta(seconds=330)

    def play(move, seconds):
        writing.play_many(table, [move], None, gm, at=start + timedelta(seconds=seconds))

    for by, name in (("Ana", "Zed"), ("Bo", "Yum")):
        move = {"by": by, "do": "character", "name": name}
        play({**move, "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}, 0)
    challenge = {"do": "challenge", "target": "Bo", "contest": "darts", "attribute": "moves"}
    play({"by": "Ana", **challenge, "named": True}, 20)

    page = gm_client.get(table.get_absolute_url()).content.decode()
    clock = re.search(
        r'<div class="countdown paused"[^>]*data-elapsed="(\d+)"[^>]*data-paused', page
    )
    assert clock and clock.group(1) == "20", "five minutes later, still 20 seconds counted"
    assert "stands still while the contest is played: 40 seconds left" in page

    play({"by": "Bo", "do": "forfeit", "penalty": "drink"}, 320)  # the contest is over
    page = gm_client.get(table.get_absolute_url()).content.decode()
    elapsed = int(re.search(r'data-countdown[^>]*data-elapsed="(\d+)"', page).group(1))
    assert 30 <= elapsed <= 32  # 20 before the contest, 10 since (not 330)
    assert "data-paused " not in page and "data-paused>" not in page
    assert "Others may take control after" in page
