"""Contest: the game-master-less card-contest storytelling game (seed 004).

Rules and rulings: ``shared/referee/contest.md``. Characters are created with ``character``
moves in phase ``characters``. This module holds the set-up, the characters and the story
moves; the rest lives in ``play`` (answering, playing, forfeiting, penalties, joker swap,
healing), ``control`` (taking control of the story, pretzels thrown and eaten), ``options`` (voting
off, extra points), ``checks`` (field checks), ``core`` (cards,
deck, penalties, dropping out, the end), ``flow`` (the course of one contest), ``moves``
(legal moves, from ``candidates`` judged by ``allowed``, or ``offers``) and ``narrative``
(the story record).
"""

from __future__ import annotations

from typing import Any

from games.contest.rules import narrative as story
from games.contest.rules.checks import FIELD_WORDS, _choice, _fail, _flag, _names, _text
from games.contest.rules.control import ContestControl
from games.contest.rules.core import (
    ATTRIBUTES,
    State,
    active,
    draw,
    event,
    full_deck,
    is_active,
    refresh,
    set_controller,
    who,
)
from games.contest.rules.fields import FIELDS, MAX_PLAYERS
from games.contest.rules.moves import legal_moves
from games.contest.rules.options import ContestOptions
from games.contest.rules.play import ContestPlay
from games.rules import cards as C
from games.rules.arguments import require_int
from games.rules.base import Game, Option
from games.rules.errors import N_, BadScript
from games.rules.setup import Setup

# (game class, verb) -> its ``_do_<verb>`` function, found once (``ContestGame.handle``).
_HANDLERS: dict[tuple[type, str], Any] = {}

ALL = frozenset({"characters", "story", "response", "contest", "penalty", "heal", "vote"})


