"""A study's answers of skill and restricted play (issue 49): how much playing well pays (one
strong seat among weak bots), and what a choice forbidden one seat is worth, a dominant line
found pointed out as a rule hole with the game that replays it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from amnesia_site import lists
from games.playtests import figures as names
from games.playtests import lab_bounds, lab_words
from games.playtests.study_reading import View, cells_of, pooled, where_words
from games.simulate import figures as F
from games.simulate import holes, skill
from games.simulate.engine import derive


# -- skill and restricted play (issue 49) -----------------------------------------------------
def _edge(records: list[dict[str, Any]], bot: str, seed: int, where: str) -> dict[str, Any]:
    """The bot's edge over the table in these games, with its interval: its share of the wins
    less its share of the seats, or, in a game nobody wins, of what a seat plays for.
    ``where`` seeds the bootstrap: the cell's numbers, never its words, so that a study's
    intervals are the same in every reader's language."""
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
    plays for, against the table, each with its interval, left out where its two ends print
    alike ("100%", not "100% (100% to 100%)"), as ``figures.show_figure`` leaves it out."""
    if not edge["figure"].endswith("win_edge"):
        # Not a level but a difference from the table's mean, signed, in points, with its
        # interval; and what a seat plays for, named.
        return {
            "difference": names.show_difference(game, edge["figure"], edge),
            "measure": lab_words.plays_for(game),
        }
    shift, key = fair, "finished"  # a share: shown as a percentage
    words = {
        "value": names.show(game, key, edge["value"] + shift),
        "fair": names.show(game, key, fair),
    }
    low, high = (names.show(game, key, edge[end] + shift) for end in ("low", "high"))
    if low != high:
        words.update(low=low, high=high)
    return words


def skill_answer(view: View) -> list[tuple[str, None]]:
    """At each ruleset and player count, each pair of ``skill.PAIRS``: the strong seat's share
    of the wins (or its edge in what a seat plays for) with its interval, and whether playing
    well pays there."""
    game = view.top.game
    out: list[tuple[str, None]] = []
    for r, ruleset in enumerate(view.rulesets):
        for players in view.players:
            cells = cells_of(view, r, players)
            for strong, weak in skill.PAIRS:
                mine = [c for c in cells if c.run.bots and c.run.bots[0] == strong]
                records = pooled(mine)
                if not records:
                    continue
                where = where_words(view, players, None)
                edge = _edge(records, strong, view.top.seed, f"{r}/{players}/{strong}")
                words = {
                    "ruleset": ruleset,
                    "where": where,
                    "strong": names.bot_label(strong),
                    "weak": names.bot_label(weak),
                    "games": lab_bounds.grouped(len(records)),
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
                if edge["figure"].endswith("win_edge") and "low" in words:
                    text = _(
                        "%(ruleset)s, %(where)s: one %(strong)s bot among %(weak)s bots wins "
                        "%(value)s of the games (%(low)s to %(high)s), where a seat's fair share "
                        "is %(fair)s."
                    )
                elif edge["figure"].endswith("win_edge"):
                    text = _(
                        "%(ruleset)s, %(where)s: one %(strong)s bot among %(weak)s bots wins "
                        "%(value)s of the games, where a seat's fair share is %(fair)s."
                    )
                else:
                    text = _(
                        "%(ruleset)s, %(where)s: a seat plays for %(measure)s; one %(strong)s "
                        "bot among %(weak)s bots ends %(difference)s from the table's mean."
                    )
                then = {
                    "skill": _("Playing well pays."),
                    "worse": _("Playing well does worse here."),
                    "none": _("No sign that playing well pays: skill hardly counts here."),
                }[verdict]
                out.append((lists.sentences(text % words, then), None))
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
            cells = cells_of(view, r, players)
            records = pooled(cells)
            if not records:
                continue
            where = where_words(view, players, None)
            edge = _edge(records, bot, view.top.seed, f"{r}/{players}")
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
            "games": lab_bounds.grouped(len(records)),
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
        if edge["figure"].endswith("win_edge") and "low" in words:
            text = _(
                "%(ruleset)s, %(where)s: a seat that %(choice)s wins %(value)s of the games "
                "(%(low)s to %(high)s) against %(bot)s bots free to choose, where a seat's fair "
                "share is %(fair)s."
            )
        elif edge["figure"].endswith("win_edge"):
            text = _(
                "%(ruleset)s, %(where)s: a seat that %(choice)s wins %(value)s of the games "
                "against %(bot)s bots free to choose, where a seat's fair share is %(fair)s."
            )
        else:
            text = _(
                "%(ruleset)s, %(where)s: a seat plays for %(measure)s; a seat that %(choice)s "
                "ends %(difference)s from the table's mean, among %(bot)s bots free to choose."
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
            # The size with its interval (the edge's own, seeded by the cell's numbers), the
            # bounds nearer zero first, as the study's comparisons say one (study_answer).
            key = edge["figure"] if edge["figure"].endswith("value_edge") else "finished"
            bounds = sorted((abs(edge["low"]), abs(edge["high"])))
            sizes = {
                "size": names.size_of_difference(game, key, abs(edge["value"])),
                "low": names.size_of_difference(game, key, bounds[0]),
                "high": names.size_of_difference(game, key, bounds[1]),
            }
            if sizes["low"] == sizes["high"]:  # an interval whose ends print alike: left out
                then = (
                    _("The choice is worth %(size)s to a seat.")
                    if edge["value"] < 0
                    else _("A seat does %(size)s better without it.")
                ) % sizes
            else:
                then = (
                    _("The choice is worth %(size)s to a seat (%(low)s to %(high)s).")
                    if edge["value"] < 0
                    else _("A seat does %(size)s better without it (%(low)s to %(high)s).")
                ) % sizes
        out.append((lists.sentences(text % words, then), hole))
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
