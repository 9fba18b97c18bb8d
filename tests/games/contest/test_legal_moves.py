"""The contest's legal moves, judged without applying each candidate, are exactly what applying
each candidate says: over every state of the golden scripts and of seeded random games (both
deck modes, the optional rules, small hands so that players run out of cards and go out), for
every seat, the templates equal those of the old implementation kept here as the oracle, and
each candidate's verdict equals the referee's."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.contest.rules import GAME, allowed, candidates
from games.contest.rules import moves as M
from games.contest.rules.core import ATTR_SUIT, ATTRIBUTES, active, full_deck, visible_cards
from games.contest.rules.flow import side
from games.rules import cards as C
from games.rules.errors import IllegalMove
from games.rules.script import parse_script, replay
from tests.games.contest.random_games import fill

GAME_OPTIONS = {name: option.default for name, option in GAME.options.items()}
SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "scripts" / "contest").glob("*.json"))


Tried = list[tuple[str, dict[str, Any], IllegalMove | dict]]


def oracle(game, state: dict, player: str, tried: Tried | None = None) -> list[dict[str, Any]]:
    """The implementation before: every candidate tried through ``apply``. Each verdict is
    appended to ``tried`` (verb, fields, what ``apply`` gave or the refusal), so that ``check``
    reads them instead of applying every candidate a second time."""
    if state["finished"] or player not in state["seats"] or state["players"][player]["out"]:
        return []
    templates: list[dict[str, Any]] = []
    for verb, phases in game.moves.items():
        if state["phase"] not in phases:
            continue
        if verb == "character":
            if state["players"][player]["character"] is None:
                templates.append({"do": "character"})
            continue
        legal = []
        for fields in candidates._candidates(state, player, verb):
            move = {"by": player, "do": verb, **fields}
            try:
                after = game.apply(state, move)
            except IllegalMove as exc:
                if tried is not None:
                    tried.append((verb, fields, exc))
                continue
            if tried is not None:
                tried.append((verb, fields, after))
            legal.append(fields)
        if not legal:
            continue
        if verb in ("challenge", "accept"):
            legal = [{**fields, "attribute": a} for fields in legal for a in ATTRIBUTES]
        groups: dict[Any, dict[str, Any]] = {}
        for fields in legal:
            key = fields.get("with")
            template = groups.get(key)
            if template is None:
                template = {"do": verb}
                if key is not None:
                    template["with"] = key
                groups[key] = template
                templates.append(template)
            for field in M.CHOICE_FIELDS.get(verb, ()):
                if field not in fields or (field == "card" and state["deck_mode"] != "virtual"):
                    continue
                values = template.setdefault("choices", {}).setdefault(field, [])
                if fields[field] not in values:
                    values.append(fields[field])
    return templates


def check(state: dict, where: str) -> set[str]:
    """Compare for every seat (and a stranger); what the candidates met (the refusals, by
    verb and reason; a team paying; a player paying their way out of the game)."""
    before = json.dumps(state, sort_keys=True)
    met: set[str] = set()
    for player in [*state["seats"], "Nobody"]:
        tried: Tried = []
        templates = oracle(GAME, state, player, tried)
        assert GAME.legal_moves(state, player) == templates, (where, player)
        if player == "Nobody" or state["finished"] or state["players"][player]["out"]:
            assert tried == []
            continue
        # Every candidate of every verb but "character" in this phase, each verdict the
        # oracle's (the referee is pure: applying it again gives the same).
        expected = [
            (verb, fields)
            for verb, phases in GAME.moves.items()
            if verb != "character" and state["phase"] in phases
            for fields in candidates._candidates(state, player, verb)
        ]
        assert [(verb, fields) for verb, fields, _after in tried] == expected, (where, player)
        for verb, fields, after in tried:
            move = {"by": player, "do": verb, **fields}
            legal = not isinstance(after, IllegalMove)
            assert allowed._allowed(state, player, verb, fields) == legal, (where, move, after)
            if not legal:
                met.add(f"{verb}: {after.template}")
            elif verb in ("refuse", "forfeit", "stay"):
                if verb != "stay" and len(side(state, player)) > 1:
                    met.add("a team pays")
                if len(active(after)) < len(active(state)):
                    met.add("paid out of the game")
    assert json.dumps(state, sort_keys=True) == before, "legal_moves changed the state"
    return met


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_golden_scripts_every_state(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    if golden["exit"] == 2:
        pytest.skip("a malformed script has no state")
    setup, moves = parse_script(golden["script"])
    result = replay(setup, moves, keep_states=True)
    states = [GAME.initial_state(setup), *result.states]
    assert len(states) == (result.error_index if result.error is not None else len(moves)) + 1
    for i, state in enumerate(states):
        check(state, f"{path.stem} after {i} moves")


# -- seeded random games ---------------------------------------------------------------------

OPTION_SETS = [
    {"hand_size": 4, "pretzel_limit": 3, "ties": "defender"},
    {"jokers": True, "joker_swap": True, "healing": True, "hand_size": 4},
    {"teams": True, "extended_contests": True, "hand_size": 4, "healing": True},
    {"tarot": True, "plot_cards": True, "word_bonus": True, "hamming_it_up": True},
    {"voting_off": True, "extra_points": True, "pretzel_limit": 4, "eat_limit": 1},
    {"teams": True, "voting_off": True, "jokers": True, "hand_size": 4, "ties": "challenger"},
]


def _unseen(state: dict, rng: random.Random, avoid: str | None = None) -> list[str]:
    seen = visible_cards(state)
    deck = [c for c in full_deck(state["options"]) if c not in seen and c not in C.JOKERS]
    deck = [c for c in deck if c not in C.TAROT_MAJOR and (avoid is None or c[-1] != avoid)]
    rng.shuffle(deck)
    return deck


def physical_cards(move: dict, state: dict, rng: random.Random) -> None:
    """A physical table names the cards: lost ones, the one played, the chain it draws."""
    verb, by = move["do"], move["by"]
    contest = state["contest"]
    if verb in ("refuse", "forfeit", "stay"):
        penalty = move.get("penalty")
        cards = penalty.count("card") if isinstance(penalty, list) else int(penalty == "card")
        teams = contest.get("teams") if contest else None
        size = len([m for m in teams[by] if not state["players"][m]["out"]]) if teams else 1
        if verb != "stay":
            cards *= size
        if cards:
            move["cards"] = _unseen(state, rng)[:cards]
    elif verb == "lose_card":
        move["card"] = _unseen(state, rng)[0]
    elif verb == "swap_joker":
        move["card"] = _unseen(state, rng)[0]
    elif verb == "take_control" and move["with"] != "drinks":
        if move["with"] == "plot_card":
            move["card"] = rng.choice(C.TAROT_MAJOR)
        else:
            move["card"] = rng.choice([c for c in _unseen(state, rng) if c[:-1] in "JQKPN"])
    elif verb == "play":
        move.pop("ham", None)
        suit = ATTR_SUIT[contest["attributes"][by]] if by in contest["attributes"] else None
        pool = _unseen(state, rng)
        move["card"] = pool[0]
        move["draws"] = []
        if pool[0][-1] == suit:  # the chain: same-suit cards, then one of another suit
            rest = pool[1:]
            same = [c for c in rest if c[-1] == suit][: rng.randrange(0, 3)]
            move["draws"] = [*same, next(c for c in rest if c[-1] != suit)]


def play_random(seed: int, options: dict, mode: str, players: int, steps: int) -> set[str]:
    """A seeded game of moves the referee offers (filled in many ways), checked at every state;
    what its candidates met. A short stacked deck (mode "short") runs out, so that hands do."""
    rng = random.Random(seed)
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][:players]
    script = {"game": "contest", "players": names, "options": options, "seed": seed}
    if mode == "short":
        deck = full_deck({**GAME_OPTIONS, **options})
        rng.shuffle(deck)
        script["deck"] = deck[: 3 * players + 1]
    else:
        script["deck_mode"] = mode
    setup, _ = parse_script({**script, "moves": []})
    state = GAME.initial_state(setup)
    crng = C.Rng(C.seed_state(seed))
    met = check(state, f"seed {seed} start")
    for step in range(steps):
        if state["finished"]:
            break
        offers = [(p, t) for p in active(state) for t in GAME.legal_moves(state, p)]
        assert offers, f"nobody can move in phase {state['phase']}"
        rng.shuffle(offers)
        # Penalties and contests first now and then, so hands run out and players go out.
        if rng.random() < 0.5:
            offers.sort(key=lambda o: o[1]["do"] not in ("lose_card", "refuse", "forfeit", "play"))
        for by, template in offers[:6]:
            move = fill(template, state, by, crng)
            if mode == "physical":
                physical_cards(move, state, rng)
            try:
                state = GAME.apply(state, move)
                break
            except IllegalMove:
                continue
        else:
            # Fall back on a concrete candidate the referee takes as it is.
            by, template = offers[0]
            fields = next(
                f
                for f in candidates._candidates(state, by, template["do"])
                if allowed._allowed(state, by, template["do"], f)
            )
            state = GAME.apply(state, {"by": by, "do": template["do"], **fields})
        met |= check(state, f"seed {seed}, {mode}, {options}, after {step + 1} moves")
    return met


MODES = ("virtual", "physical", "short")
GAMES = [
    (seed, OPTION_SETS[seed % len(OPTION_SETS)], MODES[seed // len(OPTION_SETS)], 2 + seed % 4)
    for seed in range(len(OPTION_SETS) * len(MODES))
]


def test_random_games_every_state() -> None:
    met: set[str] = set()
    for seed, options, mode, players in GAMES:
        met |= play_random(seed, options, mode, players, 70)
    # The sample is worth something only if its games reach the states where the verdict is
    # not a matter of whose turn it is.
    hard = {
        "refuse: {name} has no card in hand to lose.",
        "forfeit: {name} has no card in hand to lose.",
        "lose_card: {name} has no card in hand to lose.",
        "a team pays",
        "paid out of the game",
    }
    assert hard <= met, sorted(hard - met)
