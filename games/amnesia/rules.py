"""Amnesia (seed 000): the token game of an amnesiac protagonist.

Rulings beyond ``shared/referee/amnesia.md``:
- ``pass`` refills: a player already at or above ``token_cap`` cannot pass at all under
  ``pass_at_cap: "refuse"`` (the default, as the contract rules), since the seed ends a pass
  below the cap. ``"allow"`` keeps the first version's reading (``take: 0`` lets them pass);
  tables stored before the change carry it, so their logs replay exactly.
- The stacked ``deck`` is read as the order of the virtual draws across the whole game.
  A stacked card already turned in the current challenge is skipped (every challenge uses
  a full 52-card deck); once the stack runs out, draws come from the seeded generator.
- A role check ("anyone but the narrator", "the narrator", "the player to act") that fails is
  ``not_your_turn``: the mover is real, just not one of those allowed to act. So is ``join``
  by the narrator or the insisting player (they are the two sides already); joining twice or
  after the first card is ``rule_violation``.
"""

from __future__ import annotations

from typing import Any

from games.amnesia import narrative as story
from games.rules import cards
from games.rules.arguments import require_int
from games.rules.base import Field, Game, Option
from games.rules.errors import N_, IllegalMove
from games.rules.setup import Setup

TURN, SCENE, INSIST, CHALLENGE, ENDED = "turn", "scene", "insist", "challenge", "ended"

MAX_ABILITY_LENGTH = 80
MAX_ABILITIES = 10


