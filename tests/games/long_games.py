"""Long games of each kind, made by a seeded player that only plays what the referee offers:
for the tests that must hold at any length (query counts, the kept story so far)."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import TYPE_CHECKING, Any

from games.rules import IllegalMove, get_game
from games.rules.script import parse_setup
from stories.samples import long_script

if TYPE_CHECKING:
    from games.models import Table

PLAYERS = ["Ana", "Bruno", "Caio"]
SETUPS: dict[str, dict[str, Any]] = {
    "amnesia_stories": {
        "players": [*PLAYERS, "Duda", "Edu", "Fred", "Gil", "Hana"],
        "options": {"rounds": 20},
    },
    "contest": {
        "players": [*PLAYERS, "Duda", "Edu", "Fred", "Gil", "Hana"],
        "options": {"hand_size": 12, "pretzel_limit": 50, "eat_limit": 50, "healing": True},
    },
}


def _fill(game: str, state: dict, by: str, template: dict, rng: random.Random) -> dict:
    move: dict[str, Any] = {"by": by}
    for key, value in template.items():
        if key == "choices" and isinstance(value, dict):
            for field, options in value.items():
                if options:
                    move[field] = rng.choice(options)
        elif game == "amnesia_stories" and key in ("journey", "questions", "slots"):
            continue
        else:
            move[key] = value
    verb = move["do"]
    if game == "amnesia_stories":
        opts = state["options"]
        if verb == "tell":
            move["story"] = list(state["journey"][: opts["questions"]])
            move["text"] = f"The bard's story of turn {state['turn_number']}."
        elif verb == "answer":
            move["picks"] = rng.sample(range(1, opts["choices"] + 1), opts["questions"])
    if game == "contest":
        if verb == "character":
            opts = state["options"]
            points = opts["attribute_points"]
            attrs = {"brains": 3, "muscle": 3, "moves": 3, "coolness": points - 9}
            move.update(name=f"Hero of {by}", **attrs)
        elif verb == "challenge":
            move["contest"] = rng.choice(["a pie-eating contest", "a car chase", "a staring match"])
            move["text"] = f"{by} throws down the gauntlet."
    declared = get_game(game).fields.get(verb, {})
    return {k: v for k, v in move.items() if k in ("by", "do", "text") or k in declared}


def long_game(game: str, moves: int, seed: int = 3) -> dict[str, Any]:
    """A legal script of ``game`` with ``moves`` moves (the game still in play); each is played
    once per process (the tests ask for the same few again and again) and handed out as a copy."""
    return copy.deepcopy(_long_game(game, moves, seed))


@cache
def _long_game(game: str, moves: int, seed: int) -> dict[str, Any]:
    if game == "amnesia":
        script = long_script(max(10, min(420, moves * 2 // 5 + 10)))
        script["moves"] = script["moves"][:moves]
        return script
    rng = random.Random(seed)
    script = {"game": game, "seed": seed, **SETUPS[game]}
    setup = parse_setup(script)
    referee = get_game(game)
    state = referee.initial_state(setup)
    played: list[dict[str, Any]] = []
    while len(played) < moves:
        offers = [
            (by, t)
            for by in state["seats"]
            for t in referee.legal_moves(state, by)
            if t["do"] not in ("throw_pretzel",)
        ]
        if not offers or state.get("finished"):
            raise RuntimeError(f"{game} ended after {len(played)} moves")
        rng.shuffle(offers)
        # Drinks keep a contest's players in the game longer than lost cards do.
        offers.sort(key=lambda offer: offer[1]["do"] not in ("drink", "heal", "accept"))
        for by, template in offers:
            move = _fill(game, state, by, template, rng)
            try:
                state = referee.apply(state, move)
            except IllegalMove:
                continue
            played.append(move)
            break
        else:
            raise RuntimeError(f"{game}: no offered move was legal after {len(played)} moves")
    return {**script, "moves": played}


def next_move(table: Table) -> dict[str, Any]:
    """A legal move at ``table`` now, picked as the long games' own player picks one."""
    from games import services

    referee = get_game(table.game)
    state = services.state_of(table)
    rng = random.Random(5)
    for by in state["seats"]:
        for template in referee.legal_moves(state, by):
            move = _fill(table.game, state, by, template, rng)
            try:
                referee.apply(state, move)
            except IllegalMove:
                continue
            return move
    raise RuntimeError(f"{table.game}: no legal move left")
