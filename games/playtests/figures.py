"""Figures with names: what each figure of a simulated (or real) game is called, means and is
shown as, in the reader's language.

A game declares its figures in its kit (``GameKit.figures``, a tuple of :class:`Figure`); the
lab adds the few it computes itself over every game (:data:`COMMON`: games finished, each
kind of bot's edge). Every page, sentence, chart, PDF and export asks this module, never the
key: CSV and JSON keep the key beside its label. ``games/checks/figures.py`` refuses a figure a
game's bots produce without its declaration (games.E013).

Stable API (the studies build on it; add, do not rename):

- ``Figure(key, label, meaning, unit, headline=False)``: ``key`` is the figure's name in the
  records, or a pattern with ``{seat}`` (a seat number) or ``{bot}`` (a bot's name), e.g.
  ``"seat{seat}.wins"``; ``label`` and ``meaning`` lazy translations that may use
  ``%(seat)s`` / ``%(bot)s``; ``unit`` one of :data:`UNITS`; ``difference=True`` for a figure
  that is itself a difference (a bot's edge: its share less its fair share), shown signed,
  a share's in percentage points, as ``show_difference`` says one.
- ``declared(game) -> list[Figure]``, ``find(game, key) -> Named | None`` (the declaration
  and the label and meaning filled in), ``undeclared(game, keys) -> [key]``.
- ``label(game, key)``, ``meaning(game, key)``, ``unit(game, key)``, ``headline(game, key)``,
  ``is_difference(game, key)``, ``axis_label(game, key)`` (a chart's axis: the label and
  its unit, "(%)" or, for a difference, "(points)").
- ``show(game, key, value)``: one value in its unit and the reader's number form ("29%",
  "5,32 PV"); ``show_figure(game, key, fig)``: a figure with its interval; ``show_difference
  (game, key, diff)``: a difference, signed ("+2.3 points" for a share); ``number(x)``.
- ``labelled(game, figures)``: each figure with its label and meaning beside (exports).
- ``rows(game, figures)``: the figures in reading order (headline first, then as declared),
  each ``{"key", "label", "meaning", "unit", "headline", "text", "n", **fig}``.
- ``ordered(game, keys)``: keys in the same reading order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry

SHARE = "share"  # a proportion, shown as a percentage; a difference in percentage points
VP = "vp"
MOVES = "moves"
MINUTES = "minutes"
ROUNDS = "rounds"
TOKENS = "tokens"
COUNT = "count"  # a plain number of things (contests, red cards...)
PLACE = "place"  # a place in an order (1 = first)
UNITS = (SHARE, VP, MOVES, MINUTES, ROUNDS, TOKENS, COUNT, PLACE)


@dataclass(frozen=True)
class Figure:
    """One figure a game's games produce (see the module's docstring)."""

    key: str
    label: Any
    meaning: Any
    unit: str
    headline: bool = False
    difference: bool = False

    def pattern(self) -> re.Pattern[str]:
        text = re.escape(self.key)
        text = text.replace(re.escape("{seat}"), r"(?P<seat>[0-9]+)")
        text = text.replace(re.escape("{bot}"), r"(?P<bot>[a-z][a-z0-9_]*)")
        return re.compile(f"^{text}$")


@dataclass(frozen=True)
class Named:
    """A key found among the declarations: its figure and its words filled in."""

    key: str
    figure: Figure
    label: str
    meaning: str
    order: int

    @property
    def unit(self) -> str:
        return self.figure.unit

    @property
    def headline(self) -> bool:
        return self.figure.headline


# What the lab computes over every game, whatever the game (``games.simulate.figures``).
COMMON: tuple[Figure, ...] = (
    Figure(
        "finished",
        gettext_lazy("Games finished"),
        gettext_lazy("The share of games that ended before the cap on moves."),
        SHARE,
    ),
    Figure(
        "bot.{bot}.win_edge",
        gettext_lazy("Edge of the %(bot)s bot"),
        gettext_lazy("Its share of the wins less its share of the seats."),
        SHARE,
        difference=True,
    ),
    Figure(
        "bot.{bot}.value_edge",
        gettext_lazy("What the %(bot)s bot plays for, against the table"),
        gettext_lazy(
            "The share of what a seat plays for (the game says what) its seats end with, less "
            "the table's mean."
        ),
        SHARE,
        difference=True,
    ),
    Figure(
        "minutes",
        gettext_lazy("Length in minutes"),
        gettext_lazy("How long a game lasts at the pace of real tables."),
        MINUTES,
    ),
)


def bot_label(name: str) -> str:
    """A bot's name as a person reads it."""
    words = {
        "random": _("random"),
        "sensible": _("sensible"),
        "search": _("search"),
        "restricted": _("restricted"),
    }
    return str(words.get(name, name.replace("_", " ")))


