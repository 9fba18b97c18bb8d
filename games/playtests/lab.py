"""The designer's lab: simulated runs of a ruleset, off the request, kept and compared.

A run (``SimulationRun``) plays ``games_asked`` games with the game's bots
(``games.simulate``) on the ``long`` queue. It is split into chunks of ``chunk_games`` games;
every chunk is its own task (:func:`simulate_chunk`), so any worker takes any chunk and two
workers share a run. Game ``i`` is seeded from the run's seed and ``i`` (the engine's
``derive``), a chunk's records are stored once (``SimulationChunk``: the index is unique per
run), and the figures are always computed from all stored records in index order: so a run
split over two workers gives the same figures as one worker.

Cancel: a flag on the run, and its chunks not yet taken by a worker are taken off the queue
at once (their task rows deleted); a chunk in play finishes and its games are kept; the run is
marked partial (cancelled if nothing was played). A run past its time budget stops the same
way, partial. The budget counts the run's own working time (the seconds its chunks took on the
workers, all the values of a sweep together), never the time it waited in the queue.

Bounds: a run holds at most LAB_MAX_RUN_GAMES games (a sweep's values together), a person has
at most LAB_MAX_QUEUED_GAMES simulated games queued or running, and one run at a time.

Yielding to tables in play: before each game a chunk looks (at most once a second) for a move
made at any table in the last ``LAB_YIELD_SECONDS`` (the newest row of the move log, by its
primary key: one indexed read); while there is one it sleeps ``LAB_YIELD_PAUSE`` seconds at a
time, saying it is alive (as it does at each look), for at most ``LAB_YIELD_MAX`` seconds per game, so the table's
requests get the machine's cores. The seconds waited are kept on the chunk.

A sweep is a run whose children are ordinary runs, one per value of one option or bot
parameter; its chart draws a figure over the values with its band.
"""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.tasks import task
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from amnesia_site.workers import work
from games import registry
from games.management.commands.simulate import app_version
from games.messages import referee_message
from games.models import Move, Ruleset
from games.playtests import figures as N
from games.playtests import lab_words as words
from games.playtests import questions, service
from games.playtests.models import SimulationChunk, SimulationRun
from games.rules.errors import BadScript
from games.rules.script import parse_setup
from games.simulate import figures as F
from games.simulate import holes
from games.simulate.bots import BadParam, check_params
from games.simulate.engine import Spec, play_game, seat_names
from games.simulate.skill import RESTRICTED

Status = SimulationRun.Status
ACTIVE = (Status.QUEUED, Status.RUNNING)
MAX_GAMES = 20_000  # of one value of a run; LAB_MAX_RUN_GAMES bounds a run's values together
MAX_SWEEP_VALUES = 9


class LabError(ValueError):
    """Bad input for a run, in a sentence for the designer."""


def setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def default_budget() -> int:
    return int(setting("LAB_BUDGET_SECONDS", 600))


def chunk_games() -> int:
    return int(setting("LAB_CHUNK_GAMES", 50))


def grouped(n: int) -> str:
    """A count with the reader's thousands separator (20,000; 20.000)."""
    return number_format(n, force_grouping=True)


def max_run_games() -> int:
    """The most games one run may hold, a sweep's values together (0: no bound but
    MAX_GAMES a value)."""
    return int(setting("LAB_MAX_RUN_GAMES", 20_000))


def max_queued_games() -> int:
    """The most simulated games one person may have queued or running (0: no bound)."""
    return int(setting("LAB_MAX_QUEUED_GAMES", 20_000))


def games_queued(user) -> int:
    """The simulated games the person's runs still have to play (queued or running)."""
    left = 0
    runs = SimulationRun.objects.filter(owner=user, status__in=ACTIVE).exclude(
        sweep__has_key="kind"
    )
    for asked, done in runs.values_list("games_asked", "games_done"):
        left += max(0, asked - done)
    return left


def simulable_games() -> list[str]:
    return [k.slug for k in registry.kits() if k.bots and k.bot_figures is not None]


# -- who sees what ----------------------------------------------------------------------------
def visible_runs(user):
    """The runs a user may see: their own and those shared with them (top-level ones)."""

    if not user.is_authenticated:
        return SimulationRun.objects.none()
    return SimulationRun.objects.filter(
        Q(owner=user) | Q(shared_with=user), parent__isnull=True
    ).distinct()


def running_run(user) -> SimulationRun | None:
    """The designer's run still queued or running (one at a time per designer)."""
    return (
        SimulationRun.objects.filter(owner=user, parent__isnull=True, status__in=ACTIVE)
        .order_by("pk")
        .first()
    )


