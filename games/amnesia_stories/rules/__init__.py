"""Amnesia Stories: the bard game (seed 001, rulings in ``shared/referee/amnesia_stories.md``).

Each turn one player is the bard: they pick ``questions`` cards from the journey and tell them
as a story; then everyone, the bard included, secretly matches each step to one of the
``choices`` illustrations in the selection slots, and the audience scores for agreeing with the
bard.

The referee, ``AmnesiaStoriesGame``, is this module's set-up and legal moves over the game's
parts, one module each: ``dealing`` (the deck, each turn's selection and journey, the
refill), ``telling`` (the bard's story, the listeners' secret matching), ``scoring`` (each
step and turn judged, the end) and ``narrator`` (the stories as a record).

Script decisions beyond the contract:

- **Custom deck**: the top-level script key ``"area_ids": ["id", ...]`` lists the ids of a custom
  deck (unique non-empty strings). When present it replaces the built-in ``A01``..``A48``: only
  those ids are card codes (``is_card``), and the virtual deck is a seeded shuffle of them (or the
  stacked ``deck``, which must then use those ids). An optional ``"area_texts": {id: text}`` (the
  text a string or ``{"en": ..., "pt": ..., "ja": ...}``) gives the custom cards' adventure texts
  to :func:`narrative`; the rules never read it.
- A stacked ``deck`` must hold distinct cards, at least ``2 × choices`` of them (the first
  selection and journey), like any deck.
- Deck refill (the contract's ruling): when a new journey cannot be dealt, the discarded
  selections go under what is left of the deck and dealing goes on. A stacked ``deck`` takes
  them back oldest first; the seeded shuffle of a virtual deck shuffles them with the game's
  own generator (``rng``), so a replay is exact. The selection of the turn just finished is
  discarded before the journey is dealt, so it is part of the refill.
- In physical mode the ``deck`` key is ignored; the cards named in ``deal`` moves must be cards
  of the deck in use that are not on the table nor in the discard, unless the remaining deck
  is too short for a journey: then the table has put its discard under its deck, and the
  discarded cards may be dealt again.

State keys beyond the contract's: ``turns`` (total turns), ``discard`` (used selection cards
not yet put back under the deck), ``stacked_deck`` (whether a stacked ``deck`` was given),
``history`` (every judged turn, as ``last_turn``), and the hidden ``_deck`` (remaining deck,
top first), ``_picks`` (``{name: picks}`` of the players who have answered this turn) and
``rng``. ``view`` strips all three, keeping only the viewer's own pending pick.
"""

from __future__ import annotations

import zlib
from typing import Any

from games.amnesia_stories.area_texts import AREA_IDS
from games.amnesia_stories.rules.dealing import Dealing
from games.amnesia_stories.rules.narrator import StoriesNarrator
from games.amnesia_stories.rules.scoring import Scoring
from games.amnesia_stories.rules.telling import Telling
from games.rules import cards
from games.rules.base import Field, Option
from games.rules.errors import N_, BadScript
from games.rules.plain import copy_plain
from games.rules.setup import Setup

# The deck's own key (the framework's ``deck`` and ``rng`` are hidden by every game's view);
# history's rows in a view are shared, not copied (final, see ``copy_state``): readers of a
# view must not change them; the reveal's filter builds new rows where it hides.
HIDDEN_KEYS = ("_deck",)


def deck_ids(setup: Setup) -> list[str]:
    """The ids of the deck this table plays with (custom or built-in)."""
    custom = setup.extra.get("area_ids")
    return list(custom) if custom is not None else list(AREA_IDS)


def cards_needed(options: dict[str, Any]) -> int:
    """The smallest deck a game with these options plays: the first selection and journey.
    Every later journey can come from the refilled discard."""
    return 2 * options["choices"]


