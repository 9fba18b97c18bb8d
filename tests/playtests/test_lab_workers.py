"""A lab run played by two real ``manage.py worker --queues long`` processes: each takes
chunks off the queue, and the run's figures are those of the same games played in one go."""

from __future__ import annotations

import pytest

from games.playtests import lab_chunks, lab_start
from games.playtests.models import SimulationChunk, SimulationRun
from games.simulate import figures as F
from games.simulate.engine import run as engine_run
from tests.playtests.conftest import builtin
from tests.workers import start_worker, stop, wait_for, worker_env

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_real_workers_share_a_run_and_give_the_figures_of_one(designer, settings, tmp_path):
    settings.LAB_CHUNK_GAMES = 2
    run = lab_start.start(
        designer,
        "amnesia_stories",
        builtin("amnesia_stories", "Amnesia Stories draft 4"),
        players=4,
        games=8,
        bots=["sensible", "random"],
        seed=21,
    )
    log = tmp_path / "workers.log"
    env = worker_env(LAB_YIELD_SECONDS="0")
    workers = [start_worker(env, "--queues", "long", log=log) for _ in range(2)]
    try:
        wait_for(
            lambda: SimulationRun.objects.filter(pk=run.pk, status="done").exists(),
            "the run done by the workers",
            log=log,
        )
    finally:
        for worker in workers:
            stop(worker)
    run.refresh_from_db()
    assert SimulationChunk.objects.filter(run=run).count() == 4
    assert all(c.worker for c in SimulationChunk.objects.filter(run=run))
    expected = F.summarize(engine_run(lab_chunks.spec_of(run)).records, 21)
    assert run.games_done == 8 and run.figures == expected
