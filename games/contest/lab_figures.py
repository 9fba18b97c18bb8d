"""The contest's figures, as the lab names them (``games.playtests.figures``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.playtests.figures import COUNT, MOVES, PLACE, ROUNDS, SHARE, Figure

FIGURES = (
    Figure(
        "seat{seat}.wins",
        _("Wins of seat %(seat)s"),
        _("The share of games seat %(seat)s wins (a draw shared)."),
        SHARE,
        headline=True,
    ),
    Figure(
        "moves",
        _("Length in moves"),
        _("The moves a game takes, start to end."),
        MOVES,
        headline=True,
    ),
    Figure(
        "first_out_at",
        _("First player out"),
        _("How far into the game the first player goes out (a share of its moves)."),
        SHARE,
    ),
    Figure("contests", _("Contests"), _("Contests played in a game."), COUNT),
    Figure(
        "control_turns",
        _("Turns in control"),
        _("How many times control of the story changes hands in a game."),
        COUNT,
    ),
    Figure("rounds", _("Rounds"), _("Turns in control for each player."), ROUNDS),
    Figure("refusals", _("Refusals"), _("Challenges refused in a game."), COUNT),
    Figure("unnamed", _("Challenges without a name"), _("Challenges made without naming."), COUNT),
    Figure("take_control", _("Control taken"), _("Times a player took control."), COUNT),
    Figure("drinks", _("Drinks"), _("Drinks taken in a game, all players."), COUNT),
    Figure("pretzels", _("Pretzels thrown"), _("Pretzels thrown in a game."), COUNT),
    Figure("pretzels_eaten", _("Pretzels eaten"), _("Pretzels eaten in a game."), COUNT),
    Figure(
        "seat{seat}.control",
        _("Control of seat %(seat)s"),
        _("The share of moves made while seat %(seat)s held the story."),
        SHARE,
    ),
    Figure(
        "seat{seat}.out_at",
        _("Seat %(seat)s goes out"),
        _("How far into the game seat %(seat)s goes out (a share of its moves)."),
        SHARE,
    ),
    Figure(
        "seat{seat}.out_place",
        _("Place out of seat %(seat)s"),
        _("Seat %(seat)s’s place in the order of going out (1: first out)."),
        PLACE,
    ),
)

# The bots' parameters in words (name -> (label, one-line meaning)): the lab lists and
# sweeps them by these, never by their names.
PARAMS = {
    "take_control": (
        _("Taking control"),
        _("Chance of taking control with a face card when asked."),
    ),
    "take_control_drinks": (
        _("Taking control with drinks"),
        _("Chance of taking control with two drinks."),
    ),
    "pretzel": (_("Pretzels"), _("Chance of throwing a pretzel at the narrator when asked.")),
    "forget_name": (
        _("Forgetting a name"),
        _("Chance the narrator forgets the character’s name."),
    ),
    "refuse": (_("Refusing a contest"), _("Chance a challenged player refuses the contest.")),
    "drink": (
        _("Paying with a drink"),
        _("Chance a penalty is paid with a drink rather than a card."),
    ),
    "call_vote": (_("Calling a vote"), _("Chance the narrator calls a vote (voting off).")),
    "vote_up": (_("Voting a player off"), _("Chance a voter votes a player off.")),
    "stay": (_("Paying to stay"), _("Chance a player voted off pays to stay.")),
}

# A replayed game's view in words (``games.playtests.replay``): the parts of the referee's
# view a designer reads, each by its label, in this order (nested parts by the same words).
VIEW = {
    "phase": _("Phase"),
    "controller": _("In control of the story"),
    "contests": _("Contests"),
    "contest": _("The contest under way"),
    "last_contest": _("The last contest"),
    "challenger": _("Challenger"),
    "defender": _("Defender"),
    "winner": _("Winner"),
    # (A bot's character has no name worth reading: "Hero of P1", the bot's, in English.)
    "players": _("Players"),
    "attributes": _("Attributes"),
    "brains": _("Brains"),
    "muscle": _("Muscle"),
    "moves": pgettext_lazy("contest attribute", "Moves"),
    "coolness": _("Coolness"),
    "hand": _("Hand"),
    "hand_count": _("Cards in hand"),
    "lost": _("Lost cards"),
    "drinks": _("Drinks"),
    "pretzels": _("Pretzels"),
    "eaten": _("Pretzels eaten"),
    "out": _("Out of the game"),
    "winners": _("Winners"),
}
