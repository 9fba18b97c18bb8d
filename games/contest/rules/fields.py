"""Contest: the fields each verb reads (``Game.fields``), with their natural limits."""

from __future__ import annotations

from games.contest.rules.checks import FIELD_WORDS as WORDS
from games.contest.rules.core import ATTRIBUTES, PENALTIES
from games.rules.base import Field

MAX_PLAYERS = 8
# 78 tarot cards and two jokers: no list of cards a move names can be longer.
MAX_CARDS = 80
MAX_NAME = 60  # a character's name (the new-character form's limit)
MAX_KIND = 200  # what a contest is about ("a pie-eating contest")

# A card left empty in a form is left out of the move (the referee says it is missing, or
# picks it: a virtual ``lose_card`` loses the highest card).
_card = Field("card", blank="omit")
_players = Field("str_list", max_items=MAX_PLAYERS)
_attribute = Field("str", choices=ATTRIBUTES, label=WORDS["attribute"])
# Physical mode: the lost cards a card penalty takes (each member of a team pays).
_lost = Field("card_list", max_items=3 * MAX_PLAYERS)


def _penalties(count: int) -> Field:
    return Field("str_list", choices=PENALTIES, max_items=count)


FIELDS: dict[str, dict[str, Field]] = {
    "character": {
        "name": Field("str", max_length=MAX_NAME, label=WORDS["name"]),
        **{attr: Field("int", min=0, label=WORDS[attr]) for attr in ATTRIBUTES},
        "extra_points": Field("int", min=0),
        "bfa": Field("bool"),
    },
    "challenge": {
        "target": Field("str", label=WORDS["target"]),
        "contest": Field("str", max_length=MAX_KIND, label=WORDS["contest"]),
        "attribute": _attribute,
        "named": Field("bool"),
        "extended": Field("bool"),
        "team": _players,
        "target_team": _players,
    },
    "take_control": {
        "with": Field("str", choices=("face_card", "drinks", "plot_card"), label=WORDS["with"]),
        "card": _card,
        "reward": Field("str", choices=("card", "pretzels"), nullable=True, blank="null"),
    },
    "eat_pretzels": {"count": Field("int", min=1, label=WORDS["count"])},
    "accept": {"attribute": _attribute},
    "refuse": {"penalty": _penalties(2), "cards": _lost},
    "forfeit": {
        "penalty": Field("str", choices=PENALTIES, label=WORDS["penalty"]),
        "cards": _lost,
    },
    "play": {
        "card": _card,
        "draws": Field("card_list", max_items=MAX_CARDS),
        "ham": Field("int", min=0, max=20, label=WORDS["ham"]),
        "word": Field("bool"),
    },
    "lose_card": {"card": _card},
    "swap_joker": {"card": _card},
    "heal": {"choice": Field("str", choices=("pretzel", "card", "none"), label=WORDS["choice"])},
    "vote_off": {"target": Field("str"), "up": _players, "down": _players, "pretzels": _players},
    "stay": {"penalty": _penalties(3), "cards": _lost},
    "extra_point": {"up": _players, "down": _players},
    "bribe": {"accepted_by": _players},
}
