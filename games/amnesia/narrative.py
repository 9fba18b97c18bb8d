"""Amnesia's story as readable data: scenes, memories, suggestions and challenges, in order.

Built by replaying the moves with the referee, never by re-deciding a rule.
"""

from __future__ import annotations

from typing import Any

from games.rules import cards
from games.rules.base import Game, IllegalMove, Setup, move_text


def narrative(game: Game, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scenes, flashbacks, passes, suggestions and challenges of a game, in order.

    Each entry carries ``moves``: the indexes of the moves whose narration it shows, so a
    page can offer to edit them. Stops at the first illegal move.
    """
    state = game.initial_state(setup)
    entries: list[dict[str, Any]] = []
    scene: dict[str, Any] | None = None
    challenge: dict[str, Any] | None = None
    pending: dict[str, Any] | None = None
    for index, move in enumerate(moves):
        try:
            after = game.apply(state, move)
        except IllegalMove:  # an illegal move ends the readable story, as it ends the replay
            break
        verb, by, text = move["do"], move["by"], move_text(move)
        if verb in ("continue", "flashback", "room_flashback"):
            kind = {"continue": "scene", "flashback": "flashback"}.get(verb, "room")
            scene = {
                "kind": kind,
                # Scene 1, 2, ... and memory 1, 2, ... are counted apart, as a reader expects.
                "number": sum(1 for e in entries if e["kind"] == kind) + 1,
                "narrator": by,
                "abilities": list(after["abilities"][len(state["abilities"]) :]),
                "narration": [],
                "suggestions": [],
                "challenges": [],
                "moves": [index],
            }
            entries.append(scene)
            if text:
                scene["narration"].append({"by": by, "text": text, "move": index})
        elif verb == "pass":
            entries.append(
                {
                    "kind": "pass",
                    "by": by,
                    "take": move.get("take", 0),
                    "text": text,
                    "moves": [index],
                }
            )
        elif verb == "end_story":
            entries.append(
                {
                    "kind": "end",
                    "agreed": list(move["agreed"]),
                    "text": text,
                    "moves": [index],
                }
            )
        elif scene is not None:
            if verb in ("end_scene",) and text:
                scene["narration"].append({"by": by, "text": text, "move": index})
            elif verb == "suggest":
                scene["suggestions"].append(
                    {
                        "by": by,
                        "text": text,
                        "paid": False,
                        "outcome": "free",
                        "move": index,
                    }
                )
            elif verb == "insist":
                pending = {
                    "by": by,
                    "text": text,
                    "paid": True,
                    "outcome": None,
                    "move": index,
                }
                scene["suggestions"].append(pending)
            elif verb == "accept" and pending is not None:
                pending["outcome"] = "accepted"
                pending = None
                if text:
                    scene["narration"].append({"by": by, "text": text, "move": index})
            elif verb == "refuse" and pending is not None:
                pending["outcome"] = "refused"
                challenge = {
                    "narrator": by,
                    "insister": pending["by"],
                    "suggestion": pending["text"],
                    "stakes": [],
                    "joined": [],
                    "cards": [],
                    "reference": None,
                    "winner": None,
                    "pot": None,
                    "quits": [],
                    "moves": [index],
                }
                scene["challenges"].append(challenge)
                pending = None
            elif challenge is not None and verb in (
                "stake",
                "join",
                "open",
                "higher",
                "lower",
                "quit",
            ):
                challenge["moves"].append(index)
                if verb == "stake":
                    challenge["stakes"].append({"by": by, "text": text, "move": index})
                elif verb == "join":
                    challenge["joined"].append({"by": by, "text": text, "move": index})
                elif verb == "quit":
                    refund = state["challenge"]["bets"].get(by, 0) // 2
                    challenge["quits"].append({"by": by, "refund": refund})
                else:
                    ended = after["challenge"] is None
                    drawn = (after["last_challenge"] if ended else after["challenge"])["drawn"]
                    card = drawn[-1] if len(drawn) > len(state["challenge"]["drawn"]) else None
                    if verb == "open":
                        challenge["reference"] = card
                        challenge["cards"].append(
                            {
                                "by": by,
                                "guess": "open",
                                "card": card,
                                "result": "reference",
                            }
                        )
                    else:
                        before_ref = state["challenge"]["reference"]
                        result = _guess_result(
                            before_ref, card, verb, state["options"]["tie_loses"]
                        )
                        challenge["cards"].append(
                            {
                                "by": by,
                                "guess": verb,
                                "card": card,
                                "against": before_ref,
                                "result": result,
                            }
                        )
                if after["challenge"] is None:
                    challenge["winner"] = after["last_challenge"]["winner"]
                    challenge["pot"] = after["last_challenge"]["pot"]
                    challenge = None
            elif text:
                scene["narration"].append({"by": by, "text": text, "move": index})
            scene["moves"].append(index)
        state = after
    return entries


def _guess_result(reference: str, card: str | None, verb: str, tie_loses: bool) -> str:
    if card is None:
        return "unknown"
    a, b = cards.rank_value(card), cards.rank_value(reference)
    if a == b:
        return "miss" if tie_loses else "again"
    hit = a > b if verb == "higher" else a < b
    return "hit" if hit else "miss"
