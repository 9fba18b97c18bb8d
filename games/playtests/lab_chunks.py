"""A lab run's chunks on the workers: each played by a task of the ``long`` queue
(:func:`simulate_chunk`), kept once, merged into the run's figures; a run cancelled or past its
budget stopped; a sweep's own row settled with its children.

Game ``i`` is seeded from the run's seed and ``i`` (the engine's ``derive``), a chunk's records
are stored once (``SimulationChunk``: the index is unique per run), and the figures are always
computed from all stored records in index order: so a run split over two workers gives the same
figures as one worker.

Cancel: a flag on the run, and its chunks not yet taken by a worker are taken off the queue
at once (their task rows deleted); a chunk in play finishes and its games are kept; the run is
marked partial (cancelled if nothing was played). A run past its time budget stops the same
way, partial. The budget counts the run's own working time (the seconds its chunks took on the
workers, all the values of a sweep together), never the time it waited in the queue.

Yielding to tables in play: before each game a chunk looks (at most once a second) for a move
made at any table in the last ``LAB_YIELD_SECONDS`` (the newest row of the move log, by its
primary key: one indexed read); while there is one it sleeps ``LAB_YIELD_PAUSE`` seconds at a
time, saying it is alive (as it does at each look), for at most ``LAB_YIELD_MAX`` seconds per game, so the table's
requests get the machine's cores. The seconds waited are kept on the chunk.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.tasks import task
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.workers import work
from games import registry
from games.models import Move
from games.playtests.lab_bounds import ACTIVE, Status, setting
from games.playtests.models import SimulationChunk, SimulationRun
from games.simulate import figures as F
from games.simulate import holes
from games.simulate.engine import Spec, play_game
from games.simulate.skill import RESTRICTED


# -- the chunks -------------------------------------------------------------------------------
def spec_of(run: SimulationRun) -> Spec:
    kit = registry.kit(run.game)
    return Spec(
        referee=kit.referee,
        classes=dict(kit.bots),
        figures=kit.bot_figures,
        trace=kit.bot_trace,
        value=kit.bot_value,
        # The run's options as stored, each one it does not name at the game's default (a
        # run kept from before an option existed plays, and opens, all the same).
        options={
            **{name: option.default for name, option in kit.referee.options.items()},
            **run.options,
        },
        players=run.players,
        bots=list(run.bots),
        params=dict(run.params),
        seed=run.seed,
        games=run.games_asked,
        restricted=_restricted(run),
    )


def _restricted(run: SimulationRun) -> dict[str, dict[str, Any]]:
    """A study's cell with a restricted seat (``study_start.start``): that bot's rule, which the
    study's own row keeps ({"bot", "verb", "field", "value"})."""
    if RESTRICTED not in run.bots or run.parent_id is None:
        return {}
    spec = SimulationRun.objects.filter(pk=run.parent_id).values_list("sweep", flat=True).first()
    rule = (spec or {}).get("restriction")
    return {RESTRICTED: rule} if rule else {}


class _Yield:
    """Waits while a table is in play (see the module's docstring)."""

    def __init__(self) -> None:
        self.checked = 0.0
        self.waited = 0.0

    def busy(self) -> bool:
        recent = setting("LAB_YIELD_SECONDS", 10)
        if recent <= 0:
            return False
        last = Move.objects.order_by("-pk").values_list("at", flat=True).first()
        return last is not None and last >= timezone.now() - timedelta(seconds=recent)

    def __call__(self) -> None:
        now = time.monotonic()
        if now - self.checked < 1.0:
            return
        self.checked = now
        # The worker says it is alive here, once a second (a write to the database: once a
        # game it cost a contest study some 2% of its time, and every other writer a lock).
        work.beat()
        most = setting("LAB_YIELD_MAX", 30)
        pause = setting("LAB_YIELD_PAUSE", 0.5)
        began = now
        while self.busy() and time.monotonic() - began < most:
            time.sleep(pause)
            work.beat()
        self.waited += time.monotonic() - began
        self.checked = time.monotonic()