# -- starting a run ---------------------------------------------------------------------------
def options_for(game: str, ruleset: Ruleset | None, changed: dict, players: int) -> dict:
    options = dict(ruleset.options) if ruleset else {}
    options.update(changed)
    try:
        setup = parse_setup({"game": game, "players": seat_names(players), "options": options})
    except BadScript as exc:
        raise LabError(referee_message(exc)) from None  # in the designer's language
    return setup.options


def check_bots_and_params(game: str, bots: list[str], params: dict) -> dict:
    kit = registry.kit(game)
    if not bots:
        raise LabError(_("Choose at least one bot."))
    for name in bots:
        if name not in kit.bots:
            raise LabError(_("Unknown bot: %(name)s.") % {"name": name})
    classes = [kit.bots[n] for n in dict.fromkeys(bots)]
    known: dict = {}
    for cls in classes:
        known.update(cls.params)
    for name, value in params.items():
        # Said in the designer's language, by the parameter's label (BadParam is English).
        if name not in known:
            raise LabError(words.unknown_setting(game, name, "param"))
        spec = known[name]
        number_ = isinstance(value, int | float) and not isinstance(value, bool)
        if not number_ or not spec.min <= value <= spec.max:
            raise LabError(
                _("%(what)s goes from %(low)s to %(high)s: %(value)s is not one of its values.")
                % {
                    "what": words.param_label(game, name),
                    "low": N.number(spec.min, None),
                    "high": N.number(spec.max, None),
                    "value": words.value_words(game, "param", name, value),
                }
            )
    try:
        return check_params(classes, params)
    except BadParam as exc:
        raise LabError(str(exc)) from None


