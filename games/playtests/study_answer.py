"""A study's answer in sentences: at each player count, how each ruleset differs from the one
the study is read against, headline figures first, the direction in words and the 95% interval
of the paired difference (game ``i`` of every cell was dealt alike); a study of skill or with a
restricted seat says those answers first (``games.playtests.study_skill``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.playtests.study_reading import (
    View,
    amount,
    cells_of,
    difference,
    figure,
    ordered,
    pooled,
    where_words,
)
from games.playtests.study_skill import restricted_answer, skill_answer
from games.playtests.study_start import SKILL
from games.simulate import figures as F
from games.simulate.engine import derive


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
        where = where_words(view, players, None)
        if len(view.rulesets) == 1:
            for cell in cells_of(view, 0, players):
                if not cell.values:
                    for name in keys:
                        fig = cell.run.figures.get(name)
                        if fig and fig.get("value") is not None:
                            out.append(_said_alone(view, name, where, fig))
            for values in combos:
                cells = cells_of(view, 0, players, values)
                fig = cells[0].run.figures.get(keys[0]) if cells else None
                if fig and fig.get("value") is not None:
                    out.append(_said_alone(view, keys[0], where_words(view, players, values), fig))
            continue
        base = pooled(cells_of(view, 0, players))
        if not base:
            continue
        for other in range(1, len(view.rulesets)):
            records = pooled(cells_of(view, other, players))
            for name in keys:
                diff = paired(base, records, name, seed)
                if diff is not None:
                    out.append(_said(view, name, where, other, diff))
            for values in combos:
                a = pooled(cells_of(view, 0, players, values))
                b = pooled(cells_of(view, other, players, values))
                diff = paired(a, b, keys[0], seed) if a and b else None
                if diff is not None:
                    out.append(
                        _said(view, keys[0], where_words(view, players, values), other, diff)
                    )
    return out