def _drop_queued_chunks(run_ids: list[int]) -> int:
    """Delete the runs' chunk tasks no worker has taken yet (a worker that takes one meanwhile
    keeps it: only rows still ready go); how many were deleted."""
    deleted, _kinds = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        queue_name=work.LONG,
        task_path=simulate_chunk.module_path,
        args_kwargs__args__0__in=run_ids,
    ).delete()
    return deleted


def _stop(run: SimulationRun, why: str = "") -> None:
    """Mark an active run stopped: partial with games kept, cancelled without; its chunks
    still queued are taken off the queue."""
    with transaction.atomic():
        row = SimulationRun.objects.select_for_update().get(pk=run.pk)
        _drop_queued_chunks([row.pk])
        if row.status not in ACTIVE:
            return
        row.status = Status.PARTIAL if row.games_done else Status.CANCELLED
        row.finished_at = timezone.now()
        row.error = why
        row.save(update_fields=["status", "finished_at", "error"])
    if row.games_done:
        merge(row.pk, force=True)  # the figures of every game kept, not those of a while ago
    if row.parent_id:
        _sweep_settled(row.parent_id)


def working_seconds(run: SimulationRun) -> float:
    """The seconds the run's kept chunks took on the workers (a sweep's: all its values'),
    the time the run waited in the queue not counted."""
    top = run.parent_id or run.pk
    chunks = SimulationChunk.objects.filter(Q(run_id=top) | Q(run__parent_id=top))
    return float(chunks.aggregate(s=Sum("seconds"))["s"] or 0.0)


def past_budget(run: SimulationRun) -> bool:
    return working_seconds(run) >= run.budget_seconds


def place_in_line(run: SimulationRun) -> int:
    """Where a queued run is in the long queue: 1 when no other run is ahead of it (the runs
    queued or running before it, whoever's; a chunk is taken in the order queued)."""
    ahead = SimulationRun.objects.filter(parent__isnull=True, status__in=ACTIVE, pk__lt=run.pk)
    return ahead.count() + 1


def play_chunk(run_id: int, index: int) -> None:
    """Play chunk ``index`` of the run and keep its records once; the run's figures merged."""
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None or run.status not in ACTIVE:
        # Chunks left queued by a run gone or stopped (deleted meanwhile, or cancelled before
        # cancels took them off the queue): the first one taken takes the rest off.
        _drop_queued_chunks([run_id])
        return
    if run.cancel_requested:
        _stop(run)
        return
    if past_budget(run):
        _stop(run, "budget")
        return
    if SimulationChunk.objects.filter(run=run, index=index).exists():
        merge(run.pk)
        return
    SimulationRun.objects.filter(pk=run.pk, status=Status.QUEUED).update(
        status=Status.RUNNING, started_at=timezone.now()
    )
    if run.parent_id:
        SimulationRun.objects.filter(pk=run.parent_id, status=Status.QUEUED).update(
            status=Status.RUNNING, started_at=timezone.now()
        )
    began = time.monotonic()
    wait = _Yield()
    spec = spec_of(run)
    first = index * run.chunk_games
    records = []
    try:
        for i in range(first, min(run.games_asked, first + run.chunk_games)):
            wait()
            records.append(play_game(spec, i))
    except Exception as exc:  # a referee or bot error: the run says so, in words
        SimulationRun.objects.filter(pk=run.pk, status__in=ACTIVE).update(
            status=Status.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(),
        )
        raise
    try:
        with transaction.atomic():
            SimulationChunk.objects.create(
                run=run,
                index=index,
                records=records,
                worker=work.current_worker()[:64],
                seconds=time.monotonic() - began,
                yielded_seconds=wait.waited,
            )
    except IntegrityError:  # another worker kept this chunk meanwhile: the same games
        pass
    merge(run.pk)


@task(queue_name=work.LONG)
def simulate_chunk(run_id: int, index: int) -> None:
    play_chunk(run_id, index)


def records_of(run: SimulationRun) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for records in (
        SimulationChunk.objects.filter(run=run).order_by("index").values_list("records", flat=True)
    ):
        out.extend(records)
    out.sort(key=lambda r: r["index"])
    return out


