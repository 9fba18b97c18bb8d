"""Amnesia's figures, as the lab names them (``games.playtests.figures``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.playtests.figures import COUNT, MOVES, ROUNDS, SHARE, TOKENS, Figure

FIGURES = (
    Figure(
        "moves",
        _("Length in moves"),
        _("The moves a game takes, start to end."),
        MOVES,
        headline=True,
    ),
    Figure(
        "room_told",
        _("Memory of the room told"),
        _("The share of games where the memory of the room is told."),
        SHARE,
        headline=True,
    ),
    Figure(
        "room_possible_at",
        _("Memory of the room possible"),
        _("How far into the game it becomes possible (a share of its moves)."),
        SHARE,
    ),
    Figure("rounds", _("Rounds"), _("Turns taken by each player."), ROUNDS),
    Figure("scenes", _("Scenes"), _("Scenes continued in a game."), COUNT),
    Figure("flashbacks", _("Flashbacks"), _("Flashbacks told in a game."), COUNT),
    Figure("passes", _("Passes"), _("Turns passed in a game."), COUNT),
    Figure(
        "passes_at_cap",
        _("Passes at the cap"),
        _("Passes by a player one token short of the cap, or at it."),
        COUNT,
    ),
    Figure("suggestions", _("Suggestions"), _("Suggestions made in a game."), COUNT),
    Figure("insists", _("Insists"), _("Times a narrator insisted."), COUNT),
    Figure("refusals", _("Refusals"), _("Suggestions refused in a game."), COUNT),
    Figure("challenges", _("Challenges"), _("Challenges played in a game."), COUNT),
    Figure("joins", _("Joins"), _("Players who joined a challenge, in a game."), COUNT),
    Figure("pot", _("Pot"), _("The tokens at stake in a challenge."), TOKENS),
    Figure("bank_end", _("Bank at the end"), _("Tokens in the bank at the end."), TOKENS),
    Figure("bank_middle", _("Bank at the middle"), _("Tokens in the bank halfway."), TOKENS),
    Figure("discard_end", _("Discard at the end"), _("Tokens discarded at the end."), TOKENS),
    Figure("discard_middle", _("Discard at the middle"), _("Tokens discarded halfway."), TOKENS),
    Figure(
        "seat{seat}.tokens_end",
        _("Tokens of seat %(seat)s at the end"),
        _("Seat %(seat)s’s tokens at the end."),
        TOKENS,
    ),
    Figure(
        "seat{seat}.tokens_middle",
        _("Tokens of seat %(seat)s at the middle"),
        _("Seat %(seat)s’s tokens halfway."),
        TOKENS,
    ),
    Figure(
        "seat{seat}.narrations",
        _("Narrations of seat %(seat)s"),
        _("Scenes and flashbacks seat %(seat)s told."),
        COUNT,
    ),
    Figure(
        "bot.{bot}.challenge_edge",
        _("Challenge edge of the %(bot)s bot"),
        _("Challenges it won less its fair share of them."),
        SHARE,
        difference=True,
    ),
    Figure(
        "bot.{bot}.tokens_edge",
        _("Token edge of the %(bot)s bot"),
        _("Its share of the tokens at the end less its share of the seats."),
        SHARE,
        difference=True,
    ),
)

# The bots' parameters in words (name -> (label, one-line meaning)): the lab lists and
# sweeps them by these, never by their names.
PARAMS = {
    "scene_length": (_("Length of a scene"), _("Beats a narrator lets a scene run, on average.")),
    "suggest": (_("Free suggestions"), _("Chance a listener offers a free suggestion when asked.")),
    "insist": (_("Insisting"), _("Chance a listener pays a token to insist when asked.")),
    "refuse": (_("Refusing a paid suggestion"), _("Chance a narrator refuses a paid suggestion.")),
    "join": (_("Joining a challenge"), _("Chance an onlooker joins a challenge.")),
    "flashback": (_("Flashbacks told"), _("Chance of telling a memory instead of a scene.")),
    "room": (
        _("Memory of the room"),
        _("Chance of telling the memory of the room once it opens."),
    ),
    "end_after": (_("Scenes after the room"), _("Scenes after the room before the table ends.")),
    "reserve": (_("Tokens kept"), _("Tokens a player keeps before spending on extras.")),
}

# A replayed game's view in words (``games.playtests.replay``): the parts of the referee's
# view a designer reads, each by its label, in this order (nested parts by the same words).
VIEW = {
    "phase": _("Phase"),
    "turn": _("Turn"),
    "narrator": _("Narrator"),
    "tokens": _("Tokens"),
    "bank": _("Bank"),
    "discard": _("Discard"),
    "pot": _("Pot"),
    "scenes": _("Scenes"),
    "flashbacks": _("Flashbacks"),
    "challenges": _("Challenges"),
    "room_flashback_told": _("The memory of the room told"),
    "insist": _("A paid suggestion"),
    "by": _("Offered by"),
    "challenge": _("The challenge under way"),
    "insister": _("The insisting player"),
    "participants": _("In the challenge"),
    "bets": _("Bets"),
    "drawn": _("Cards drawn"),
    "last_challenge": _("The last challenge"),
    "winner": _("Winner"),
    "winners": _("Winners"),
}