class AmnesiaStoriesGame(Dealing, Telling, Scoring):
    name = "amnesia_stories"
    title = "Amnesia Stories"
    min_players = 3
    max_players = 8
    options = {
        "choices": Option(5, 3, 8, help="selection slots, journey cards and number cards"),
        "questions": Option(3, 2, 8, help="steps in each bard's story (at most choices)"),
        "rounds": Option(2, 1, 20, help="times each player is the bard"),
        "bard_points": Option(2, 0, 100, help="bard VP for a step some but not all matched"),
        "audience_points": Option(1, 0, 100, help="audience VP for each matching step"),
        "set_bonus": Option(2, 0, 100, help="audience VP for the bard's numbers in any order"),
        "red_card_on_all_wrong": Option(True, help="a step nobody matched gives a red card"),
        "starting_vp": Option(0, -1000, 1000, help="VP everyone starts with"),
        "all_matched": Option(
            "zero",
            choices=("zero", "zero_at_climax"),
            help="a step the whole audience matched: the bard gets nothing (zero, draft 4), "
            "or bard_points except on the story's last step (zero_at_climax, draft 3)",
        ),
    }
    moves = {
        "deal": frozenset({"deal"}),
        "tell": frozenset({"tell"}),
        "answer": frozenset({"answer"}),
    }
    card_fields = ("story", "slots", "journey")
    # Every list holds at most ``choices`` items (8 at most); picks are slot numbers.
    fields = {
        "deal": {
            "slots": Field("card_list", max_items=options["choices"].max),
            "journey": Field("card_list", max_items=options["choices"].max),
        },
        "tell": {"story": Field("card_list", max_items=options["questions"].max)},
        "answer": {
            "picks": Field(
                "int_list", min=1, max=options["choices"].max, max_items=options["questions"].max
            )
        },
    }
    # Everyone answers the bard's story in secret, in any order and at the same time: the
    # answers of one turn do not depend on each other.
    independent_moves = frozenset({"answer"})
    narrator_class = StoriesNarrator
    # ``view`` hides the deck (and the generator's state) from everyone, and each player's
    # pending answer (``_picks``) from everyone else until the turn is judged.
    secret_keys = HIDDEN_KEYS
    private = ("_picks.*",)

    def turn_marker(self, state: dict[str, Any]) -> str:
        # The story is part of the turn: a story taken back (undo) and told again differently
        # in the same turn is another question, and an answer drawn for the first is stale.
        # Named by a checksum of its cards: a custom deck's ids are long, a marker is short.
        marker = f"{state['phase']}/{state['turn_number']}"
        if state["phase"] == "answer" and state.get("story"):
            marker += f"/{zlib.crc32(' '.join(state['story']).encode()):08x}"
        return marker

    # -- set-up ------------------------------------------------------------------------
    def is_card(self, code: str, setup: Setup) -> bool:
        custom = setup.extra.get("area_ids")
        if isinstance(custom, list):
            return code in custom
        return code in AREA_IDS

    def check_setup(self, setup: Setup) -> None:
        super().check_setup(setup)
        custom = setup.extra.get("area_ids")
        if custom is not None:
            if (
                not isinstance(custom, list)
                or not custom
                or not all(isinstance(c, str) and c.strip() for c in custom)
            ):
                raise BadScript(N_("'area_ids' must be a list of non-empty card ids."))
            if len(set(custom)) != len(custom):
                raise BadScript(N_("'area_ids' lists the same card twice."))
        texts = setup.extra.get("area_texts")
        if texts is not None and not isinstance(texts, dict):
            raise BadScript(N_("'area_texts' must be an object mapping card ids to texts."))
        opts = setup.options
        if opts["questions"] > opts["choices"]:
            raise BadScript(N_("Option questions cannot be larger than option choices."))
        need = cards_needed(opts)
        have = len(deck_ids(setup))
        if have < need:
            raise BadScript(
                N_(
                    "The first selection and journey take {need} area cards but the deck "
                    "holds only {have}; use fewer choices or a larger deck."
                ),
                need=need,
                have=have,
            )
        if setup.deck is not None and setup.deck_mode == "virtual":
            if len(set(setup.deck)) != len(setup.deck):
                raise BadScript(N_("The stacked deck holds the same card twice."))
            if len(setup.deck) < need:
                raise BadScript(
                    N_(
                        "The stacked deck holds {size} cards but the first selection and "
                        "journey take {need}."
                    ),
                    size=len(setup.deck),
                    need=need,
                )

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        opts = setup.options
        players = setup.players
        rng = cards.Rng(cards.seed_state(setup.seed))
        stacked = setup.deck_mode == "virtual" and setup.deck is not None
        if setup.deck_mode == "virtual":
            if stacked:
                deck = list(setup.deck)
            else:
                deck = rng.shuffle(deck_ids(setup))
        else:
            deck = deck_ids(setup)  # the cards not dealt yet; the table holds their order
        state: dict[str, Any] = {
            "phase": "deal",
            "start": setup.start,
            "round": 1,
            "turn_number": 1,
            "turns": opts["rounds"] * len(players),
            "bard": setup.start,
            "selection": {},
            "journey": [],
            "story": [],
            "answered": [],
            "vp": {p: opts["starting_vp"] for p in players},
            "red_cards": {p: 0 for p in players},
            "penalty": {p: 0 for p in players},
            "last_turn": None,
            "history": [],
            "discard": [],
            "stacked_deck": stacked,
            "deck_count": len(deck),
            "_deck": deck,
            "_picks": {},
            "rng": rng.state,
        }
        if setup.deck_mode == "virtual":
            self._deal_virtual(state, opts["choices"])
        return state

    # -- what a player may do and see ------------------------------------------------------
    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        if state.get("finished") or player not in state["seats"]:
            return []
        opts = state["options"]
        phase = state["phase"]
        if phase == "deal" and player == state["bard"]:
            template: dict[str, Any] = {"do": "deal", "journey": opts["choices"]}
            if state["turn_number"] == 1:
                template["slots"] = opts["choices"]
            return [template]
        if phase == "tell" and player == state["bard"]:
            return [
                {"do": "tell", "journey": list(state["journey"]), "questions": opts["questions"]}
            ]
        if phase == "answer" and player not in state["answered"]:
            return [{"do": "answer", "choices": opts["choices"], "questions": opts["questions"]}]
        return []

    def copy_state(self, state: dict[str, Any]) -> dict[str, Any]:
        # A judged turn's row of ``history`` is final (``_judge`` appends a copy of its own
        # and nothing changes it after), so the copies share the rows: a move then costs the
        # same at move 1,000 as at move 60. The list itself is new (a judging appends to it).
        return {k: list(v) if k == "history" else copy_plain(v) for k, v in state.items()}

    def pending_secrets(self, state: dict[str, Any], moves: list[dict[str, Any]]) -> list[int]:
        """The answers of the turn being answered: they are secret until the last one comes
        in and the turn is judged (then they are in ``history`` for all to see). In the
        ``answer`` phase only answers can be played, so they are the last moves of the log."""
        if state.get("phase") != "answer":
            return []
        pending: list[int] = []
        for index in range(len(moves) - 1, -1, -1):
            if moves[index].get("do") != "answer":
                break
            pending.append(index)
        return pending[::-1]

    def narrative(self, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every bard's story in a game, as data a page or an export can show.

        One dict per story told (replay stops at the first illegal move)::

            {"turn": 3, "round": 1, "bard": "Ana",
             "story": ["A12", "A03", "A09"],
             "cards": [{"id": "A12", "texts": {"en": ..., "pt": ..., "ja": ...}}, ...],
             "text": "the bard's narration", "at": "2025-... or None",
             "judged": True,
             "picks": {name: [slot, ...]}, "gains": {name: VP}, "red_cards": {name: n},
             "selection": {"1": id, ...}}

        Until a story is judged, ``judged`` is False and ``picks``, ``gains`` and ``red_cards``
        are None: picks stay secret.
        """
        return StoriesNarrator(self, setup).tell(moves)


GAME = AmnesiaStoriesGame()
