"""Amnesia Stories' figures, as the lab names them (``games.playtests.figures``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.playtests.figures import COUNT, MOVES, ROUNDS, SHARE, VP, Figure

FIGURES = (
    Figure(
        "bard_share",
        _("The bard’s share of the points"),
        _("Of all the points a turn gives, the share the bard takes."),
        SHARE,
        headline=True,
    ),
    Figure(
        "steps_some_matched",
        _("Steps read by some, not all"),
        _("The share of story steps some listeners, but not all, matched."),
        SHARE,
        headline=True,
    ),
    Figure(
        "steps_none_matched",
        _("Steps nobody read"),
        _("The share of story steps no listener matched."),
        SHARE,
        headline=True,
    ),
    Figure(
        "steps_all_matched",
        _("Steps everyone read"),
        _("The share of story steps every listener matched."),
        SHARE,
    ),
    Figure(
        "seat{seat}.wins",
        _("Wins of seat %(seat)s"),
        _("The share of games seat %(seat)s wins (a draw shared)."),
        SHARE,
    ),
    Figure("moves", _("Length in moves"), _("The moves a game takes, start to end."), MOVES),
    Figure("rounds", _("Rounds"), _("How many times each player is the bard."), ROUNDS),
    Figure("draw", _("Draws"), _("The share of games that end in a draw."), SHARE),
    Figure("margin", _("Margin of victory"), _("The winner’s VP less the second’s."), VP),
    Figure("vp_spread", _("Spread of final VP"), _("The first’s VP less the last’s."), VP),
    Figure(
        "seat{seat}.vp", _("Final VP of seat %(seat)s"), _("Seat %(seat)s’s VP at the end."), VP
    ),
    Figure("red_cards", _("Red cards"), _("Red cards given in a game, all players."), COUNT),
    Figure(
        "red_penalty", _("Red-card penalty"), _("VP lost to red cards in a game, all players."), VP
    ),
    Figure(
        "set_bonuses",
        _("Set bonuses"),
        _("Listeners who had the bard’s numbers in any order, in a game."),
        COUNT,
    ),
)

# The bots' parameters in words (name -> (label, one-line meaning)): the lab lists and
# sweeps them by these, never by their names.
PARAMS = {
    "agreement": (
        _("Listeners’ agreement"),
        _("How well listeners read the bard (1: exactly)."),
    ),
    "clarity": (
        _("The bard’s clarity"),
        _("How obvious a story the bard chooses (1: the most)."),
    ),
}

# A replayed game's view in words (``games.playtests.replay``): the parts of the referee's
# view a designer reads, each by its label, in this order (nested parts by the same words).
VIEW = {
    "phase": _("Phase"),
    "round": _("Round"),
    "bard": _("Bard"),
    "vp": _("Victory points"),
    "red_cards": _("Red cards"),
    "penalty": _("Penalty"),
    "_picks": _("Picks given this turn"),
    "selection": _("The bard’s cards"),
    "story": _("The story told"),
    "answered": _("Answered"),
    "last_turn": _("The last turn"),
    "picks": _("Picks"),
    "gains": _("Points gained"),
    "winners": _("Winners"),
}
PHASES = {
    "deal": _("dealing"),
    "tell": _("the bard tells"),
    "answer": _("the listeners answer"),
    "ended": _("the end"),
}
