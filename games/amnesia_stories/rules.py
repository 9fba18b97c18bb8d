"""Amnesia Stories: the bard game (seed 001, rulings in ``shared/referee/amnesia_stories.md``).

Each turn one player is the bard: they pick ``questions`` cards from the journey and tell them
as a story; then everyone, the bard included, secretly matches each step to one of the
``choices`` illustrations in the selection slots, and the audience scores for agreeing with the
bard.

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

from games.amnesia_stories.area_texts import AREA_IDS, area_texts
from games.rules import cards
from games.rules.arguments import optional_text
from games.rules.base import Field, Game, Narrator, Option, Story
from games.rules.errors import N_, BadScript, IllegalMove
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


class StoriesNarrator(Narrator):
    """Each bard's story, one move at a time: a ``tell`` opens the story's entry, and the
    judging of its turn (a new row of ``history``) fills in the picks and points. The cursor
    names the stories told and not judged yet, by turn (the only entries a move may change)."""

    def open_entries(self) -> list[int]:
        return sorted(self.cursor.get("open", {}).values())

    def step(
        self,
        story: Story,
        index: int,
        move: dict[str, Any],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        open_turns = self.cursor.setdefault("open", {})
        if move.get("do") == "tell":
            custom_texts = self.setup.extra.get("area_texts") or {}
            entry = {
                "turn": after["turn_number"],
                "round": after["round"],
                "bard": after["bard"],
                "story": list(after["story"]),
                "cards": [{"id": c, "texts": _texts_for(c, custom_texts)} for c in after["story"]],
                "text": move.get("text") or "",
                "at": move.get("at"),
                "judged": False,
                "picks": None,
                "gains": None,
                "red_cards": None,
                "selection": dict(after["selection"]),
            }
            open_turns[str(entry["turn"])] = story.append(entry)
        judged = after.get("history", [])[len(before.get("history", [])) :]
        for turn in judged:
            position = open_turns.pop(str(turn["turn_number"]), None)
            if position is not None:
                story[position].update(
                    judged=True,
                    picks=copy_plain(turn["picks"]),
                    gains=dict(turn["gains"]),
                    red_cards=dict(turn["red_cards"]),
                )


class AmnesiaStoriesGame(Game):
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

    # -- turn set-up ---------------------------------------------------------------------
    @staticmethod
    def _draw(state: dict[str, Any], n: int) -> list[str]:
        drawn, state["_deck"] = state["_deck"][:n], state["_deck"][n:]
        state["deck_count"] = len(state["_deck"])
        return drawn

    @staticmethod
    def _place(state: dict[str, Any], slots: list[str], journey: list[str]) -> None:
        state["selection"] = {str(i + 1): card for i, card in enumerate(slots)}
        state["journey"] = list(journey)
        state["story"] = []
        state["answered"] = []
        state["_picks"] = {}
        state["phase"] = "tell"

    @staticmethod
    def _discard_selection(state: dict[str, Any]) -> None:
        """The finished turn's selection cards go to the discard (slot order)."""
        selection = state["selection"]
        state["discard"].extend(selection[k] for k in sorted(selection, key=int))
        state["selection"] = {}

    @staticmethod
    def _refill(state: dict[str, Any]) -> None:
        """The discard goes under the remaining deck: oldest first for a stacked deck or a
        physical table (whose order the referee does not know), shuffled by the game's own
        generator for a seeded virtual deck."""
        returned = list(state["discard"])
        if state["deck_mode"] == "virtual" and not state.get("stacked_deck"):
            rng = cards.Rng(state["rng"])
            rng.shuffle(returned)
            state["rng"] = rng.state
        state["_deck"] = state["_deck"] + returned
        state["discard"] = []
        state["deck_count"] = len(state["_deck"])

    def _next_journey_ready(self, state: dict[str, Any], choices: int) -> None:
        """Discard the finished selection; refill the deck if a journey cannot be dealt."""
        self._discard_selection(state)
        if len(state["_deck"]) < choices:
            self._refill(state)

    def _deal_virtual(self, state: dict[str, Any], choices: int) -> None:
        slots = self._draw(state, choices) if not state["journey"] else list(state["journey"])
        self._next_journey_ready(state, choices)
        self._place(state, slots, self._draw(state, choices))

    def _start_turn(self, state: dict[str, Any]) -> None:
        seats = state["seats"]
        n = state["turn_number"]
        state["round"] = (n - 1) // len(seats) + 1
        state["bard"] = seats[(seats.index(state["start"]) + n - 1) % len(seats)]
        if state["deck_mode"] == "virtual":
            self._deal_virtual(state, state["options"]["choices"])
        else:
            state["phase"] = "deal"

    # -- play --------------------------------------------------------------------------
    def _do_deal(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["bard"]:
            raise IllegalMove(
                "not_your_turn", N_("Only the bard, {bard}, deals the cards."), bard=state["bard"]
            )
        choices = state["options"]["choices"]
        first = state["turn_number"] == 1
        journey = _card_list(move, "journey", choices)
        slots = _card_list(move, "slots", choices) if first or "slots" in move else None
        if slots is not None and not first and slots != state["journey"]:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "After the first turn the slots are the previous journey cards, in order; "
                    "deal only the new journey."
                ),
            )
        new = journey + (slots if first else [])
        if len(set(new)) != len(new):
            raise IllegalMove("rule_violation", N_("The same card cannot be dealt twice."))
        if not first:
            self._next_journey_ready(state, choices)
        for card in new:
            if card not in state["_deck"]:
                raise IllegalMove(
                    "rule_violation", N_("Card {card} has already been dealt."), card=card
                )
        state["_deck"] = [c for c in state["_deck"] if c not in new]
        state["deck_count"] = len(state["_deck"])
        self._place(state, slots if first else list(state["journey"]), journey)

    def _do_tell(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        if by != state["bard"]:
            raise IllegalMove(
                "not_your_turn", N_("Only the bard, {bard}, tells the story."), bard=state["bard"]
            )
        questions = state["options"]["questions"]
        story = _card_list(move, "story", questions)
        optional_text(move, "text")
        if len(set(story)) != len(story):
            raise IllegalMove("rule_violation", N_("A story cannot use the same card twice."))
        for card in story:
            if card not in state["journey"]:
                raise IllegalMove(
                    "rule_violation", N_("Card {card} is not in the journey."), card=card
                )
        state["story"] = story
        state["phase"] = "answer"

    def _do_answer(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        by = move["by"]
        opts = state["options"]
        questions, choices = opts["questions"], opts["choices"]
        picks = move.get("picks")
        if not isinstance(picks, list) or len(picks) != questions:
            raise IllegalMove(
                "bad_argument",
                N_("Choose a slot number for each of the {questions} steps."),
                questions=questions,
            )
        for pick in picks:
            if isinstance(pick, bool) or not isinstance(pick, int) or not 1 <= pick <= choices:
                raise IllegalMove(
                    "bad_argument",
                    N_("Each pick must be a slot number from 1 to {choices}."),
                    choices=choices,
                )
        if len(set(picks)) != len(picks):
            raise IllegalMove(
                "rule_violation", N_("You hold one card of each number: picks must all differ.")
            )
        if by in state["answered"]:
            raise IllegalMove("rule_violation", N_("{by} has already answered this turn."), by=by)
        state["answered"].append(by)
        state["_picks"][by] = list(picks)
        if len(state["answered"]) == len(state["seats"]):
            self._judge(state)

    def _judge(self, state: dict[str, Any]) -> None:
        opts = state["options"]
        bard = state["bard"]
        seats = state["seats"]
        picks = {p: state["_picks"][p] for p in seats}
        gains, reds = judge_turn(opts, bard, picks)
        for p in seats:
            state["vp"][p] += gains[p]
            state["red_cards"][p] += reds[p]
        turn = {
            "turn_number": state["turn_number"],
            "bard": bard,
            "story": list(state["story"]),
            "picks": picks,
            "gains": gains,
            "red_cards": reds,
        }
        state["last_turn"] = turn
        state["history"].append(copy_plain(turn))
        state["_picks"] = {}
        if state["turn_number"] >= state["turns"]:
            self._end(state)
        else:
            state["turn_number"] += 1
            self._start_turn(state)

    def _end(self, state: dict[str, Any]) -> None:
        worst = max(state["red_cards"].values())
        for p in state["seats"]:
            if worst > 0 and state["red_cards"][p] == worst:
                state["penalty"][p] = worst
                state["vp"][p] -= worst
        best = max(state["vp"].values())
        state["winners"] = [p for p in state["seats"] if state["vp"][p] == best]
        state["finished"] = True
        state["phase"] = "ended"
        state["bard"] = None
        state["story"] = []
        state["answered"] = []

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


# How a reader names the card lists a move reads: a refusal says these, never a key.
CARD_LISTS = {
    "journey": N_("Journey (text side up)"),
    "slots": N_("Selection slots (face up)"),
    "story": N_("The story, in order"),
}


def _card_list(move: dict[str, Any], key: str, count: int) -> list[str]:
    value = move.get(key)
    if (
        not isinstance(value, list)
        or len(value) != count
        or not all(isinstance(c, str) for c in value)
    ):
        raise IllegalMove(
            "bad_argument",
            N_("{what}: choose a card for each of the {count} places."),
            what=CARD_LISTS[key],
            count=count,
        )
    return list(value)


def judge_step(
    options: dict[str, Any], bard: str, picks: dict[str, int], *, climax: bool
) -> tuple[dict[str, int], dict[str, int], str]:
    """One step of a story: ``(gains, red_cards, outcome)``, the outcome ``"all"``, ``"some"``
    or ``"none"`` of the audience matching the bard. ``climax`` is the story's last step.
    No set bonus here: that is judged over the whole turn."""
    gains = {p: 0 for p in picks}
    reds = {p: 0 for p in picks}
    audience = [p for p in picks if p != bard]
    matched = [p for p in audience if picks[p] == picks[bard]]
    for p in matched:
        gains[p] += options["audience_points"]
    if not matched:
        outcome = "none"
        if options["red_card_on_all_wrong"]:
            reds[bard] += 1
    elif len(matched) < len(audience):
        outcome = "some"
        gains[bard] += options["bard_points"]
    else:
        outcome = "all"
        # Draft 3 paid the bard for an obvious step too, except at the story's climax.
        if options.get("all_matched", "zero") == "zero_at_climax" and not climax:
            gains[bard] += options["bard_points"]
    return gains, reds, outcome


def judge_turn(
    options: dict[str, Any], bard: str, picks: dict[str, list[int]]
) -> tuple[dict[str, int], dict[str, int]]:
    """VP gained and red cards given by one judged turn: ``(gains, red_cards)``."""
    gains = {p: 0 for p in picks}
    reds = {p: 0 for p in picks}
    audience = [p for p in picks if p != bard]
    told = picks[bard]
    last = len(told) - 1
    for step in range(len(told)):
        step_gains, step_reds, _outcome = judge_step(
            options, bard, {p: picks[p][step] for p in picks}, climax=step == last
        )
        for p in picks:
            gains[p] += step_gains[p]
            reds[p] += step_reds[p]
    for p in audience:
        if set(picks[p]) == set(told):
            gains[p] += options["set_bonus"]
    return gains, reds


def _texts_for(card: str, custom: dict[str, Any]) -> dict[str, str]:
    if card in custom:
        value = custom[card]
        if isinstance(value, dict):
            return {k: str(v) for k, v in value.items()}
        return {"en": str(value)}
    return area_texts(card)


GAME = AmnesiaStoriesGame()
