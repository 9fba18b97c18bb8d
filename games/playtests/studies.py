"""Studies: the designer's question asked of two or more rulesets at once, across player
counts and at most two swept options or bot parameters, answered in sentences first.

A study is a set of the lab's runs (``games.playtests.lab``), not a second engine: its own row
is a ``SimulationRun`` whose ``sweep`` says ``{"kind": "study", ...}`` and whose children are
ordinary runs, one a cell (a ruleset × a player count × a value of each swept name). Every cell
plays the same seed, so game ``i`` of one cell and game ``i`` of another were dealt alike
(paired seeds); the cells' chunks go on the ``long`` queue as a run's do, and the lab's bounds
(``LAB_MAX_RUN_GAMES``, ``LAB_MAX_QUEUED_GAMES``, one run at a time) count a study's cells
together. A run or a sweep made before studies opens as a study of its one ruleset.

Reading: :func:`answer` says, at each player count, how each ruleset differs from the one the
study is read against, headline figures first, the direction in words and the 95% interval of
the paired difference; :func:`charts_of` draws each figure across player counts or the swept
value, the rulesets overlaid with their bands, and histograms of final VP and length.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games import registry
from games.management.commands.simulate import app_version
from games.models import Ruleset
from games.playtests import figures as names
from games.playtests import lab, lab_words
from games.playtests.models import SimulationRun
from games.simulate import figures as F
from games.simulate import holes, restrict, skill
from games.simulate.engine import derive

STUDY = "study"
# What a study asks: how rulesets differ (the default), or how much each rewards playing well
# (skill: one strong seat among weak bots, for each pair of ``skill.PAIRS``).
COMPARE, SKILL = "compare", "skill"
MAX_SWEPT = 2
MAX_CELLS = 60
LabError = lab.LabError


# -- the figures' words -----------------------------------------------------------------------
def figure(game: str, name: str) -> dict[str, Any]:
    """What the study says of a figure, from the kit's declaration
    (``games.playtests.figures``): its label and meaning in the reader's language, whether it
    is a share (shown as a percentage) and whether it is a headline figure."""
    return {
        "name": name,
        "label": names.label(game, name),
        "meaning": names.meaning(game, name),
        "share": names.unit(game, name) == names.SHARE,
        "headline": names.headline(game, name),
    }


def ordered(game: str, keys: Iterable[str]) -> list[str]:
    """Headline figures first, then the others, in the kit's order."""
    return names.ordered(game, set(keys))


def num(value: float, places: int = 1) -> str:
    """A number in the reader's form (2.3; 2,3)."""
    return number_format(round(value, places), decimal_pos=places, force_grouping=True)


def amount(game: str, name: str, value: float) -> str:
    """A value of the figure in its unit ("29%", "41.5 moves")."""
    return names.show(game, name, value)


def difference(game: str, name: str, value: float) -> str:
    """The size of a difference in its unit, a share's in percentage points."""
    return names.size_of_difference(game, name, value)


