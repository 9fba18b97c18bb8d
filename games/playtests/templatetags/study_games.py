"""``{% study_games view as cells %}``: a study's cells as the links to their games read
them (its ruleset, player count and swept values in words), for the study page's list of
games to open one by one (``games.playtests.replay_views``)."""

from __future__ import annotations

from typing import Any

from django import template

from games.playtests import lab_words, study_reading, study_start

register = template.Library()


@register.simple_tag
def study_games(view: study_reading.View) -> list[dict[str, Any]]:
    game = view.top.game
    out = []
    for cell in view.cells:
        if not cell.run.games_done:
            continue
        ruleset = view.rulesets[cell.ruleset] if cell.ruleset is not None else ""
        values = [
            f"{study_reading.axis_label(game, axis)} {study_reading.value_words(game, axis, value)}"
            for axis, value in zip(view.grid, cell.values, strict=False)
        ]
        if view.question == study_start.SKILL and cell.run.bots:
            values.append(lab_words.bots_words(list(dict.fromkeys(cell.run.bots))))
        out.append({"run": cell.run, "ruleset": ruleset, "players": cell.players, "values": values})
    return out


@register.simple_tag
def study_pdf_ruleset(view: study_reading.View) -> int | None:
    """The ruleset version whose playtest report PDF prints the study: the one it is read
    against (its first), beside that version's real plays."""
    top = view.top
    if study_reading.is_study(top):
        return (top.sweep.get("rulesets") or [None])[0]
    return top.ruleset_id
