"""Amnesia (seed 000): the token game of an amnesiac protagonist.

The referee, ``AmnesiaGame``, is this module's set-up and legal moves over the game's parts,
one module each: ``checks`` (the phases, and whose turn or role it is, a token paid),
``turn`` (continue, flashback, pass, and the finale), ``scene`` (suggestions, insisting, the
narrator's answer) and ``challenge`` (the duel a refusal opens).

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
from games.amnesia.rules.challenge import ChallengeMoves
from games.amnesia.rules.checks import (
    CHALLENGE,
    INSIST,
    MAX_ABILITIES,
    MAX_ABILITY_LENGTH,
    SCENE,
    TURN,
)
from games.amnesia.rules.scene import SceneMoves
from games.amnesia.rules.turn import TurnMoves
from games.rules import cards
from games.rules.base import Field, Option
from games.rules.errors import N_
from games.rules.setup import Setup


class AmnesiaGame(TurnMoves, SceneMoves, ChallengeMoves):
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

    # -- the moves -----------------------------------------------------------------------
    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        super().handle(state, move)
        state["moves_made"] += 1

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