def start(
    owner,
    game: str,
    ruleset: Ruleset | None,
    *,
    players: int,
    games: int,
    bots: list[str],
    params: dict | None = None,
    changed: dict | None = None,
    seed: int = 1,
    sweep: dict | None = None,
    budget: int | None = None,
) -> SimulationRun:
    """Make the run (and a sweep's children) and queue its chunks on the long queue, in one
    transaction. Refused (LabError) while the designer has a run queued or running."""
    if game not in simulable_games():
        raise LabError(_("This game has no bots, so it cannot be simulated."))
    referee = registry.kit(game).referee
    if not referee.min_players <= players <= referee.max_players:
        raise LabError(
            _("This game is played by %(lo)s to %(hi)s players.")
            % {"lo": referee.min_players, "hi": referee.max_players}
        )
    if not 1 <= games <= MAX_GAMES:
        raise LabError(_("A run plays from 1 to %(n)s games.") % {"n": f"{MAX_GAMES:,}"})
    params = check_bots_and_params(game, bots, params or {})
    changed = dict(changed or {})
    options = options_for(game, ruleset, changed, players)
    label = f"{ruleset.name}@{ruleset.version}" if ruleset else ""
    base = {
        "owner": owner,
        "game": game,
        "ruleset": ruleset,
        "ruleset_label": label,
        "players": players,
        "bots": bots,
        "seed": seed,
        "chunk_games": chunk_games(),
        "budget_seconds": budget or default_budget(),
        "app_version": app_version(),
    }
    children: list[dict] = []
    if sweep:
        values = list(sweep["values"])[:MAX_SWEEP_VALUES]
        if len(values) < 2:
            raise LabError(_("A sweep needs at least two values."))
        for value in values:
            if sweep["kind"] == "option":
                child_changed = {**changed, sweep["name"]: value}
                children.append(
                    {
                        "params": params,
                        "changed": child_changed,
                        "options": options_for(game, ruleset, child_changed, players),
                    }
                )
            else:
                child_params = check_bots_and_params(game, bots, {**params, sweep["name"]: value})
                children.append({"params": child_params, "changed": changed, "options": options})
        sweep = {**sweep, "values": values}
    total = games * max(1, len(children))
    most = max_run_games()
    if most and total > most:
        raise LabError(
            _(
                "A run plays at most %(most)s games, all the values of a sweep together: "
                "this one asks for %(total)s."
            )
            % {"most": grouped(most), "total": grouped(total)}
        )
    with transaction.atomic():
        # One running run per designer: the owner's row is locked while deciding.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        if running_run(owner) is not None:
            raise LabError(_("You already have a run going: wait for it or cancel it."))
        most = max_queued_games()
        queued = games_queued(owner)
        if most and queued + total > most:
            raise LabError(
                _(
                    "At most %(most)s simulated games may wait for you at once: you have "
                    "%(queued)s queued or running, and this run asks for %(total)s."
                )
                % {"most": grouped(most), "queued": grouped(queued), "total": grouped(total)}
            )
        run = SimulationRun.objects.create(
            **base,
            games_asked=games,
            params=params,
            changed=changed,
            options=options,
            sweep=sweep or {},
        )
        runs = [run]
        if children:
            runs = [
                SimulationRun.objects.create(**base, **child, games_asked=games, parent=run)
                for child in children
            ]
        for each in runs:
            for index in range(each.chunk_count):
                simulate_chunk.enqueue(each.pk, index)
    return run


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
    """A study's cell with a restricted seat (``studies.start``): that bot's rule, which the
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


def as_json(run: SimulationRun) -> dict[str, Any]:
    return {
        "id": run.pk,
        "game": run.game,
        "ruleset": run.ruleset_label,
        "players": run.players,
        "games_asked": run.games_asked,
        "games": run.games_done,
        "status": run.status,
        "bots": run.bots,
        "params": run.params,
        "options": run.options,
        "changed": run.changed,
        "sweep": run.sweep,
        "seed": run.seed,
        "app_version": run.app_version,
        "created_at": run.created_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "ruleset_words": words.run_ruleset(run),
        "figures": N.labelled(run.game, run.figures),
        "findings": run.findings,
        "children": [as_json(c) for c in run.children.order_by("pk")],
    }


def as_csv(run: SimulationRun) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["run", "value", "figure", "label", "n", "mean", "low", "high", "kind", "shown"]
    )
    rows = [(run, "")] if not run.sweep else []
    rows += [(c, json.dumps(_swept(run, c))) for c in run.children.order_by("pk")]
    for each, value in rows:
        for name in N.ordered(run.game, each.figures):
            fig = each.figures[name]
            writer.writerow(
                [
                    each.pk,
                    value,
                    name,
                    N.label(run.game, name),
                    fig["n"],
                    fig.get("value"),
                    fig.get("low", ""),
                    fig.get("high", ""),
                    fig["kind"],
                    N.show_figure(run.game, name, fig),
                ]
            )
    return out.getvalue()


def _swept(parent: SimulationRun, child: SimulationRun) -> Any:
    name = parent.sweep.get("name")
    if parent.sweep.get("kind") == "option":
        return child.changed.get(name)
    return child.params.get(name)


def sweep_points(run: SimulationRun, figure: str) -> list[dict[str, Any]]:
    return [
        {"value": _swept(run, c), "child": c, "figure": c.figures.get(figure)}
        for c in run.children.order_by("pk")
    ]


# -- predicted beside measured ----------------------------------------------------------------
MIN_REAL_PLAYS = 5
FDR = 0.05


def real_values(entries: list[dict[str, Any]], run: SimulationRun) -> dict[str, list]:
    """The figures the real plays of the run's ruleset version share with a simulation, at
    the run's number of players: length in moves, the first seat's wins, the margin, and every
    figure of the game's bots computed from the real logs (the report's ``engine``)."""
    values: dict[str, list] = {"moves": [], "seat1.wins": [], "margin": []}
    for e in entries:
        if e.get("kind") != "table" or e.get("ruleset_id") != run.ruleset_id:
            continue
        if e.get("players") != run.players or not e.get("finished"):
            continue
        if e.get("moves") is not None:
            values["moves"].append(float(e["moves"]))
        order, winners = e.get("seat_order") or [], e.get("winners") or []
        if order and winners:
            values["seat1.wins"].append(order[0] in winners)
        if e.get("margin") is not None:
            values["margin"].append(float(e["margin"]))
        # Every other figure the simulation has, computed from the real log the same way.
        for key, value in (e.get("engine") or {}).items():
            if key not in ("moves", "seat1.wins", "margin") and value is not None:
                values.setdefault(key, []).append(value)
    return {k: v for k, v in values.items() if v}


def _pvalue(real: list, expected: float) -> float:
    if all(isinstance(v, bool) for v in real):
        from scipy.stats import binomtest  # SciPy: only when real plays are compared

        return float(binomtest(sum(real), len(real), min(max(expected, 0.0), 1.0)).pvalue)
    if min(real) == max(real):
        return 1.0 if real[0] == expected else 0.0
    from scipy.stats import ttest_1samp  # (see above)

    return float(ttest_1samp(real, expected).pvalue)


def predicted(run: SimulationRun, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Each shared figure: the real plays' value and n beside the simulated band; those
    outside the band pointed out in words, only with at least MIN_REAL_PLAYS plays and when
    the difference holds after the false discovery rate correction over the figures
    compared (``scipy.stats.false_discovery_control``)."""
    real = real_values(entries, run)
    rows = []
    for name, values in sorted(real.items()):
        sim = run.figures.get(name)
        if not sim or sim.get("value") is None:
            continue
        mean = sum(float(v) for v in values) / len(values)
        rows.append(
            {
                "name": name,
                "label": N.label(run.game, name),
                "real_text": N.show(run.game, name, mean),
                "sim_text": N.show_figure(run.game, name, sim),
                "real": mean,
                "n": len(values),
                "sim": sim,
                "outside": "low" in sim and not sim["low"] <= mean <= sim["high"],
                "p": _pvalue(values, sim["value"]),
            }
        )
    if rows:
        from scipy.stats import false_discovery_control  # (see above)

        qs = false_discovery_control([r["p"] for r in rows])
        for row, q in zip(rows, qs, strict=True):
            row["q"] = float(q)
    said = []
    for row in rows:
        row["pointed"] = row["outside"] and row["n"] >= MIN_REAL_PLAYS and row["q"] < FDR
        if row["pointed"]:
            sim = row["sim"]
            change = (row["real"] - sim["value"]) / sim["value"] if sim["value"] else None
            if row["name"] == "moves" and change is not None and change < 0:
                said.append(
                    _(
                        "Real tables end %(pct)s sooner than the simulation (%(real)s moves "
                        "against %(low)s–%(high)s, %(n)s plays): are scenes cut short?"
                    )
                    % {
                        "pct": N.show_share(-change),
                        "real": N.number(row["real"]),
                        "low": N.number(sim["low"]),
                        "high": N.number(sim["high"]),
                        "n": row["n"],
                    }
                )
            else:
                said.append(
                    _(
                        "Real tables give %(figure)s %(real)s, outside the simulated "
                        "%(low)s–%(high)s (%(n)s plays)."
                    )
                    % {
                        "figure": N.label(run.game, row["name"]),
                        "real": N.show(run.game, row["name"], row["real"]),
                        "low": N.show(run.game, row["name"], sim["low"]),
                        "high": N.show(run.game, row["name"], sim["high"]),
                        "n": row["n"],
                    }
                )
    few = 0 < max((r["n"] for r in rows), default=0) < MIN_REAL_PLAYS
    order = N.ordered(run.game, [r["name"] for r in rows])
    rows.sort(key=lambda r: order.index(r["name"]))
    minutes = _minutes_row(run, entries)
    if minutes:
        rows.insert(1 if rows and rows[0]["name"] == "moves" else 0, minutes)
    return {"rows": rows, "said": said, "few": few, "min": MIN_REAL_PLAYS}


