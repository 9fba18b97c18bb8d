"""Studies: the designer's question asked of two or more rulesets at once, across player
counts and at most two swept options or bot parameters, answered in sentences first. Here:
what a study may sweep, its planning into cells, and its start.

A study is a set of the lab's runs (``games.playtests.lab_start``), not a second engine: its own
row is a ``SimulationRun`` whose ``sweep`` says ``{"kind": "study", ...}`` and whose children are
ordinary runs, one a cell (a ruleset × a player count × a value of each swept name). Every cell
plays the same seed, so game ``i`` of one cell and game ``i`` of another were dealt alike
(paired seeds); the cells' chunks go on the ``long`` queue as a run's do, and the lab's bounds
(``LAB_MAX_RUN_GAMES``, ``LAB_MAX_QUEUED_GAMES``, one run at a time) count a study's cells
together. A run or a sweep made before studies opens as a study of its one ruleset
(``games.playtests.study_reading``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games import registry
from games.management.commands.simulate import app_version
from games.models import Ruleset
from games.playtests import lab_bounds, lab_chunks, lab_words
from games.playtests.lab_bounds import LabError
from games.playtests.models import SimulationRun
from games.simulate import restrict, skill

STUDY = "study"
# What a study asks: how rulesets differ (the default), or how much each rewards playing well
# (skill: one strong seat among weak bots, for each pair of ``skill.PAIRS``).
COMPARE, SKILL = "compare", "skill"
MAX_SWEPT = 2
MAX_CELLS = 60


# -- what can be chosen -----------------------------------------------------------------------
@dataclass
class Sweepable:
    kind: str  # "option" or "param"
    name: str
    label: str
    range: str
    meaning: str = ""
    low: float | None = None
    high: float | None = None
    whole: bool = False
    values: list[Any] = field(default_factory=list)  # a switch's or a choice's every value

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"


def sweepables(game: str) -> list[Sweepable]:
    """The options and bot parameters a study may sweep, each with its label, meaning and
    range in the lab's words (``games.playtests.lab_words``)."""
    kit = registry.kit(game)
    params: dict[str, Any] = {}
    for bot in (kit.bots or {}).values():
        params.update(getattr(bot, "params", {}))
    out: list[Sweepable] = []
    for words in lab_words.sweepable(game):
        kind, name = words["kind"], words["name"]
        item = Sweepable(kind, name, words["label"], words["range"], meaning=words["meaning"])
        if kind == "option":
            option = kit.referee.options[name]
            if isinstance(option.default, bool):
                item.values = [False, True]
            elif option.choices is not None:
                item.values = list(option.choices)
            elif isinstance(option.default, int) and None not in (option.min, option.max):
                item.low, item.high, item.whole = option.min, option.max, True
            else:
                continue  # a text option: nothing to sweep over
        else:
            param = params[name]
            item.low, item.high, item.whole = param.min, param.max, param.whole
        out.append(item)
    return out


def sweepable(game: str, key: str) -> Sweepable | None:
    return next((s for s in sweepables(game) if s.key == key), None)


def swept_values(item: Sweepable, raw: str) -> list[Any]:
    """The values typed for a swept name, checked against its range (a switch's or a choice's
    every value when none are typed)."""
    if item.values:
        return list(item.values)
    values: list[Any] = []
    for part in raw.replace(";", " ").replace(" ", ",").split(","):
        text = part.strip()
        if not text:
            continue
        try:
            value = float(text.replace("，", "."))
        except ValueError:
            raise LabError(
                _("%(label)s: “%(text)s” is not a number.") % {"label": item.label, "text": text}
            ) from None
        if item.whole:
            if value != int(value):
                raise LabError(
                    _("%(label)s takes whole numbers, not %(text)s.")
                    % {"label": item.label, "text": text}
                )
            value = int(value)
        if item.low is not None and item.high is not None and not item.low <= value <= item.high:
            raise LabError(
                _("%(label)s goes %(range)s, not %(text)s.")
                % {"label": item.label, "range": item.range, "text": text}
            )
        if value not in values:
            values.append(value)
    if len(values) < 2:
        raise LabError(_("%(label)s: give at least two values.") % {"label": item.label})
    return values[: lab_bounds.MAX_SWEEP_VALUES]


