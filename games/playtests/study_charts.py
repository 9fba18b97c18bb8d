"""A study's charts (server-made SVG, ``games.playtests.charts``): each figure across the
player counts or the swept value with its 95% band, the rulesets overlaid on one chart, and the
distributions of final VP and length as histograms where the game's figures have them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from amnesia_site import lists
from games.playtests import charts
from games.playtests import figures as names
from games.playtests.study_reading import Cell, View, axis_label, figure, value_words

HISTOGRAM_BINS = 10


def _scaled(game: str, name: str, value: float | None) -> float | None:
    if value is None:
        return None
    return value * 100 if figure(game, name)["share"] else value


def _point(cells: list[Cell], game: str, name: str) -> tuple:
    fig = cells[0].run.figures.get(name) if cells else None
    if not fig or fig.get("value") is None:
        return None, None, None
    return (
        _scaled(game, name, fig["value"]),
        _scaled(game, name, fig.get("low")),
        _scaled(game, name, fig.get("high")),
    )


def _y_label(game: str, name: str) -> str:
    """The figure's name with its unit: a share's "(%)", a share's difference (a bot's edge)
    "(points)", as ``figures.show_difference`` says one."""
    return names.axis_label(game, name)


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def figure_charts(view: View, name: str) -> list[dict[str, Any]]:
    """The charts of one figure: across the first swept value (one chart a player count) when
    the study sweeps, else across the player counts, the rulesets overlaid with their bands."""
    game = view.top.game
    label = figure(game, name)["label"]
    out = []
    if view.grid:
        axis = view.grid[0]
        xs = list(axis.get("values", []))
        rest = sorted({c.values[1:] for c in view.cells}, key=repr)
        for players in view.players:
            series: dict[str, list[float | None]] = {}
            bands: dict[str, tuple[list[float | None], list[float | None]]] = {}
            for r, words in enumerate(view.rulesets):
                for tail in rest:
                    key = words
                    for other_axis, value in zip(view.grid[1:], tail, strict=True):
                        key += f" · {axis_label(game, other_axis)} {value_words(game, other_axis, value)}"
                    points = [
                        _point(
                            [
                                c
                                for c in view.cells
                                if c.ruleset == r
                                and c.players == players
                                and c.values == (x, *tail)
                            ],
                            game,
                            name,
                        )
                        for x in xs
                    ]
                    series[key] = [p[0] for p in points]
                    bands[key] = ([p[1] for p in points], [p[2] for p in points])
            title = _("%(figure)s as %(name)s changes, at %(n)s players") % {
                "figure": label,
                "name": axis_label(game, axis),
                "n": players,
            }
            out.append(
                _line_or_bars(title, xs, series, bands, axis_label(game, axis), game, name, axis)
            )
        return out
    series = {}
    bands = {}
    for r, words in enumerate(view.rulesets):
        points = [
            _point([c for c in view.cells if c.ruleset == r and c.players == p], game, name)
            for p in view.players
        ]
        series[words] = [p[0] for p in points]
        bands[words] = ([p[1] for p in points], [p[2] for p in points])
    title = _("%(figure)s by the number of players") % {"figure": label}
    return [_line_or_bars(title, view.players, series, bands, _("Players"), game, name, None)]


def _line_or_bars(title, xs, series, bands, x_label, game, name, axis) -> dict[str, Any]:
    if len(xs) > 1 and _numeric(xs):
        svg = charts.line_chart(
            title,
            series,
            bands=bands,
            x=[float(x) for x in xs],
            x_label=x_label,
            y_label=_y_label(game, name),
            signed=names.is_difference(game, name),
        )
    else:
        labels = [value_words(game, axis, x) if axis else str(x) for x in xs]
        ranges = {
            key: [
                (lo, hi) if lo is not None and hi is not None else None
                for lo, hi in zip(*bands[key], strict=True)
            ]
            for key in series
        }
        svg = charts.bar_chart(
            title,
            labels,
            series,
            ranges=ranges,
            y_label=_y_label(game, name),
            signed=names.is_difference(game, name),
        )
    return {"title": title, "svg": svg}


def _distribution(record: dict[str, Any], kind: str) -> list[float]:
    figures = record["figures"]
    if kind == "moves":
        return [float(figures["moves"])] if figures.get("moves") is not None else []
    return [
        float(v)
        for k, v in figures.items()
        if k.startswith("seat") and k.endswith(".vp") and v is not None
    ]


def histograms(view: View) -> list[dict[str, Any]]:
    """Final VP (every seat's) and length in moves, the games of each ruleset together, as
    the share of games (or of seats) in each bin."""
    titles = {
        "vp": _("Final VP of every seat, each ruleset's games together"),
        "moves": _("Length in moves, each ruleset's games together"),
    }
    out = []
    records = {
        r: [rec for c in view.cells if c.ruleset == r for rec in c.records()]
        for r in range(len(view.rulesets))
    }
    for kind, title in titles.items():
        values = {
            r: [v for rec in recs for v in _distribution(rec, kind)] for r, recs in records.items()
        }
        every = [v for vs in values.values() for v in vs]
        if not every:
            continue
        lo, hi = min(every), max(every)
        width = max(1.0, -(-(hi - lo + 1) // HISTOGRAM_BINS))
        bins = max(1, int(-(-(hi - lo + 1) // width)))
        labels = [
            f"{lo + i * width:.0f}"
            if width == 1
            else lists.span(f"{lo + i * width:.0f}", f"{lo + (i + 1) * width - 1:.0f}")
            for i in range(bins)
        ]
        series: dict[str, list[float | None]] = {}
        for r, vs in values.items():
            counts = [0] * bins
            for v in vs:
                counts[min(bins - 1, int((v - lo) // width))] += 1
            series[view.rulesets[r]] = [n / len(vs) if vs else None for n in counts]
        out.append(
            {
                "title": title,
                "svg": charts.bar_chart(
                    title,
                    labels,
                    series,
                    percent=True,
                    # The share of the games (or seats) in a bar, not the verb to share.
                    y_label=pgettext("a histogram's axis", "Share"),
                ),
            }
        )
    return out