def declared(game: Any) -> list[Figure]:
    """The game's figures and the lab's own; ``game`` a slug or a kit."""
    found = registry._KITS.get(game) if isinstance(game, str) else game
    own = tuple(getattr(found, "figures", ()) or ()) if found is not None else ()
    return [*own, *COMMON]


def _fill(text: Any, groups: dict[str, str]) -> str:
    words = {"seat": groups.get("seat", ""), "bot": bot_label(groups.get("bot", ""))}
    text = str(text)
    return text % words if "%(" in text else text


def find(game: Any, key: str) -> Named | None:
    for order, figure in enumerate(declared(game)):
        match = figure.pattern().match(key)
        if match:
            groups = {k: v for k, v in match.groupdict().items() if v is not None}
            return Named(
                key, figure, _fill(figure.label, groups), _fill(figure.meaning, groups), order
            )
    return None


def undeclared(game: Any, keys) -> list[str]:
    return sorted(k for k in set(keys) if find(game, k) is None)


def label(game: str, key: str) -> str:
    """The figure's name in the reader's language (a key nobody declared: in words anyway)."""
    named = find(game, key)
    return named.label if named else key.replace("_", " ").replace(".", " ")


def meaning(game: str, key: str) -> str:
    named = find(game, key)
    return named.meaning if named else ""


def unit(game: str, key: str) -> str:
    named = find(game, key)
    return named.unit if named else COUNT


def headline(game: str, key: str) -> bool:
    named = find(game, key)
    return bool(named and named.headline)


def is_difference(game: str, key: str) -> bool:
    """Whether the figure is itself a difference (a bot's edge), shown as one."""
    named = find(game, key)
    return bool(named and named.figure.difference)


# -- numbers in the reader's form ------------------------------------------------------------
def number(x: float, places: int | None = None) -> str:
    """A number with the reader's decimal mark (5.32; 5,32), as many places as it needs."""
    if places is None:
        size = abs(x)
        places = 0 if size >= 100 else 1 if size >= 10 else 2
        if round(float(x), places) == round(float(x)):
            places = 0  # 40, not 40.0
    return number_format(round(float(x), places), places, force_grouping=abs(x) >= 10_000)


def _bare(unit_: str, x: float) -> str:
    if unit_ == SHARE:
        return _("%(n)s%%") % {"n": number(x * 100, 0 if abs(x) >= 0.1 or x == 0 else 1)}
    if unit_ == PLACE:
        return number(x, 1)
    return number(x)


def _with_unit(unit_: str, text: str) -> str:
    words = {
        VP: _("%(n)s VP"),
        MOVES: _("%(n)s moves"),
        MINUTES: _("%(n)s min"),
        ROUNDS: _("%(n)s rounds"),
        TOKENS: _("%(n)s tokens"),
    }
    return words[unit_] % {"n": text} if unit_ in words else text


def show(game: str, key: str, value: Any) -> str:
    """One value of the figure in its unit ("29%", "41.5 moves"; "–" for none); a figure that
    is a difference, signed ("+6.7 points")."""
    if value is None:
        return "–"
    if is_difference(game, key):
        return show_difference(game, key, {"value": value})
    u = unit(game, key)
    return _with_unit(u, _bare(u, float(value)))


