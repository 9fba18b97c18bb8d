"""What one person may ask of the lab's long workers, at the lab's own pages: the games of a
run (a sweep's values together) and of everything they have queued are bounded, a cancel takes
the run's chunks off the queue at once, and a run's time budget is its own working time, never
its time waiting in the queue (whose place it shows meanwhile)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.workers import work
from games.playtests import lab_chunks
from games.playtests.models import DESIGNERS_GROUP, SimulationChunk, SimulationRun
from tests.playtests.conftest import builtin
from tests.workers import run_queued

GAME = "amnesia_stories"
LAB = reverse("playtests:lab", args=[GAME])


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.LAB_CHUNK_GAMES = 3
    settings.LAB_YIELD_SECONDS = 0  # no table is in play here


def form(games: int, **extra) -> dict:
    return {
        "ruleset": builtin(GAME, "Amnesia Stories draft 4").pk,
        "players": 4,
        "games": games,
        "bots": "random",
        "seed": 1,
        **extra,
    }


SWEEP = {"sweep_name": "bard_points", "sweep_values": "1,2,3,4,5,6,7,8,9"}


def queued_chunks() -> int:
    return DBTaskResult.objects.filter(queue_name=work.LONG, status=TaskResultStatus.READY).count()


def test_a_sweep_past_the_run_bound_is_refused_in_words(designer, client, settings):
    settings.LAB_MAX_RUN_GAMES = 100
    client.force_login(designer)
    # 20 games a value is within a value's bound; nine values make 180, past the run's.
    response = client.post(LAB, form(20, **SWEEP))
    assert response.status_code == 400
    assert "A run plays at most 100 games, all the values of a sweep together" in (
        response.content.decode()
    )
    assert "this one asks for 180." in response.content.decode()
    assert not SimulationRun.objects.exists() and queued_chunks() == 0
    # In the reader's language, with their thousands separator.
    settings.LAB_MAX_RUN_GAMES = 1000
    response = client.post(LAB, form(2000), HTTP_ACCEPT_LANGUAGE="pt-br")
    assert "no máximo 1.000 partidas" in response.content.decode()
    response = client.post(LAB, form(2000), HTTP_ACCEPT_LANGUAGE="ja")
    assert "最大1,000ゲーム" in response.content.decode()
    # Within it, the sweep starts.
    assert client.post(LAB, form(11, **SWEEP)).status_code == 302
    assert SimulationRun.objects.filter(parent__isnull=False).count() == 9


def test_the_games_one_person_has_queued_are_bounded(designer, client, settings):
    settings.LAB_MAX_RUN_GAMES = 0  # only the person's bound
    settings.LAB_MAX_QUEUED_GAMES = 30
    client.force_login(designer)
    response = client.post(LAB, form(31))
    assert response.status_code == 400
    assert "At most 30 simulated games may wait for you at once" in response.content.decode()
    assert not SimulationRun.objects.exists() and queued_chunks() == 0
    assert client.post(LAB, form(30)).status_code == 302
    assert queued_chunks() == 10


def test_cancel_takes_the_runs_chunks_off_the_queue(designer, client):
    client.force_login(designer)
    assert client.post(LAB, form(9, **SWEEP)).status_code == 302
    run = SimulationRun.objects.get(parent__isnull=True)
    assert queued_chunks() == 27
    # A worker has taken one chunk already: that one finishes, the others never run.
    taken = DBTaskResult.objects.filter(queue_name=work.LONG).order_by("enqueued_at").first()
    DBTaskResult.objects.filter(pk=taken.pk).update(status=TaskResultStatus.RUNNING)
    response = client.post(reverse("playtests:run_cancel", args=[run.pk]))
    assert response.status_code == 302
    assert queued_chunks() == 0
    assert DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).count() == 1
    run.refresh_from_db()
    assert run.status == "cancelled"
    # Another designer's queued run is left alone.
    second = designer.__class__.objects.create_user(username="second-designer")
    second.groups.add(Group.objects.get(name=DESIGNERS_GROUP))
    client.force_login(second)
    assert client.post(LAB, form(6)).status_code == 302
    client.force_login(designer)
    assert client.post(LAB, form(3)).status_code == 302
    mine = SimulationRun.objects.filter(owner=designer, status="queued").get()
    client.post(reverse("playtests:run_cancel", args=[mine.pk]))
    assert queued_chunks() == 2  # the second designer's two chunks


def test_a_run_queued_behind_another_plays_and_shows_its_place(designer, client, settings):
    settings.LAB_BUDGET_SECONDS = 60
    first = designer.__class__.objects.create_user(username="first-designer")
    first.groups.add(Group.objects.get(name=DESIGNERS_GROUP))
    client.force_login(first)
    assert client.post(LAB, form(3)).status_code == 302
    client.force_login(designer)
    assert client.post(LAB, form(3)).status_code == 302
    mine = SimulationRun.objects.get(owner=designer)
    page = client.get(reverse("playtests:run_detail", args=[mine.pk])).content.decode()
    assert "Waiting its turn: number 2 in line, behind 1 run." in page
    ja = client.get(reverse("playtests:run_detail", args=[mine.pk]), HTTP_ACCEPT_LANGUAGE="ja")
    assert "順番待ち：2番目" in ja.content.decode()
    # It waited in the queue far longer than its budget, behind the other run.
    SimulationRun.objects.filter(pk=mine.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert run_queued((work.LONG,)) == 2
    mine.refresh_from_db()
    assert (mine.status, mine.games_done, mine.error) == ("done", 3, "")
    page = client.get(reverse("playtests:run_detail", args=[mine.pk])).content.decode()
    assert "in line" not in page


def test_the_budget_counts_the_runs_own_working_time(designer, client, settings):
    settings.LAB_BUDGET_SECONDS = 5
    client.force_login(designer)
    assert client.post(LAB, form(9)).status_code == 302
    run = SimulationRun.objects.get()
    page = client.get(reverse("playtests:run_detail", args=[run.pk])).content.decode()
    assert "Waiting its turn: next in line." in page
    # A worker plays its first chunk, which took (say) its whole budget of the worker's time.
    first = DBTaskResult.objects.filter(queue_name=work.LONG).order_by("enqueued_at").first()
    lab_chunks.play_chunk(run.pk, 0)
    DBTaskResult.objects.filter(pk=first.pk).update(status=TaskResultStatus.SUCCESSFUL)
    SimulationChunk.objects.filter(run=run).update(seconds=5)
    # The next chunk stops the run, and takes the last one off the queue.
    assert run_queued((work.LONG,)) == 1
    run.refresh_from_db()
    assert (run.status, run.games_done, run.error) == ("partial", 3, "budget")
    assert queued_chunks() == 0


def test_chunks_left_by_a_stopped_run_go_with_the_first_one_taken(designer, client):
    """Chunks a run left queued when it stopped (as cancels did before they took them off):
    the worker that takes one takes the rest off the queue, it does not run each for nothing."""
    client.force_login(designer)
    assert client.post(LAB, form(9)).status_code == 302
    SimulationRun.objects.update(status="cancelled")
    assert queued_chunks() == 3
    assert run_queued((work.LONG,)) == 1
    assert queued_chunks() == 0
