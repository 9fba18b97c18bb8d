"""The options a contest table is set up with, as the site shows them: their labels on the
new-table form and on the page, and the built-in ruleset seeded after migrate.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

OPTION_LABELS = {
    "hand_size": _("Cards in hand (and the hand limit before lost cards)"),
    "attribute_points": _("Attribute points each character spreads over four attributes"),
    "attribute_min": _("Lowest value an attribute may start at"),
    "attribute_max": _("Highest value an attribute may start at"),
    "control_seconds": _("Seconds a narrator holds the story before others may take it"),
    "pretzel_limit": _("Pretzels in front of you that put you out"),
    "eat_limit": _("Pretzels a player may eat in one game (6 with a big appetite)"),
    "ties": _("A tied contest: replay it, or the defender or the challenger wins"),
    "jokers": _("Jokers: a played joker wins the contest"),
    "joker_swap": _("Joker swap: the loser takes the winning joker into hand"),
    "teams": _("Teams"),
    "tarot": _("Tarot deck (court cards are face cards)"),
    "plot_cards": _("Plot cards: major arcana take control of the story (tarot)"),
    "word_bonus": _("Word bonus: +2 for using the card's word (tarot)"),
    "hamming_it_up": _("Hamming it up: a laugh earns extra draws"),
    "healing": _("Healing: the winner removes a pretzel or gets a lost card back"),
    "extended_contests": _("Extended contests (rounds until someone gives up)"),
    "voting_off": _("Voting a player off"),
    "extra_points": _("Extra points: the vote and the bribe"),
}
VALUE_LABELS = {
    "ties": {
        "replay": _("play it again"),
        "defender": _("the defender wins"),
        "challenger": _("the challenger wins"),
    },
}


# The built-in ruleset: the English seed with the app's rulings where it is silent.
RULESETS = (
    {
        "name": "Contest: default rulings",
        "label": _("Contest: default rulings"),
        "options": {},
        "changelog": "The English seed with the app's rulings where it is silent: "
        "8 cards, 12 attribute points, 5 pretzels put you out, ties are replayed.",
        "changelog_label": _(
            "The English seed with the app's rulings where it is silent: "
            "8 cards, 12 attribute points, 5 pretzels put you out, ties are replayed."
        ),
    },
)