def show_share(x: float) -> str:
    """A share as a percentage in the reader's form ("29%")."""
    return _bare(SHARE, x)


def show_figure(game: str, key: str, fig: dict[str, Any] | None, units: bool = True) -> str:
    """A figure with its 95% interval when it has one: "29% (27% to 31%)"; without its unit's
    word where the sentence says it ("A game lasts %(moves)s moves"). A figure that is a
    difference (a bot's edge) is said as one: "+6.7 (−23.0 to +37.0) points", not "6.7%
    (-23% to 37%)", which reads as a level."""
    if not fig or fig.get("value") is None:
        return "–"
    if is_difference(game, key):
        return show_difference(game, key, fig)
    u = unit(game, key)
    text = _bare(u, fig["value"])
    if "low" in fig and _bare(u, fig["low"]) != _bare(u, fig["high"]):
        text = _("%(value)s (%(low)s to %(high)s)") % {
            "value": text,
            "low": _bare(u, fig["low"]),
            "high": _bare(u, fig["high"]),
        }
    return _with_unit(u, text) if units else text


def _signed(u: str, x: float) -> str:
    if u == SHARE:
        text = number(abs(x) * 100, 1)
    else:
        text = number(abs(x))
    sign = "+" if x > 0 else "−" if x < 0 else ""
    return sign + text


def show_difference(game: str, key: str, diff: dict[str, Any] | None) -> str:
    """A difference (second less first) with its interval: a share's in percentage points."""
    if not diff or diff.get("value") is None:
        return "–"
    u = unit(game, key)
    text = _signed(u, diff["value"])
    if "low" in diff and _signed(u, diff["low"]) != _signed(u, diff["high"]):
        text = _("%(value)s (%(low)s to %(high)s)") % {
            "value": text,
            "low": _signed(u, diff["low"]),
            "high": _signed(u, diff["high"]),
        }
    if u == SHARE:
        return _("%(n)s points") % {"n": text}
    return _with_unit(u, text)


def axis_label(game: str, key: str) -> str:
    """The figure's name on a chart's axis with its unit: a share's "(%)"; a share that is a
    difference (a bot's edge) "(points)", as ``show_difference`` says one, not "(%)"."""
    text = label(game, key)
    if unit(game, key) != SHARE:
        return text
    if is_difference(game, key):
        return _("%(figure)s (points)") % {"figure": text}
    return _("%(figure)s (%%)") % {"figure": text}


def size_of_difference(game: str, key: str, x: float) -> str:
    """The size of a difference in words' units, unsigned ("2.3 points", "4.1 moves")."""
    u = unit(game, key)
    if u == SHARE:
        return _("%(n)s points") % {"n": number(abs(x) * 100, 1)}
    return _with_unit(u, number(abs(x)))


# -- reading order ---------------------------------------------------------------------------
def _seat_number(key: str) -> int:
    found = re.search(r"seat([0-9]+)", key)
    return int(found.group(1)) if found else 0


def sort_key(game: str, key: str) -> tuple[int, int, int, str]:
    named = find(game, key)
    if named is None:
        return (2, 10_000, 0, key)
    return (0 if named.headline else 1, named.order, _seat_number(key), key)


def ordered(game: str, keys) -> list[str]:
    return sorted(keys, key=lambda k: sort_key(game, k))


def labelled(game: str, figures: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each figure with its label and meaning beside its key and values (JSON exports)."""
    return {
        key: {"label": label(game, key), "meaning": meaning(game, key), **fig}
        for key, fig in figures.items()
    }


def rows(game: str, figures: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The figures in reading order, each with its words and its value in its unit."""
    out = []
    for key in ordered(game, figures):
        fig = figures[key]
        named = find(game, key)
        out.append(
            {
                **fig,
                "key": key,
                "name": key,
                "label": named.label if named else label(game, key),
                "meaning": named.meaning if named else "",
                "unit": named.unit if named else COUNT,
                "headline": bool(named and named.headline),
                "text": show_figure(game, key, fig),
                "n": fig.get("n"),
                "n_text": number(fig.get("n") or 0, 0),
            }
        )
    return out
