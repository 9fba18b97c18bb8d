"""A long run for the tests (the simulations to come are the real ones): it holds its worker
at a pause point until the test lets it go, as a run of thousands of games would hold it."""

from __future__ import annotations

from django.tasks import task

from amnesia_site.workers.work import LONG, beat, pause_at


@task(queue_name=LONG)
def hold(name: str) -> str:
    beat()
    pause_at(name)
    return "done"