# The figures so far are worked out at most this many times during a run (and always at its
# end, and when it stops): each time reads every kept game and bootstraps every figure.
PROGRESS_MERGES = 20


def merge(run_id: int, force: bool = False) -> None:
    """The run's games done, and its figures from all its kept chunks (in game order) when
    it is one of the PROGRESS_MERGES moments, complete (done), stopped, or ``force``."""
    run = SimulationRun.objects.get(pk=run_id)
    indexes = list(SimulationChunk.objects.filter(run=run).values_list("index", flat=True))
    done = sum(min(run.chunk_games, run.games_asked - i * run.chunk_games) for i in indexes)
    complete = len(indexes) >= run.chunk_count
    step = max(1, -(-run.chunk_count // PROGRESS_MERGES))
    # A study's cell shows no figures before the study's answer: its figures are worked out
    # once, at its end (a merge reads every kept game and bootstraps every figure, which for
    # a thousand games costs as much as playing a chunk).
    progress = len(indexes) % step == 0 and not _in_study(run)
    with_figures = force or complete or progress or run.status not in ACTIVE
    figures: dict | None = None
    findings: list = []
    if with_figures:
        records = records_of(run)
        done = len(records)
        figures = F.summarize(records, run.seed) if records else {}
        label = run.ruleset_label or run.game
        if complete:
            findings = holes.stalls(records, label) + holes.dominance(records, label)
    with transaction.atomic():
        row = SimulationRun.objects.select_for_update().get(pk=run_id)
        if done < row.games_done or (done == row.games_done and figures is None):
            return  # a later merge already counted more games, or nothing new to say
        row.games_done = done
        fields = ["games_done"]
        if figures is not None:
            row.figures = figures
            fields.append("figures")
        if complete and row.status in ACTIVE:
            row.status = Status.DONE
            row.findings = findings
            row.finished_at = timezone.now()
            fields += ["status", "findings", "finished_at"]
        elif row.status == Status.CANCELLED and done:
            row.status = Status.PARTIAL
            fields.append("status")
        if complete and row.status == Status.PARTIAL:
            row.findings = findings
            fields.append("findings")
        row.save(update_fields=fields)
    if row.parent_id:
        _sweep_settled(row.parent_id)


def _in_study(run: SimulationRun) -> bool:
    if run.parent_id is None:
        return False
    return SimulationRun.objects.filter(pk=run.parent_id, sweep__kind="study").exists()


def _sweep_settled(parent_id: int) -> None:
    """A sweep's own row follows its children: games done summed; settled when they are."""
    with transaction.atomic():
        parent = SimulationRun.objects.select_for_update().get(pk=parent_id)
        children = list(parent.children.all())
        parent.games_done = sum(c.games_done for c in children)
        fields = ["games_done"]
        if parent.status in ACTIVE and all(c.status not in ACTIVE for c in children):
            statuses = {c.status for c in children}
            parent.status = (
                Status.DONE
                if statuses == {Status.DONE}
                else Status.FAILED
                if Status.FAILED in statuses
                else Status.PARTIAL
                if parent.games_done
                else Status.CANCELLED
            )
            parent.finished_at = timezone.now()
            fields += ["status", "finished_at"]
        parent.save(update_fields=fields)


def cancel(run: SimulationRun) -> None:
    """Stop the run between chunks: the chunks not started are taken off the queue at once,
    a chunk in play finishes, the games played are kept (partial; cancelled if none)."""
    runs = [run, *run.children.all()]
    with transaction.atomic():
        SimulationRun.objects.filter(pk__in=[each.pk for each in runs]).update(
            cancel_requested=True
        )
        _drop_queued_chunks([each.pk for each in runs])
    for each in runs:
        each.refresh_from_db()
        if each.sweep:
            continue
        _stop(each, "cancelled")
    if run.sweep:
        _sweep_settled(run.pk)


def run_everything(run: SimulationRun) -> None:
    """Play every chunk of a run (and its children) in this process, in order: for tests and
    for a site without a long-run worker's help (``manage.py`` shells)."""
    for each in [run, *run.children.order_by("pk")]:
        for index in range(each.chunk_count):
            play_chunk(each.pk, index)