class ContestGame(ContestPlay, ContestControl, ContestOptions, Game):
    name = "contest"
    title = "Contest"
    min_players = 2
    max_players = MAX_PLAYERS
    card_fields = ("card", "cards", "draws")
    options = {
        "hand_size": Option(8, 4, 12, help="cards in hand, and the limit before lost cards"),
        "attribute_points": Option(12, 4, 60, help="points spread over the four attributes"),
        "attribute_min": Option(1, 0, 15),
        "attribute_max": Option(5, 1, 30),
        "control_seconds": Option(60, 0, 3600, help="the web page's timer only"),
        "pretzel_limit": Option(5, 1, 50),
        "eat_limit": Option(3, 0, 50),
        "ties": Option("replay", choices=("replay", "defender", "challenger")),
        "jokers": Option(False),
        "joker_swap": Option(False),
        "teams": Option(False),
        "tarot": Option(False),
        "plot_cards": Option(False),
        "word_bonus": Option(False),
        "hamming_it_up": Option(False),
        "healing": Option(False),
        "extended_contests": Option(False),
        "voting_off": Option(False),
        "extra_points": Option(False),
    }
    moves = {
        "character": frozenset({"characters"}),
        "challenge": frozenset({"story"}),
        "take_control": frozenset({"story"}),
        "throw_pretzel": frozenset({"story", "response"}),
        "eat_pretzels": ALL,
        "accept": frozenset({"response"}),
        "refuse": frozenset({"response"}),
        "forfeit": frozenset({"response", "contest"}),
        "play": frozenset({"contest"}),
        "give_up": frozenset({"contest"}),
        "drink": frozenset({"penalty"}),
        "lose_card": frozenset({"penalty"}),
        "swap_joker": frozenset({"penalty"}),
        "heal": frozenset({"heal"}),
        "vote_off": frozenset({"story"}),
        "stay": frozenset({"vote"}),
        "leave": frozenset({"vote"}),
        "extra_point": ALL,
        "bribe": ALL,
    }
    fields = FIELDS
    # Pretzels fly at the narrator from anyone, at any moment of their turn: one throw does
    # not depend on another (each player throws once per narrator's turn). The two
    # contestants play their cards "in any order" (the draws follow the order the plays are
    # stored), and either may forfeit instead before playing: two phones tapping at once
    # must both count. Only the forfeit of phase contest is one of them (``is_independent``):
    # in phase response the same verb is the challenged player's answer, judged against the
    # log like accepting or refusing. Eating pretzels is independent too: it takes only from
    # the eater's own pile, at any moment, and what the referee checks of it (the eater is
    # in, holds the pretzels, is within the eating limit) reads the table as it is when the
    # move arrives; another player's move never makes it wrong (a pretzel thrown meanwhile
    # only adds to what may be eaten), so the log's position would refuse it for nothing,
    # for instance while the contestants play. It is still judged against the marker of the
    # moment it was sent from, so it is refused once that turn is over.
    independent_moves = frozenset({"throw_pretzel", "play", "forfeit", "eat_pretzels"})
    narrator_class = story.ContestNarrator
    # ``view`` hides the deck and the generator's state, and each hand from everyone but
    # its player (None in the others' records).
    private = ("players.*.hand",)

    def turn_marker(self, state: dict[str, Any]) -> str:
        contest = state.get("contest")
        if state.get("phase") == "contest" and contest:
            # One round of one contest: the contests decided before it name the contest (each
            # contest that reaches its cards ends in a result, which counts it), the round
            # its round (a tie replayed or an extended contest's next round is a new one).
            # A card played moves neither, so the two contestants' plays share it; a card
            # sent for a round that is over is stale, not a card for the next.
            return (
                f"contest/{state.get('control_turn', 0)}/{state.get('contests', 0)}"
                f"/{contest.get('round', 1)}"
            )
        # The narrator's turn: it begins each time control of the story changes hands (the
        # pretzels of phases story and response belong to it).
        return f"control/{state.get('control_turn', 0)}"

    def is_independent(self, state: dict[str, Any], move: dict[str, Any]) -> bool:
        if move.get("do") == "forfeit":
            return state.get("phase") == "contest"
        return super().is_independent(state, move)

    # -- set-up ------------------------------------------------------------------------------
    def is_card(self, code: str, setup: Setup) -> bool:
        o = setup.options
        if o["jokers"] and code in C.JOKERS:
            return True
        if o["tarot"]:
            if code in C.TAROT_MAJOR:
                return bool(o["plot_cards"])
            return C.is_tarot_card(code)
        return C.is_playing_card(code)

    def check_setup(self, setup: Setup) -> None:
        super().check_setup(setup)
        o = setup.options
        for opt, needs in (
            ("joker_swap", "jokers"),
            ("plot_cards", "tarot"),
            ("word_bonus", "tarot"),
        ):
            if o[opt] and not o[needs]:
                raise BadScript(N_("Option {opt} needs option {needs}."), opt=opt, needs=needs)
        if o["attribute_min"] > o["attribute_max"]:
            raise BadScript(N_("Option attribute_min cannot be above attribute_max."))
        if not 4 * o["attribute_min"] <= o["attribute_points"] <= 4 * o["attribute_max"]:
            raise BadScript(
                N_(
                    "The attribute points cannot be spread over four attributes within their bounds."
                )
            )
        if setup.deck is not None and len(set(map(str, setup.deck))) != len(setup.deck):
            raise BadScript(N_("The stacked deck holds the same card twice."))

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        virtual = setup.deck_mode == "virtual"
        rng = C.Rng(C.seed_state(setup.seed))
        deck: list[str] | None = None
        if virtual:
            if setup.deck is not None:
                deck = list(setup.deck)
            else:
                deck = rng.shuffle(full_deck(setup.options))
        size = setup.options["hand_size"]
        players = {
            name: {
                "character": None,
                "attributes": None,
                "bfa": False,
                "extra_points": 0,
                "hand": [] if virtual else None,
                "hand_count": 0,
                "hand_limit": size,
                "lost": [],
                "drinks": 0,
                "pretzels": 0,
                "eaten": 0,
                "out": False,
                "extra_point_earned": False,
            }
            for name in setup.players
        }
        return {
            "phase": "characters",
            "start": setup.start,
            "controller": None,
            "players": players,
            "contest": None,
            "last_contest": None,
            "contests": 0,
            "owed": {},
            "after_penalty": None,
            "swap": None,
            "vote": None,
            "throwers": [],
            "control_turn": 0,
            "deck": deck,
            "discard": [] if virtual else None,
            "deck_count": len(deck) if virtual else None,
            "discard_count": 0 if virtual else None,
            "earned_points": {name: 0 for name in setup.players},
            "rng": rng.state,
            "events": [],
        }

    # -- play ----------------------------------------------------------------------------------
    # ``core.active(state)`` is the method itself (no call in between: the referee asks at
    # every move, and a simulation's table too).
    active_players = staticmethod(active)
    is_active = staticmethod(is_active)

    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        state["events"] = []
        # ``Game.handle``'s dispatch to ``_do_<verb>``, made here without the call to it (and
        # the ``super()`` it takes): one move at a time, a simulation's every move. The
        # method is found once per verb (``check_move`` let only the game's verbs through).
        key = (type(self), move["do"])
        method = _HANDLERS.get(key)
        if method is None:
            method = _HANDLERS[key] = getattr(type(self), "_do_" + move["do"])
        method(self, state, move)
        # The virtual deck's and discard pile's counts (what the view shows of them), once the
        # move is made: drawing and discarding leave them to this, not set at every card.
        if state["deck_mode"] == "virtual":
            state["deck_count"] = len(state["deck"])
            state["discard_count"] = len(state["discard"])

    # ``moves.legal_moves(game, state, player)`` is the method itself (no call in between: a
    # simulation asks for legal moves about twice a move).
    legal_moves = legal_moves

    # -- characters ----------------------------------------------------------------------------
    def _do_character(self, state: State, move: dict) -> None:
        by = move["by"]
        p = state["players"][by]
        if p["character"] is not None:
            raise _fail("not_your_turn", N_("{by} already has a character."), by=by)
        o = state["options"]
        name = _text(move, "name")
        extra = move.get("extra_points", 0)
        if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
            raise _fail(
                "bad_argument", N_("The points won before must be a whole number, 0 or more.")
            )
        attrs = {}
        for attr in ATTRIBUTES:
            attrs[attr] = require_int(
                move, attr, o["attribute_min"], o["attribute_max"] + extra, FIELD_WORDS[attr]
            )
        bfa = _flag(move, "bfa", False)
        if sum(attrs.values()) != o["attribute_points"] + extra:
            raise _fail(
                "bad_argument",
                N_("The four attributes must add up to {total}, not {given}."),
                total=o["attribute_points"] + extra,
                given=sum(attrs.values()),
            )
        taken = {n.casefold() for n in state["seats"]}
        taken |= {q["character"].casefold() for q in state["players"].values() if q["character"]}
        if name.casefold() in taken:
            raise _fail(
                "rule_violation",
                N_("The name {name} is already a player's or a character's."),
                name=name,
            )
        p.update(character=name, attributes=attrs, bfa=bfa, extra_points=extra)
        event(
            state, "character", f"{by} plays {name}.", player=by, character=name, attributes=attrs
        )
        if all(q["character"] for q in state["players"].values()):
            self._begin(state)

    def _begin(self, state: State) -> None:
        size = state["options"]["hand_size"]
        if state["deck_mode"] == "virtual":
            for _ in range(size):
                for name in state["seats"]:
                    card = draw(state)
                    if card is not None:
                        state["players"][name]["hand"].append(card)
            for name in state["seats"]:
                refresh(state, name)
        else:
            for name in state["seats"]:
                state["players"][name]["hand_count"] = size
        event(state, "deal", f"Every player is dealt {size} cards.")
        state["phase"] = "story"
        set_controller(state, state["start"], "start")

    # -- story -------------------------------------------------------------------------------
    def _do_challenge(self, state: State, move: dict) -> None:
        by = move["by"]
        if by != state["controller"]:
            raise _fail(
                "not_your_turn",
                N_("Only {controller}, the narrator, may challenge."),
                controller=state["controller"],
            )
        target = move.get("target")
        if not isinstance(target, str):
            raise _fail("bad_argument", N_("Choose whom to challenge."))
        kind = _text(move, "contest")
        attribute = _choice(move, "attribute", ATTRIBUTES)
        named = _flag(move, "named", True)
        extended = _flag(move, "extended", False)
        has_teams = "team" in move or "target_team" in move
        if has_teams:
            team = _names(move, "team") or [by]
            target_team = _names(move, "target_team") or [target]
        else:
            team, target_team = [by], [target]
        self._target(state, target)
        # Without teams the sides are the challenger (seated and in the game: ``check_move``
        # asked) and the target (asked just above): nothing more to ask of them.
        if has_teams:
            for name in team + target_team:
                self._target(state, name, "team member")
        if target == by:
            raise _fail("rule_violation", N_("Challenge another player, not yourself."))
        if extended:
            self._require_option(state, "extended_contests", "extended contests")
        teams = None
        if has_teams:
            self._require_option(state, "teams", "teams")
            if by not in team or target not in target_team:
                raise _fail("rule_violation", N_("Each leader must be in their own team."))
            if set(team) & set(target_team):
                raise _fail("rule_violation", N_("Nobody can be in both teams."))
            if len(set(team)) != len(team) or len(set(target_team)) != len(target_team):
                raise _fail("rule_violation", N_("A team lists the same player twice."))
            teams = {by: list(team), target: list(target_team)}
        if not named:
            event(
                state,
                "unnamed",
                f"{who(state, by)} challenges {target} without calling the character by name: "
                "the contest is void and the narrator owes a penalty.",
                challenger=by,
                defender=target,
                kind=kind,
            )
            state["owed"] = {by: 1}
            state["after_penalty"] = "unnamed"
            state["phase"] = "penalty"
            return
        state["contest"] = {
            "challenger": by,
            "defender": target,
            "kind": kind,
            "attributes": {by: attribute},
            "cards": {},
            "draws": {},
            "totals": {},
            "played": [],
            "round": 1,
            "rounds": [],
            "extended": extended,
            "extended_lost": {},
            "teams": teams,
            "penalties": {},
            "swap_offered": False,
        }
        long = " (an extended contest)" if extended else ""
        event(
            state,
            "challenge",
            f"{who(state, by)} challenges {who(state, target)} to {kind} with {attribute}{long}.",
            challenger=by,
            defender=target,
            kind=kind,
            attribute=attribute,
            extended=extended,
            teams=teams,
        )
        state["phase"] = "response"

    def narrative(self, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return story.narrative(self, setup, moves)


GAME = ContestGame()


__all__ = ["GAME", "ContestGame"]