class AmnesiaGame(Game):
    name = "amnesia"
    title = "Amnesia"
    min_players = 2
    max_players = 8
    options = {
        "start_tokens": Option(10, 1, 50, help="Tokens each player starts with."),
        "token_cap": Option(
            10, 1, 100, help="A pass may take tokens only while you end below this."
        ),
        "pass_at_cap": Option(
            "refuse",
            choices=("refuse", "allow"),
            help="A player at or above the token cap: cannot pass (refuse), or passes taking "
            "nothing (allow).",
        ),
        "finale_factor": Option(
            2,
            0,
            20,
            help="The room may be remembered once the discard exceeds this × players.",
        ),
        "tie_loses": Option(
            True,
            help="In a challenge, a card of the same rank is a miss (off: guess again).",
        ),
    }
    moves = {
        "continue": frozenset({TURN}),
        "flashback": frozenset({TURN}),
        "room_flashback": frozenset({TURN}),
        "pass": frozenset({TURN}),
        "end_story": frozenset({TURN}),
        "suggest": frozenset({SCENE}),
        "insist": frozenset({SCENE}),
        "end_scene": frozenset({SCENE}),
        "accept": frozenset({INSIST}),
        "refuse": frozenset({INSIST}),
        "stake": frozenset({CHALLENGE}),
        "join": frozenset({CHALLENGE}),
        "open": frozenset({CHALLENGE}),
        "higher": frozenset({CHALLENGE}),
        "lower": frozenset({CHALLENGE}),
        "quit": frozenset({CHALLENGE}),
    }
    card_fields = ("card",)
    # A turned card: named with a physical deck, left out to draw one with a virtual deck.
    _card = Field("card", blank="omit")
    fields = {
        "flashback": {
            "abilities": Field(
                "str_list",
                max_length=MAX_ABILITY_LENGTH,
                max_items=MAX_ABILITIES,
                separator=",",
                label=N_("The abilities it awakens"),
            )
        },
        "pass": {"take": Field("int", min=0, label=N_("The tokens to take from the bank"))},
        "end_story": {"agreed": Field("str_list", max_items=max_players, label=N_("Who agrees"))},
        "open": {"card": _card},
        "higher": {"card": _card},
        "lower": {"card": _card},
    }
    # Suggestions in one scene do not depend on each other: several people may offer one at
    # once. (Insisting does: it stops the scene for the narrator's answer.) Nor do the stakes
    # and the joins of one challenge, made "in any order" before its first card: the two
    # sides and anyone joining may all tap at once.
    independent_moves = frozenset({"suggest", "stake", "join"})
    narrator_class = story.AmnesiaNarrator
    # Nothing in hand is secret in Amnesia; only the future draws are (the stacked deck's
    # order, and the generator's state, which ``view`` hides like every game's).
    secret_keys = ("stack",)

    def turn_marker(self, state: dict[str, Any]) -> str:
        # One scene: its phase and the count of scenes and memories told before it.
        marker = f"{state['phase']}/{state['scenes']}/{state['flashbacks']}"
        challenge = state.get("challenge")
        if state["phase"] == CHALLENGE and challenge:
            # One challenge of the scene (those decided before it name it: a scene may hold
            # several), before or after its first card: a stake or a join sent before the
            # card is stale once it is turned. A stake or a join moves neither.
            opened = "cards" if challenge["reference"] is not None else "stakes"
            marker += f"/{state['challenges']}/{opened}"
        return marker

    # -- set-up ------------------------------------------------------------------------
    def is_card(self, code: str, setup: Setup) -> bool:
        return cards.is_playing_card(code)

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        start_tokens = setup.options["start_tokens"]
        return {
            "phase": TURN,
            "turn": setup.start,
            "narrator": None,
            "tokens": {p: start_tokens for p in setup.players},
            "bank": 0,
            "discard": 0,
            "pot": 0,
            "room_flashback_told": False,
            "abilities": [],
            "scenes": 0,
            "flashbacks": 0,
            "challenges": 0,
            "challenge": None,
            "last_challenge": None,
            "scene_kind": None,
            "insist": None,
            "moves_made": 0,
            "rng": cards.seed_state(setup.seed),
            "stack": list(setup.deck or []),
        }

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def finale_threshold(state: dict[str, Any]) -> int:
        return state["options"]["finale_factor"] * len(state["seats"])

    @staticmethod
    def _pay(state: dict[str, Any], who: str, pile: str, why: str) -> None:
        if state["tokens"][who] < 1:
            raise IllegalMove(
                "insufficient_tokens",
                N_("{who} has 0 tokens and cannot pay {why}."),
                who=who,
                why=why,
            )
        state["tokens"][who] -= 1
        state[pile] += 1

    def _require_turn(self, state: dict[str, Any], by: str) -> None:
        if by != state["turn"]:
            raise IllegalMove(
                "not_your_turn", N_("It is {turn}'s turn, not {by}'s."), turn=state["turn"], by=by
            )

    def _require_narrator(self, state: dict[str, Any], by: str, what: str) -> None:
        if by != state["narrator"]:
            raise IllegalMove(
                "not_your_turn",
                N_("Only the narrator, {narrator}, can {what}."),
                narrator=state["narrator"],
                what=what,
            )

    def _require_not_narrator(self, state: dict[str, Any], by: str, what: str) -> None:
        if by == state["narrator"]:
            raise IllegalMove(
                "not_your_turn", N_("{by} is narrating and cannot {what}."), by=by, what=what
            )

    # -- the moves -----------------------------------------------------------------------
    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        super().handle(state, move)
        state["moves_made"] += 1

    def _first_move_check(self, state: dict[str, Any], verb: str) -> None:
        if state["moves_made"] == 0 and verb != "continue":
            raise IllegalMove(
                "rule_violation",
                N_("The story must begin with the start player continuing it."),
            )

    def _start_scene(self, state: dict[str, Any], by: str, kind: str) -> None:
        state["phase"] = SCENE
        state["narrator"] = by
        state["scene_kind"] = kind

    def _do_continue(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        self._pay(state, by, "bank", N_("to continue the story"))
        state["scenes"] += 1
        self._start_scene(state, by, "scene")

    def _do_flashback(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        abilities = move.get("abilities", [])
        if abilities is None:
            abilities = []
        if not isinstance(abilities, list) or not all(isinstance(a, str) for a in abilities):
            raise IllegalMove(
                "bad_argument", N_("The abilities a memory awakens must be short texts.")
            )
        abilities = [a.strip() for a in abilities]
        if any(not a or len(a) > MAX_ABILITY_LENGTH for a in abilities):
            raise IllegalMove(
                "bad_argument",
                N_("Each ability must be between 1 and {max_length} characters."),
                max_length=MAX_ABILITY_LENGTH,
            )
        if len(abilities) > MAX_ABILITIES:
            raise IllegalMove(
                "bad_argument",
                N_("A memory activates at most {max_abilities} abilities."),
                max_abilities=MAX_ABILITIES,
            )
        self._first_move_check(state, "flashback")
        if state["room_flashback_told"]:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "The memory of the room has been told: no more flashbacks, "
                    "the story heads to its end."
                ),
            )
        self._pay(state, by, "discard", N_("for a flashback"))
        state["abilities"].extend(abilities)
        state["flashbacks"] += 1
        self._start_scene(state, by, "flashback")

    def _do_room_flashback(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        self._first_move_check(state, "room_flashback")
        if state["room_flashback_told"]:
            raise IllegalMove("rule_violation", N_("The memory of the room has already been told."))
        need = self.finale_threshold(state)
        if not state["discard"] > need:
            raise IllegalMove(
                "rule_violation",
                N_(
                    "The memory of the room opens once the discard holds more than {need} tokens "
                    "(it holds {discard})."
                ),
                need=need,
                discard=state["discard"],
            )
        self._pay(state, by, "discard", N_("for the memory of the room"))
        state["room_flashback_told"] = True
        state["flashbacks"] += 1
        self._start_scene(state, by, "room")

    @staticmethod
    def _pass_at_cap(state: dict[str, Any]) -> str:
        # States made before the option existed lack it; their tables carry "allow".
        return state["options"].get("pass_at_cap", "refuse")

    def _do_pass(self, state, move):
        by = move["by"]
        self._require_turn(state, by)
        take = require_int(move, "take", 0, what=N_("The tokens to take from the bank"))
        if take > state["bank"]:
            raise IllegalMove(
                "bad_argument",
                N_("The bank holds {bank} tokens; {by} cannot take {take}."),
                bank=state["bank"],
                by=by,
                take=take,
            )
        cap = state["options"]["token_cap"]
        if state["tokens"][by] >= cap and self._pass_at_cap(state) == "refuse":
            raise IllegalMove(
                "bad_argument",
                N_(
                    "{by} has {tokens} tokens, at or above the cap of {cap}: a pass refills, "
                    "so {by} cannot pass and must continue or tell a memory."
                ),
                by=by,
                tokens=state["tokens"][by],
                cap=cap,
            )
        if take > 0 and state["tokens"][by] + take >= cap:
            raise IllegalMove(
                "bad_argument",
                N_(
                    "{by} has {tokens} tokens and must end a pass below {cap}; "
                    "taking {take} is too many."
                ),
                by=by,
                tokens=state["tokens"][by],
                cap=cap,
                take=take,
            )
        self._first_move_check(state, "pass")
        state["tokens"][by] += take
        state["bank"] -= take
        state["turn"] = self.next_in(state["seats"], by)

    def _do_end_story(self, state, move):
        agreed = move.get("agreed")
        if not isinstance(agreed, list) or not all(isinstance(a, str) for a in agreed):
            raise IllegalMove("bad_argument", N_("Tick every player who agrees to end the story."))
        for name in agreed:
            if name not in state["seats"]:
                raise IllegalMove(
                    "unknown_player", N_("There is no player called “{name}”."), name=name
                )
        if not state["room_flashback_told"]:
            raise IllegalMove(
                "rule_violation",
                N_("The story can end only after the memory of the room is told."),
            )
        missing = [p for p in state["seats"] if p not in agreed]
        if missing:
            raise IllegalMove(
                "rule_violation",
                N_("Everyone must agree to end the story; not yet: {missing}."),
                missing=", ".join(missing),
            )
        state["phase"] = ENDED
        state["finished"] = True
        state["turn"] = None

    def _do_suggest(self, state, move):
        by = move["by"]
        self._require_not_narrator(state, by, N_("make suggestions to themself"))

    def _do_insist(self, state, move):
        by = move["by"]
        self._require_not_narrator(state, by, N_("pay themself to insist"))
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens", N_("{by} has 0 tokens and cannot pay to insist."), by=by
            )
        state["insist"] = {"by": by}
        state["phase"] = INSIST

    def _do_end_scene(self, state, move):
        by = move["by"]
        self._require_narrator(state, by, N_("end the scene"))
        state["turn"] = self.next_in(state["seats"], by)
        state["narrator"] = None
        state["scene_kind"] = None
        state["phase"] = TURN

    def _do_accept(self, state, move):
        by = move["by"]
        self._require_narrator(state, by, N_("accept a paid suggestion"))
        insister = state["insist"]["by"]
        state["tokens"][insister] -= 1
        state["tokens"][by] += 1
        state["insist"] = None
        state["phase"] = SCENE

    def _do_refuse(self, state, move):
        by = move["by"]
        self._require_narrator(state, by, N_("refuse a paid suggestion"))
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens",
                N_("{by} has 0 tokens and cannot refuse: a challenge needs a token to open."),
                by=by,
            )
        insister = state["insist"]["by"]
        state["tokens"][insister] -= 1
        state["pot"] += 1
        state["challenge"] = {
            "narrator": by,
            "insister": insister,
            "participants": [p for p in state["seats"] if p in (by, insister)],
            "bets": {insister: 1},
            "reference": None,
            "to_act": None,
            "drawn": [],
            "joined": [],
        }
        state["insist"] = None
        state["phase"] = CHALLENGE

    # -- the challenge -----------------------------------------------------------------
    def _do_stake(self, state, move):
        by = move["by"]
        ch = state["challenge"]
        if by not in (ch["narrator"], ch["insister"]):
            raise IllegalMove(
                "not_your_turn",
                N_("Only the narrator and the insisting player state the stakes."),
            )
        if ch["reference"] is not None:
            raise IllegalMove(
                "rule_violation", N_("The stakes are set before the first card is turned.")
            )

    def _do_join(self, state, move):
        by = move["by"]
        ch = state["challenge"]
        if by in (ch["narrator"], ch["insister"]):
            raise IllegalMove(
                "not_your_turn",
                N_("{by} is already a side of this challenge and cannot join it."),
                by=by,
            )
        if by in ch["joined"]:
            raise IllegalMove(
                "rule_violation", N_("{by} has already joined this challenge."), by=by
            )
        if ch["reference"] is not None:
            raise IllegalMove(
                "rule_violation", N_("No one may join once the first card is turned.")
            )
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens", N_("{by} has 0 tokens and cannot join."), by=by
            )
        state["tokens"][by] -= 1
        state["pot"] += 1
        ch["bets"][by] = ch["bets"].get(by, 0) + 1
        ch["joined"].append(by)
        ch["participants"] = [p for p in state["seats"] if p in ch["participants"] or p == by]

    def _do_open(self, state, move):
        by = move["by"]
        ch = state["challenge"]
        self._require_narrator(state, by, N_("turn the first card"))
        card = self._card_for(state, move)  # field checks (bad_argument) come first
        if ch["reference"] is not None:
            raise IllegalMove("rule_violation", N_("The first card has already been turned."))
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens", N_("{by} has 0 tokens and cannot open."), by=by
            )
        state["tokens"][by] -= 1
        state["pot"] += 1
        ch["bets"][by] = ch["bets"].get(by, 0) + 1
        self._draw(state, card)
        ch["reference"] = ch["drawn"][-1]
        ch["to_act"] = self.next_in(state["seats"], by, ch["participants"])

    def _do_higher(self, state, move):
        by = move["by"]
        self._guess(state, move, by, "higher")

    def _do_lower(self, state, move):
        by = move["by"]
        self._guess(state, move, by, "lower")

    def _require_to_act(self, state, by):
        """The role check of a go (not_your_turn). Before the first card only the narrator
        may act; whether the verb fits is checked after the move's fields
        (``_require_opened``)."""
        ch = state["challenge"]
        if ch["reference"] is None:
            if by == ch["narrator"]:
                return
            raise IllegalMove(
                "not_your_turn",
                N_("The narrator, {narrator}, turns the first card."),
                narrator=ch["narrator"],
            )
        if by != ch["to_act"]:
            raise IllegalMove(
                "not_your_turn", N_("It is {to_act}'s go in the challenge."), to_act=ch["to_act"]
            )

    @staticmethod
    def _require_opened(state):
        if state["challenge"]["reference"] is None:
            raise IllegalMove(
                "rule_violation", N_("Turn the first card before guessing or quitting.")
            )

    def _guess(self, state, move, by, direction):
        self._require_to_act(state, by)
        ch = state["challenge"]
        card = self._card_for(state, move)
        self._require_opened(state)
        if state["tokens"][by] < 1:
            raise IllegalMove(
                "insufficient_tokens",
                N_("{by} has 0 tokens and can only quit the challenge."),
                by=by,
            )
        state["tokens"][by] -= 1
        state["pot"] += 1
        ch["bets"][by] = ch["bets"].get(by, 0) + 1
        self._draw(state, card)
        drawn = ch["drawn"][-1]
        ref = cards.rank_value(ch["reference"])
        got = cards.rank_value(drawn)
        if got == ref and not state["options"]["tie_loses"]:
            return  # nothing decided: the same player guesses again
        hit = got > ref if direction == "higher" else got < ref
        if hit:
            ch["reference"] = drawn
            ch["to_act"] = self.next_in(state["seats"], by, ch["participants"])
        else:
            self._leave(state, by)

    def _do_quit(self, state, move):
        by = move["by"]
        self._require_to_act(state, by)
        self._require_opened(state)
        ch = state["challenge"]
        back = ch["bets"].get(by, 0) // 2
        state["pot"] -= back
        state["tokens"][by] += back
        self._leave(state, by)

    def _leave(self, state, who):
        ch = state["challenge"]
        following = self.next_in(state["seats"], who, ch["participants"])
        ch["participants"].remove(who)
        if len(ch["participants"]) == 1:
            winner = ch["participants"][0]
            won = state["pot"]
            state["tokens"][winner] += won
            state["pot"] = 0
            state["challenges"] += 1
            state["last_challenge"] = {
                "winner": winner,
                "pot": won,
                "drawn": list(ch["drawn"]),
            }
            state["challenge"] = None
            state["phase"] = SCENE
        else:
            ch["to_act"] = following

    def _card_for(self, state, move) -> str | None:
        """The card named by the move, checked; None means 'draw one' (virtual mode)."""
        card = move.get("card")
        if card is None:
            if state["deck_mode"] == "physical":
                raise IllegalMove(
                    "bad_argument",
                    N_("With a physical deck, name the card that was turned."),
                )
            if len(state["challenge"]["drawn"]) >= 52:
                raise IllegalMove("rule_violation", N_("Every card of the deck has been turned."))
            return None
        if not cards.is_playing_card(card):
            raise IllegalMove(
                "bad_argument",
                N_("“{card}” is not a playing card (e.g. 7H, QS, 10D)."),
                card=card,
            )
        if card in state["challenge"]["drawn"]:
            raise IllegalMove(
                "rule_violation",
                N_("{card} has already been turned in this challenge."),
                card=cards.label(card),
            )
        return card

    def _draw(self, state, card: str | None) -> None:
        drawn = state["challenge"]["drawn"]
        if card is None:
            while state["stack"]:
                top = state["stack"].pop(0)
                if top not in drawn:
                    card = top
                    break
        if card is None:
            rng = cards.Rng(state["rng"])
            card = rng.choice([c for c in cards.standard_deck() if c not in drawn])
            state["rng"] = rng.state
        drawn.append(card)

    # -- what the pages ask ------------------------------------------------------------
    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        if state["finished"] or player not in state["seats"]:
            return []
        phase = state["phase"]
        tokens = state["tokens"][player]
        out: list[dict[str, Any]] = []
        if phase == TURN:
            if player == state["turn"]:
                if tokens >= 1:
                    out.append({"do": "continue"})
                if state["moves_made"] > 0:
                    if tokens >= 1 and not state["room_flashback_told"]:
                        out.append({"do": "flashback"})
                        if state["discard"] > self.finale_threshold(state):
                            out.append({"do": "room_flashback"})
                    cap = state["options"]["token_cap"]
                    if tokens < cap or self._pass_at_cap(state) == "allow":
                        max_take = max(0, min(state["bank"], cap - 1 - tokens))
                        out.append({"do": "pass", "max_take": max_take})
            if state["room_flashback_told"]:
                out.append({"do": "end_story", "agreed": list(state["seats"])})
        elif phase == SCENE:
            if player == state["narrator"]:
                out.append({"do": "end_scene"})
            else:
                out.append({"do": "suggest"})
                if tokens >= 1:
                    out.append({"do": "insist"})
        elif phase == INSIST:
            if player == state["narrator"]:
                out.append({"do": "accept"})
                if tokens >= 1:
                    out.append({"do": "refuse"})
        elif phase == CHALLENGE:
            ch = state["challenge"]
            if ch["reference"] is None:
                if player in (ch["narrator"], ch["insister"]):
                    out.append({"do": "stake"})
                elif player not in ch["joined"] and tokens >= 1:
                    out.append({"do": "join"})
                if player == ch["narrator"] and tokens >= 1:
                    out.append({"do": "open"})
            elif player == ch["to_act"]:
                if tokens >= 1 and len(ch["drawn"]) < 52:
                    out.append({"do": "higher"})
                    out.append({"do": "lower"})
                out.append({"do": "quit", "refund": ch["bets"].get(player, 0) // 2})
        return out

    def tokens_in_play(self, state: dict[str, Any]) -> int:
        return sum(state["tokens"].values()) + state["bank"] + state["discard"] + state["pot"]

    def narrative(self, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return story.narrative(self, setup, moves)


GAME = AmnesiaGame()


__all__ = ["GAME", "AmnesiaGame"]