# -- what can be chosen -----------------------------------------------------------------------
ruleset_words = lab_words.ruleset_words


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
    return values[: lab.MAX_SWEEP_VALUES]


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
    if game not in lab.simulable_games():
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
    if not 1 <= games <= lab.MAX_GAMES:
        raise LabError(_("A run plays from 1 to %(n)s games.") % {"n": lab.grouped(lab.MAX_GAMES)})
    grid = list(grid or [])
    if len(grid) > MAX_SWEPT or len({g["name"] for g in grid}) != len(grid):
        raise LabError(_("A study sweeps at most two different names."))
    given = dict(params or {})  # bot parameters every cell plays with
    params = lab.check_bots_and_params(game, bots, given) if question == COMPARE else given
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
        params = lab.check_bots_and_params(game, sorted({b for p in found for b in p}), given)
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
        cell_params = lab.check_bots_and_params(game, checked, {**mine, **cell_params})
        cells.append(
            {
                "bots": seats,
                "ruleset": ruleset,
                "ruleset_label": f"{ruleset.name}@{ruleset.version}",
                "players": count,
                "params": cell_params,
                "changed": changed,
                "options": lab.options_for(game, ruleset, changed, count),
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
    most = lab.max_run_games()
    if most and total > most:
        raise LabError(
            _(
                "A study plays at most %(most)s games, all its cells together: this one asks "
                "for %(total)s."
            )
            % {"most": lab.grouped(most), "total": lab.grouped(total)}
        )
    base: dict[str, Any] = {
        "owner": owner,
        "game": game,
        "seed": seed,
        "chunk_games": lab.chunk_games(),
        "budget_seconds": budget or lab.default_budget(),
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
        if lab.running_run(owner) is not None:
            raise LabError(_("You already have a run going: wait for it or cancel it."))
        most = lab.max_queued_games()
        queued = lab.games_queued(owner)
        if most and queued + total > most:
            raise LabError(
                _(
                    "At most %(most)s simulated games may wait for you at once: you have "
                    "%(queued)s queued or running, and this study asks for %(total)s."
                )
                % {
                    "most": lab.grouped(most),
                    "queued": lab.grouped(queued),
                    "total": lab.grouped(total),
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
                lab.simulate_chunk.enqueue(child.pk, index)
    return study


# -- reading a study (or a run, or a sweep) ---------------------------------------------------
@dataclass
class Cell:
    run: SimulationRun
    ruleset: int | None  # the index of its ruleset in the study's list
    players: int
    values: tuple  # the swept values, in the grid's order
    _records: list[dict[str, Any]] | None = None

    def records(self) -> list[dict[str, Any]]:
        """The cell's games, read once a page (the answer, the charts and the histograms all
        read them)."""
        if self._records is None:
            self._records = lab.records_of(self.run)
        return self._records


@dataclass
class View:
    """A study as the page reads it: a study's own row, or an older run or sweep."""

    top: SimulationRun
    rulesets: list[str]  # in words
    players: list[int]
    grid: list[dict[str, Any]]
    cells: list[Cell]
    said: dict[str, Any] = field(default_factory=dict)  # sentences worked out once a page

    @property
    def asked(self) -> int:
        return self.top.games_asked * max(1, len(self.cells))

    @property
    def done(self) -> int:
        return sum(c.run.games_done for c in self.cells)

    @property
    def question(self) -> str:
        return self.top.sweep.get("question") or COMPARE if is_study(self.top) else COMPARE

    @property
    def restriction(self) -> dict[str, Any] | None:
        return self.top.sweep.get("restriction") if is_study(self.top) else None

    def restriction_words(self) -> str:
        """The restricted choice in words ("never takes control with drinks")."""
        key = self.top.sweep.get("restriction_key", "")
        return lab_words.restriction_label(self.top.game, key) if key else ""


def is_study(run: SimulationRun) -> bool:
    return run.sweep.get("kind") == STUDY


def view_of(run: SimulationRun) -> View:
    children = list(run.children.select_related("ruleset").order_by("pk"))
    if is_study(run):
        spec = run.sweep
        rows = {r.pk: r for r in Ruleset.objects.filter(pk__in=spec["rulesets"])}
        words = [
            ruleset_words(rows[pk]) if pk in rows else name.replace("@", " ")
            for pk, name in zip(spec["rulesets"], spec["names"], strict=True)
        ]
        grid = spec.get("grid", [])
        cells = [
            Cell(
                c,
                spec["rulesets"].index(c.ruleset_id) if c.ruleset_id in spec["rulesets"] else None,
                c.players,
                tuple(_value_of(c, g) for g in grid),
            )
            for c in children
        ]
        return View(run, words, list(spec["players"]), grid, cells)
    words = [ruleset_words(run.ruleset) if run.ruleset_id else _("The game's defaults")]
    if run.sweep:
        grid = [run.sweep]
        cells = [Cell(c, 0, c.players, (_value_of(c, run.sweep),)) for c in children]
    else:
        grid, cells = [], [Cell(run, 0, run.players, ())]
    return View(run, words, [run.players], grid, cells)


def _value_of(child: SimulationRun, axis: dict[str, Any]) -> Any:
    source = child.changed if axis.get("kind") == "option" else child.params
    return source.get(axis.get("name"))


def axis_label(game: str, axis: dict[str, Any]) -> str:
    item = sweepable(game, f"{axis.get('kind')}:{axis.get('name')}")
    return item.label if item else str(axis.get("name", ""))


def value_words(game: str, axis: dict[str, Any], value: Any) -> str:
    return lab_words.swept_value_words(game, axis, value)


def _records(cells: list[Cell]) -> list[dict[str, Any]]:
    """The cells' games pooled, each game's index kept apart per cell so that pairing by index
    pairs the games of the same swept values and the same seed."""
    out: list[dict[str, Any]] = []
    for cell in cells:
        key = repr(cell.values)
        for record in cell.records():
            out.append({**record, "index": (key, record["index"])})
    return out


def paired(
    a: list[dict[str, Any]], b: list[dict[str, Any]], name: str, seed: int
) -> dict[str, Any] | None:
    """The mean of b − a over the games both have (same seed, same index), with its 95%
    interval; None when no game pairs."""
    by_index = {r["index"]: r for r in a}
    diffs = []
    for rb in b:
        ra = by_index.get(rb["index"])
        if ra is None:
            continue
        va, vb = F._value(ra, name), F._value(rb, name)
        if va is None or vb is None:
            continue
        diffs.append(float(vb) - float(va))
    if not diffs:
        return None
    return F.interval_of(diffs, derive(seed, "study", name))


def _cells(view: View, ruleset: int, players: int, values: tuple | None = None) -> list[Cell]:
    return [
        c
        for c in view.cells
        if c.ruleset == ruleset
        and c.players == players
        and (values is None or c.values == values)
        and c.run.games_done
    ]


def _where(view: View, players: int, values: tuple | None) -> str:
    parts = [_("at %(n)s players") % {"n": players}]
    if view.grid and values is None:
        parts.append(_("every swept value together"))
    for axis, value in zip(view.grid, values or (), strict=False):
        parts.append(
            _("%(name)s %(value)s")
            % {
                "name": axis_label(view.top.game, axis),
                "value": value_words(view.top.game, axis, value),
            }
        )
    return _(", ").join(parts)


def _said(view: View, name: str, where: str, other: int, diff: dict[str, Any]) -> str:
    game = view.top.game
    words = {
        "a": view.rulesets[other],
        "b": view.rulesets[0],
        "where": where,
        "figure": figure(game, name)["label"],
    }
    if "low" not in diff:
        return (
            _("%(a)s against %(b)s, %(where)s: too few games to say how %(figure)s differs.")
            % words
        )
    low, high = diff["low"], diff["high"]
    if low > 0 or high < 0:
        words["amount"] = difference(game, name, abs(diff["value"]))
        words["low"] = difference(game, name, min(abs(low), abs(high)))
        words["high"] = difference(game, name, max(abs(low), abs(high)))
        if low > 0:
            return (
                _(
                    "%(a)s against %(b)s, %(where)s: %(figure)s is %(amount)s higher (%(low)s to %(high)s)."
                )
                % words
            )
        return (
            _(
                "%(a)s against %(b)s, %(where)s: %(figure)s is %(amount)s lower (%(low)s to %(high)s)."
            )
            % words
        )
    words["low"] = ("−" if low < 0 else "") + difference(game, name, low)
    words["high"] = ("−" if high < 0 else "") + difference(game, name, high)
    return (
        _(
            "%(a)s against %(b)s, %(where)s: %(figure)s is about the same (a difference of %(low)s to %(high)s)."
        )
        % words
    )


def _said_alone(view: View, name: str, where: str, fig: dict[str, Any]) -> str:
    game = view.top.game
    words = {
        "a": view.rulesets[0],
        "where": where,
        "figure": figure(game, name)["label"],
        "value": amount(game, name, fig["value"]),
    }
    if "low" not in fig:
        return _("%(a)s, %(where)s: %(figure)s is %(value)s.") % words
    words["low"] = amount(game, name, fig["low"])
    words["high"] = amount(game, name, fig["high"])
    return _("%(a)s, %(where)s: %(figure)s is %(value)s (%(low)s to %(high)s).") % words


def headline(view: View) -> list[str]:
    keys: set[str] = set()
    for cell in view.cells:
        keys |= set(cell.run.figures)
    chosen = [n for n in ordered(view.top.game, keys) if figure(view.top.game, n)["headline"]]
    return chosen or ordered(view.top.game, keys)[:3]


def answer(view: View) -> list[str]:
    """The study's answer in sentences: at each player count, each ruleset against the first,
    each headline figure (all the swept values together, then each swept value for the first
    headline figure). A study of skill says the skill figures instead; one with a restricted
    seat says first what the restricted choice is worth."""
    if view.question == SKILL:
        return [said for said, _hole in skill_answer(view)]
    out = [said for said, _hole in restricted_answer(view)] if view.restriction else []
    return out + compared(view)


def compared(view: View) -> list[str]:
    keys = headline(view)
    if not keys:
        return []
    seed = view.top.seed
    out: list[str] = []
    combos = sorted({c.values for c in view.cells}, key=repr) if view.grid else []
    for players in view.players:
        where = _where(view, players, None)
        if len(view.rulesets) == 1:
            for cell in _cells(view, 0, players):
                if not cell.values:
                    for name in keys:
                        fig = cell.run.figures.get(name)
                        if fig and fig.get("value") is not None:
                            out.append(_said_alone(view, name, where, fig))
            for values in combos:
                cells = _cells(view, 0, players, values)
                fig = cells[0].run.figures.get(keys[0]) if cells else None
                if fig and fig.get("value") is not None:
                    out.append(_said_alone(view, keys[0], _where(view, players, values), fig))
            continue
        base = _records(_cells(view, 0, players))
        if not base:
            continue
        for other in range(1, len(view.rulesets)):
            records = _records(_cells(view, other, players))
            for name in keys:
                diff = paired(base, records, name, seed)
                if diff is not None:
                    out.append(_said(view, name, where, other, diff))
            for values in combos:
                a = _records(_cells(view, 0, players, values))
                b = _records(_cells(view, other, players, values))
                diff = paired(a, b, keys[0], seed) if a and b else None
                if diff is not None:
                    out.append(_said(view, keys[0], _where(view, players, values), other, diff))
    return out


# -- skill and restricted play (issue 49) -----------------------------------------------------
def _edge(records: list[dict[str, Any]], bot: str, seed: int, where: str) -> dict[str, Any]:
    """The bot's edge over the table in these games, with its interval: its share of the wins
    less its share of the seats, or, in a game nobody wins, of what a seat plays for."""
    for name in (f"bot.{bot}.win_edge", f"bot.{bot}.value_edge"):
        values = [v for v in (F._value(r, name) for r in records) if v is not None]
        if values:
            return {"figure": name, **F.interval_of(values, derive(seed, "edge", where, name))}
    return {"figure": None, "n": 0, "value": None}


def _fair(records: list[dict[str, Any]], bot: str) -> float:
    """The bot's share of the seats (its share of the wins were every seat alike)."""
    seats = [list(r["seat_bots"].values()) for r in records]
    return sum(s.count(bot) for s in seats) / max(1, sum(len(s) for s in seats))


def _edge_words(game: str, bot: str, fair: float, edge: dict[str, Any]) -> dict[str, str]:
    """The edge as the sentences say it: a win share (its fair share added back) or what a seat
    plays for, against the table, each with its interval."""
    if edge["figure"].endswith("win_edge"):
        shift, key = fair, "finished"  # a share: shown as a percentage
    else:
        shift, key = 0.0, edge["figure"]
    words = {
        "value": names.show(game, key, edge["value"] + shift),
        "fair": names.show(game, key, fair),
    }
    if "low" in edge:
        words["low"] = names.show(game, key, edge["low"] + shift)
        words["high"] = names.show(game, key, edge["high"] + shift)
    return words


def skill_answer(view: View) -> list[tuple[str, None]]:
    """At each ruleset and player count, each pair of ``skill.PAIRS``: the strong seat's share
    of the wins (or its edge in what a seat plays for) with its interval, and whether playing
    well pays there."""
    game = view.top.game
    out: list[tuple[str, None]] = []
    for r, ruleset in enumerate(view.rulesets):
        for players in view.players:
            cells = _cells(view, r, players)
            for strong, weak in skill.PAIRS:
                mine = [c for c in cells if c.run.bots and c.run.bots[0] == strong]
                records = _records(mine)
                if not records:
                    continue
                where = _where(view, players, None)
                edge = _edge(records, strong, view.top.seed, f"{r}/{where}/{strong}")
                words = {
                    "ruleset": ruleset,
                    "where": where,
                    "strong": names.bot_label(strong),
                    "weak": names.bot_label(weak),
                    "games": lab.grouped(len(records)),
                }
                if edge["figure"] is None or "low" not in edge:
                    out.append(
                        (
                            _(
                                "%(ruleset)s, %(where)s: too few games (%(games)s) to say how a "
                                "%(strong)s bot fares among %(weak)s bots."
                            )
                            % words,
                            None,
                        )
                    )
                    continue
                fair = _fair(records, strong)
                words.update(_edge_words(game, strong, fair, edge))
                verdict = skill.verdict(edge)
                if edge["figure"].endswith("win_edge"):
                    text = _(
                        "%(ruleset)s, %(where)s: one %(strong)s bot among %(weak)s bots wins "
                        "%(value)s of the games (%(low)s to %(high)s), where a seat's fair share "
                        "is %(fair)s."
                    )
                else:
                    text = _(
                        "%(ruleset)s, %(where)s: one %(strong)s bot among %(weak)s bots ends "
                        "with %(value)s against the table's mean of what a seat plays for "
                        "(%(low)s to %(high)s)."
                    )
                then = {
                    "skill": _("Playing well pays."),
                    "worse": _("Playing well does worse here."),
                    "none": _("No sign that playing well pays: skill hardly counts here."),
                }[verdict]
                out.append((f"{text % words} {then}", None))
    return out


def restricted_answer(view: View) -> list[tuple[str, dict[str, Any] | None]]:
    """At each ruleset and player count, the restricted seat's share of the wins against the
    unrestricted bots (or its edge in what a seat plays for), with its interval, and what that
    says of the choice: worth nothing measurable (an inert rule), everything (a dominant line:
    a rule hole, with a game that replays it) or so much. Dominance is tested at every ruleset
    and player count (the restricted seat winning less than its share, binomial), corrected
    for false discoveries over them all (``holes.adjusted``), as the lab's rule holes are."""
    rule = view.restriction
    if not rule:
        return []
    if "restricted" not in view.said:
        view.said["restricted"] = _restricted_answer(view, rule)
    return view.said["restricted"]


def _restricted_answer(view: View, rule: dict[str, Any]) -> list[tuple[str, dict[str, Any] | None]]:
    game = view.top.game
    bot = skill.RESTRICTED
    choice = view.restriction_words()
    found: list[dict[str, Any]] = []
    for r, ruleset in enumerate(view.rulesets):
        for players in view.players:
            cells = _cells(view, r, players)
            records = _records(cells)
            if not records:
                continue
            where = _where(view, players, None)
            edge = _edge(records, bot, view.top.seed, f"{r}/{where}")
            single = [x for x in records if len(x["winner_bots"]) == 1]
            found.append(
                {
                    "ruleset": ruleset,
                    "where": where,
                    "cells": cells,
                    "records": records,
                    "edge": edge,
                    "single": single,
                    "p": _p_fewer_wins(single, bot),
                }
            )
    for item, q in zip(found, holes.adjusted([f["p"] for f in found]), strict=True):
        item["q"] = q
    out: list[tuple[str, dict[str, Any] | None]] = []
    for item in found:
        edge, records = item["edge"], item["records"]
        words = {
            "ruleset": item["ruleset"],
            "where": item["where"],
            "choice": choice,
            "bot": names.bot_label(rule.get("bot", "")),
            "games": lab.grouped(len(records)),
        }
        if edge["figure"] is None or "low" not in edge:
            out.append(
                (
                    _(
                        "%(ruleset)s, %(where)s: too few games (%(games)s) to say what the "
                        "choice is worth to a seat that %(choice)s."
                    )
                    % words,
                    None,
                )
            )
            continue
        fair = _fair(records, bot)
        words.update(_edge_words(game, bot, fair, edge))
        if edge["figure"].endswith("win_edge"):
            text = _(
                "%(ruleset)s, %(where)s: a seat that %(choice)s wins %(value)s of the games "
                "(%(low)s to %(high)s) against %(bot)s bots free to choose, where a seat's fair "
                "share is %(fair)s."
            )
        else:
            text = _(
                "%(ruleset)s, %(where)s: a seat that %(choice)s ends with %(value)s against "
                "the table's mean of what a seat plays for (%(low)s to %(high)s), among %(bot)s "
                "bots free to choose."
            )
        hole = None
        if skill.verdict(edge) == "none":
            then = _("Forbidding it costs nothing: an inert rule.")
        elif (
            edge["figure"].endswith("win_edge")
            and edge["high"] < -fair / 2
            and item["q"] < holes.ALPHA
        ):
            hole = _hole_of(item, fair)
            then = _(
                "A dominant line: without it a seat hardly ever wins, a rule hole (game "
                "%(number)s replays it)."
            ) % {"number": hole["number"]}
        else:
            size = names.size_of_difference(game, "finished", abs(edge["value"]))
            if edge["figure"].endswith("value_edge"):
                size = names.size_of_difference(game, edge["figure"], abs(edge["value"]))
            then = (
                _("The choice is worth %(size)s to a seat.")
                if edge["value"] < 0
                else _("A seat does %(size)s better without it.")
            ) % {"size": size}
        out.append((f"{text % words} {then}", hole))
    return out


def _p_fewer_wins(single: list[dict[str, Any]], bot: str) -> float:
    """The p-value of the restricted seat winning less than its share of the seats (games
    with one winner), 1 when there is none to test."""
    if not single:
        return 1.0
    from scipy.stats import binomtest  # SciPy: only when a study has a winner to test

    wins = sum(1 for r in single if r["winner_bots"][0] == bot)
    return float(binomtest(wins, len(single), _fair(single, bot), alternative="less").pvalue)


def _hole_of(item: dict[str, Any], fair: float) -> dict[str, Any]:
    """A dominant line as a rule hole: the cell and the first game (1-based) the unrestricted
    bots won, which the lab's game page replays move by move."""
    bot = skill.RESTRICTED
    for cell in item["cells"]:
        for record in cell.records():
            if len(record["winner_bots"]) == 1 and record["winner_bots"][0] != bot:
                return {
                    "run": cell.run.pk,
                    "number": record["index"] + 1,
                    "games": len(item["single"]),
                    "fair_share": fair,
                    "p_adjusted": item["q"],
                }
    cell = item["cells"][0]
    return {"run": cell.run.pk, "number": 1, "games": len(item["single"]), "fair_share": fair}


def rule_holes(view: View) -> list[dict[str, Any]]:
    """The dominant lines a restricted study found, each with the cell and game replaying it."""
    return [
        {**hole, "sentence": said}
        for said, hole in (restricted_answer(view) if view.restriction else [])
        if hole
    ]
