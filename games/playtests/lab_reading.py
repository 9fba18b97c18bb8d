"""Reading a run (``games.playtests.lab_start``): its sentences, its figures in reading order, and
two runs (or two sweeps, value by value) compared, in the designer's words
(``games.playtests.figures`` for the figures, ``lab_words`` for the rest)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from games.playtests import figures as N
from games.playtests import lab_beside_real, lab_bounds, lab_chunks, questions
from games.playtests import lab_words as words
from games.playtests.models import SimulationRun
from games.simulate import figures as F


def pct(x: float) -> str:
    """A share as a percentage in the reader's form ("29%")."""
    return N.show_share(x)


def sentences(run: SimulationRun) -> list[str]:
    """A few sentences a designer reads first, from the run's figures (whatever the game:
    the figures it has say what can be said), the game's headline figures among them."""
    figs = run.figures
    if not figs or not run.games_done:
        return []
    game = run.game
    out = [
        _("%(ruleset)s at %(players)s players, %(games)s simulated games.")
        % {
            "ruleset": words.run_ruleset(run),
            "players": run.players,
            "games": lab_bounds.grouped(run.games_done),
        }
    ]
    said = {"seat1.wins", "bard_share", "draw", "moves", "minutes", "finished"}
    seat1 = figs.get("seat1.wins")
    if seat1 and seat1.get("value") is not None:
        fair = 1 / run.players
        inside = "low" in seat1 and seat1["low"] <= fair <= seat1["high"]
        said_words = {"share": N.show_figure(game, "seat1.wins", seat1), "fair": pct(fair)}
        if "low" not in seat1:
            text = _("The first seat wins %(share)s of games.") % said_words
        elif inside:
            text = (
                _(
                    "The first seat wins %(share)s of games, about what a fair seat would (%(fair)s)."
                )
                % said_words
            )
        else:
            text = (
                _("The first seat wins %(share)s of games, not what a fair seat would (%(fair)s).")
                % said_words
            )
        out.append(text)
    share = figs.get("bard_share")
    if share and share.get("value") is not None:
        out.append(
            _("The bard earns %(share)s of all points.")
            % {"share": N.show_figure(game, "bard_share", share)}
        )
    for key in N.ordered(game, figs):
        if key in said or not N.headline(game, key) or key.startswith(("seat", "bot.")):
            continue
        fig = figs[key]
        if fig.get("value") is not None:
            out.append(
                _("%(figure)s: %(value)s.")
                % {"figure": N.label(game, key), "value": N.show_figure(game, key, fig)}
            )
    draw = figs.get("draw")
    if draw and draw.get("value") is not None:
        if draw["value"] > 0:
            out.append(
                _("1 game in %(k)s ends in a draw.") % {"k": max(1, round(1 / draw["value"]))}
            )
        else:
            out.append(_("No game ends in a draw."))
    moves = figs.get("moves")
    if moves and moves.get("value") is not None:
        out.append(
            _("A game lasts %(moves)s moves.")
            % {"moves": N.show_figure(game, "moves", moves, units=False)}
        )
    minutes = figs.get("minutes")
    if minutes and minutes.get("value") is not None:
        out.append(
            _("At the pace of real tables that is %(minutes)s minutes.")
            % {"minutes": N.show_figure(game, "minutes", minutes, units=False)}
        )
    finished = figs.get("finished")
    if finished and finished.get("value") is not None and finished["value"] < 1:
        out.append(
            _("%(share)s of games did not end within the move cap.")
            % {"share": pct(1 - finished["value"])}
        )
    for finding in run.findings:
        if finding.get("kind") == "dominant":
            out.append(
                _("The %(bot)s bot wins more than its share (%(wins)s of %(games)s games).")
                % {
                    "bot": N.bot_label(finding["bot"]),
                    "wins": lab_bounds.grouped(finding["wins"]),
                    "games": lab_bounds.grouped(finding["games"]),
                }
            )
    return out


def figure_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """The run's figures in reading order, each with its label, meaning and value in its
    unit (``games.playtests.figures.rows``)."""
    return N.rows(run.game, run.figures)


def compare(a: SimulationRun, b: SimulationRun) -> list[dict[str, Any]]:
    """Each figure's difference (b − a) with its interval, games paired by index (the same
    seeds when both runs have the same seed), in words (``lab_words.compared_rows``)."""
    diffs = F.compare(lab_chunks.records_of(a), lab_chunks.records_of(b), a.seed)
    return words.compared_rows(a.game, a, b, diffs)