# -- starting a study -------------------------------------------------------------------------
def start(
    owner,
    game: str,
    rulesets: list[Ruleset],
    *,
    players: list[int],
    games: int,
    bots: list[str],
    grid: list[dict[str, Any]] | None = None,
    seed: int = 1,
    budget: int | None = None,
    question: str = COMPARE,
    restriction: str = "",
    params: dict[str, Any] | None = None,
) -> SimulationRun:
    """Make the study and its cells and queue their chunks on the long queue, in one
    transaction. ``rulesets[0]`` is the one the others are read against.

    ``question`` SKILL: each cell one pair of ``skill.PAIRS`` (one strong seat, the rest weak,
    the strong seat turning round the table), one ruleset enough. ``restriction``: one of the
    game's restrictable choices (``lab_words.restrictions``) forbidden one seat of the first
    bot, the others that bot unrestricted (its cells play ``skill.RESTRICTED`` for that seat),
    one ruleset enough."""
    if game not in lab_bounds.simulable_games():
        raise LabError(_("This game has no bots, so it cannot be simulated."))
    if question not in (COMPARE, SKILL):
        raise LabError(_("A study asks how rulesets differ or how much they reward skill."))
    if restriction and question == SKILL:
        raise LabError(_("A study of skill plays no restricted seat: choose one or the other."))
    if restriction and restriction not in {r["key"] for r in lab_words.restrictions(game)}:
        raise LabError(_("This game has no such choice to forbid."))
    alone = question == SKILL or bool(restriction)  # one ruleset asks its own question
    if len(rulesets) < (1 if alone else 2) or len({r.pk for r in rulesets}) != len(rulesets):
        raise LabError(_("A study compares two or more different rulesets."))
    if any(r.game != game for r in rulesets):
        raise LabError(_("Every ruleset of a study must be of its game."))
    referee = registry.kit(game).referee
    players = sorted(set(players))
    if not players or not all(referee.min_players <= p <= referee.max_players for p in players):
        raise LabError(
            _("This game is played by %(lo)s to %(hi)s players.")
            % {"lo": referee.min_players, "hi": referee.max_players}
        )
    if not 1 <= games <= lab_bounds.MAX_GAMES:
        raise LabError(
            _("A run plays from 1 to %(n)s games.")
            % {"n": lab_bounds.grouped(lab_bounds.MAX_GAMES)}
        )
    grid = list(grid or [])
    if len(grid) > MAX_SWEPT or len({g["name"] for g in grid}) != len(grid):
        raise LabError(_("A study sweeps at most two different names."))
    given = dict(params or {})  # bot parameters every cell plays with
    params = lab_bounds.check_bots_and_params(game, bots, given) if question == COMPARE else given
    kit_bots = registry.kit(game).bots or {}
    pairs: list[tuple[str, str] | None] = [None]
    rule: dict[str, Any] | None = None
    if question == SKILL:
        if any(g["kind"] == "param" for g in grid):
            # Its pairs are different bots: a parameter of one is no parameter of the other.
            raise LabError(_("A study of skill sweeps rule options, not bot parameters."))
        found = [p for p in skill.PAIRS if set(p) <= set(kit_bots)]
        if not found:
            raise LabError(_("This game has no bots to measure skill with."))
        pairs = list(found)
        params = lab_bounds.check_bots_and_params(
            game, sorted({b for p in found for b in p}), given
        )
    elif restriction:
        rule = {"bot": bots[0], **restrict.parse(restriction)}
    cells: list[dict[str, Any]] = []
    for ruleset, count, values, pair in itertools.product(
        rulesets, players, itertools.product(*[g["values"] for g in grid]), pairs
    ):
        changed = {g["name"]: v for g, v in zip(grid, values, strict=True) if g["kind"] == "option"}
        cell_params = {
            g["name"]: v for g, v in zip(grid, values, strict=True) if g["kind"] == "param"
        }
        seats = list(bots)
        if pair is not None:
            seats = [pair[0]] + [pair[1]] * (count - 1)
        elif rule is not None:
            seats = [skill.RESTRICTED] + [rule["bot"]] * (count - 1)
        checked = [b for b in dict.fromkeys(seats) if b != skill.RESTRICTED]
        known = {n for b in checked for n in kit_bots[b].params}
        mine = {k: v for k, v in params.items() if k in known}  # a skill pair's own
        cell_params = lab_bounds.check_bots_and_params(game, checked, {**mine, **cell_params})
        cells.append(
            {
                "bots": seats,
                "ruleset": ruleset,
                "ruleset_label": f"{ruleset.name}@{ruleset.version}",
                "players": count,
                "params": cell_params,
                "changed": changed,
                "options": lab_bounds.options_for(game, ruleset, changed, count),
            }
        )
    if len(cells) > MAX_CELLS:
        raise LabError(
            _(
                "A study holds at most %(most)s cells (rulesets × player counts × values): this one has %(n)s."
            )
            % {"most": MAX_CELLS, "n": len(cells)}
        )
    total = games * len(cells)
    most = lab_bounds.max_run_games()
    if most and total > most:
        raise LabError(
            _(
                "A study plays at most %(most)s games, all its cells together: this one asks "
                "for %(total)s."
            )
            % {"most": lab_bounds.grouped(most), "total": lab_bounds.grouped(total)}
        )
    base: dict[str, Any] = {
        "owner": owner,
        "game": game,
        "seed": seed,
        "chunk_games": lab_bounds.chunk_games(),
        "budget_seconds": budget or lab_bounds.default_budget(),
        "app_version": app_version(),
        "games_asked": games,
    }
    definition: dict[str, Any] = {
        "kind": STUDY,
        "rulesets": [r.pk for r in rulesets],
        "names": [f"{r.name}@{r.version}" for r in rulesets],
        "players": players,
        "grid": grid,
        "question": question,
        "restriction": rule,
        "restriction_key": restriction,
    }
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        if lab_bounds.running_run(owner) is not None:
            raise LabError(_("You already have a run going: wait for it or cancel it."))
        most = lab_bounds.max_queued_games()
        queued = lab_bounds.games_queued(owner)
        if most and queued + total > most:
            raise LabError(
                _(
                    "At most %(most)s simulated games may wait for you at once: you have "
                    "%(queued)s queued or running, and this study asks for %(total)s."
                )
                % {
                    "most": lab_bounds.grouped(most),
                    "queued": lab_bounds.grouped(queued),
                    "total": lab_bounds.grouped(total),
                }
            )
        study = SimulationRun.objects.create(
            **base,
            ruleset=rulesets[0],
            ruleset_label=definition["names"][0],
            players=players[0],
            bots=bots if question == COMPARE else cells[0]["bots"],
            params=params,
            sweep=definition,
        )
        children = [SimulationRun.objects.create(**base, **cell, parent=study) for cell in cells]
        for child in children:
            for index in range(child.chunk_count):
                lab_chunks.simulate_chunk.enqueue(child.pk, index)
    return study
