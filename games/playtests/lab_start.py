"""The designer's lab: simulated runs of a ruleset, off the request, kept and compared. Here a
run (or a sweep) is checked against the lab's bounds (``games.playtests.lab_bounds``) and
started: its rows made and its chunks queued.

A run (``SimulationRun``) plays ``games_asked`` games with the game's bots
(``games.simulate``) on the ``long`` queue. It is split into chunks of ``chunk_games`` games;
every chunk is its own task (``games.playtests.lab_chunks``), so any worker takes any chunk
and two workers share a run.

A sweep is a run whose children are ordinary runs, one per value of one option or bot
parameter; its chart draws a figure over the values with its band.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games import registry
from games.management.commands.simulate import app_version
from games.models import Ruleset
from games.playtests.lab_bounds import (
    MAX_GAMES,
    MAX_SWEEP_VALUES,
    LabError,
    check_bots_and_params,
    chunk_games,
    default_budget,
    games_queued,
    grouped,
    max_queued_games,
    max_run_games,
    options_for,
    running_run,
    simulable_games,
)
from games.playtests.lab_chunks import simulate_chunk
from games.playtests.models import SimulationRun


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