def _parts(run: SimulationRun) -> list[SimulationRun]:
    return list(run.children.order_by("pk")) if run.sweep else [run]


def compare_sections(a: SimulationRun, b: SimulationRun) -> list[dict[str, Any]]:
    """Two runs compared, in sections: one for two plain runs; for a sweep, one for each of
    its values (two sweeps value by value in order, a plain run against each value)."""
    parts_a, parts_b = _parts(a), _parts(b)
    if len(parts_a) == 1:
        parts_a = parts_a * len(parts_b)
    if len(parts_b) == 1:
        parts_b = parts_b * len(parts_a)
    sections = []
    for part_a, part_b in zip(parts_a, parts_b, strict=False):
        sections.append(
            {
                "a": part_a,
                "b": part_b,
                "a_words": _side(a, part_a),
                "b_words": _side(b, part_b),
                "title": _("%(b)s against %(a)s") % {"a": _side(a, part_a), "b": _side(b, part_b)},
                "rows": compare(part_a, part_b),
            }
        )
    return sections


def _side(top: SimulationRun, part: SimulationRun) -> str:
    text = _("Run #%(pk)s") % {"pk": top.pk}
    if top.sweep:
        text += " · " + _("%(what)s: %(value)s") % {
            "what": words.sweep_words(top.game, top.sweep),
            "value": words.swept_value_words(top.game, top.sweep, swept_value(top, part)),
        }
    return text


def swept_value(parent: SimulationRun, child: SimulationRun) -> Any:
    name = parent.sweep.get("name")
    if parent.sweep.get("kind") == "option":
        return child.changed.get(name)
    return child.params.get(name)


def sweep_points(run: SimulationRun, figure: str) -> list[dict[str, Any]]:
    return [
        {"value": swept_value(run, c), "child": c, "figure": c.figures.get(figure)}
        for c in run.children.order_by("pk")
    ]


# -- the dashboard: every real figure beside its band -----------------------------------------
def newest_run(user, ruleset_id: int, players: int) -> SimulationRun | None:
    """The newest run (or study cell) the user may see that played this ruleset version as
    it is (no option changed, not a sweep) at this number of players, with figures."""
    visible = lab_bounds.visible_runs(user).values("pk")
    runs = (
        SimulationRun.objects.filter(Q(pk__in=visible) | Q(parent__in=visible))
        .filter(ruleset_id=ruleset_id, players=players)
        .exclude(figures={})
        .order_by("-created_at", "-pk")
    )
    return next((r for r in runs if not r.changed and not r.sweep and r.figures), None)


def beside_real(user, game: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The dashboard's real plays beside the lab: for each ruleset version and number of
    players the real tables played, the newest simulation of it (``newest_run``) and each
    figure both have, the real value with its n beside the simulated band
    (``lab_beside_real.predicted``, which says a real figure outside its band in words only with enough
    plays and after the false discovery correction); and the real tables' pace (minutes a
    move, with its interval) that turns a simulated length into minutes, or None without
    real tables."""
    speed = questions.pace([e for e in entries if e.get("game", game) == game])
    played = sorted(
        {
            (e["ruleset_id"], e["players"])
            for e in entries
            if e.get("kind") == "table" and e.get("finished") and e.get("ruleset_id")
            if e.get("players")
        }
    )
    groups, without = [], []
    for ruleset_id, players in played:
        run = newest_run(user, ruleset_id, players)
        label = next(e["ruleset"] for e in entries if e.get("ruleset_id") == ruleset_id)
        if run is None:
            without.append({"ruleset": label, "players": players})
            continue
        length = questions.minutes(run.figures.get("moves"), speed)
        groups.append(
            {
                "ruleset": label,
                "players": players,
                "run": run,
                # A study's cell is read on its study's page.
                "url": reverse("playtests:study", args=[run.parent_id])
                if run.parent_id
                else reverse("playtests:run_detail", args=[run.pk]),
                "predicted": lab_beside_real.predicted(run, entries),
                "minutes_words": questions.minutes_words(length) if length else "",
            }
        )
    return {
        "groups": groups,
        "without": without,
        "pace": speed,
        "pace_words": questions.pace_words(speed) if speed else "",
    }
