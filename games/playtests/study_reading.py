"""A study as its pages read it (``games.playtests.study_start`` starts one): its cells (a
ruleset × a player count × the swept values), the words of its figures, rulesets and swept
values, and its cells' games pooled. A run or a sweep made before studies reads as a study of
its one ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from amnesia_site import lists
from games.models import Ruleset
from games.playtests import figures as names
from games.playtests import lab_chunks, lab_words
from games.playtests.lab_words import ruleset_words
from games.playtests.models import SimulationRun
from games.playtests.study_start import COMPARE, SKILL, STUDY, sweepable
from games.simulate import skill


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
            self._records = lab_chunks.records_of(self.run)
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


def pooled(cells: list[Cell]) -> list[dict[str, Any]]:
    """The cells' games pooled, each game's index kept apart per cell so that pairing by index
    pairs the games of the same swept values and the same seed."""
    out: list[dict[str, Any]] = []
    for cell in cells:
        key = repr(cell.values)
        for record in cell.records():
            out.append({**record, "index": (key, record["index"])})
    return out


def cells_of(view: View, ruleset: int, players: int, values: tuple | None = None) -> list[Cell]:
    return [
        c
        for c in view.cells
        if c.ruleset == ruleset
        and c.players == players
        and (values is None or c.values == values)
        and c.run.games_done
    ]


def where_words(view: View, players: int, values: tuple | None) -> str:
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


def bots_words(view: View) -> tuple[str, str]:
    """What the study's cells play, as its header says it: a label and the bots in words. A
    study of skill plays a different table in each cell (one strong seat among weak bots), a
    restricted study one seat forbidden a choice among its bot free to choose; any other plays
    the study's bots, one a seat in turn. Read from the cells, not from the study's row (which
    keeps the first cell's bots of a study of skill)."""
    if view.question == SKILL:
        pairs = dict.fromkeys(
            (c.run.bots[0], c.run.bots[1]) for c in view.cells if len(c.run.bots) > 1
        )
        return _("Bots"), lists.listing(
            _("one %(strong)s bot among %(weak)s bots")
            % {"strong": names.bot_label(strong), "weak": names.bot_label(weak)}
            for strong, weak in pairs
        )
    rule = view.restriction
    if rule:
        return _("Bots"), _(
            "one %(bot)s bot that %(choice)s, among %(bot)s bots free to choose"
        ) % {"bot": names.bot_label(rule.get("bot", "")), "choice": view.restriction_words()}
    played = [b for b in view.top.bots if b != skill.RESTRICTED]
    return _("Bots, one a seat in turn"), lab_words.bots_words(played)