def _minutes_row(run: SimulationRun, entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Real minutes beside the simulated ones estimated at the real tables' pace
    (``questions.minutes``). Never pointed out: the estimate comes from these same tables."""
    sim = questions.minutes(run.figures.get("moves"), questions.pace(entries))
    real = [
        e["duration_seconds"] / 60
        for e in entries
        if e.get("kind") == "table"
        and e.get("ruleset_id") == run.ruleset_id
        and e.get("players") == run.players
        and e.get("finished")
        and e.get("duration_seconds")
    ]
    if sim is None or not real:
        return None
    mean = sum(real) / len(real)
    return {
        "name": "minutes",
        "label": N.label(run.game, "minutes"),
        "real": mean,
        "n": len(real),
        "sim": sim,
        "outside": False,
        "pointed": False,
        "estimated": True,
        "real_text": N.show(run.game, "minutes", mean),
        "sim_text": N.show_figure(run.game, "minutes", sim),
    }


def measured_params(user, game: str) -> list[dict[str, Any]]:
    """For each ruleset version with real plays the user may see, what those plays measure
    of the bots' parameters (the game's ``playtest.bot_params``, e.g. Amnesia Stories'
    listeners' ``agreement`` from their picks), to offer as a run's parameters."""

    measure = registry.kit(game).playtest.bot_params
    if measure is None:
        return []
    by_ruleset: dict[int, list[dict]] = {}
    rulesets: dict[int, Ruleset] = {}
    tables = service.scope_tables(user, game).filter(ruleset__isnull=False)
    for table in service.tables_with_reports(tables):
        by_ruleset.setdefault(table.ruleset_id, []).append(table.playtest_report.figures)
        rulesets[table.ruleset_id] = table.ruleset
    out = []
    for pk, reports in sorted(by_ruleset.items()):
        found = measure(rulesets[pk].options, reports)
        if found:
            out.append({"ruleset": rulesets[pk], "params": found})
    return out
