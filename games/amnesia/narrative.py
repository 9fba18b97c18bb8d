"""Amnesia's story as readable data: scenes, memories, suggestions and challenges, in order.

Built by replaying the moves with the referee, never by re-deciding a rule.
"""

from __future__ import annotations

from typing import Any

from games.rules import cards
from games.rules.arguments import move_text
from games.rules.base import Game, Narrator, Story
from games.rules.setup import Setup


def narrative(game: Game, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scenes, flashbacks, passes, suggestions and challenges of a game, in order.

    Each entry carries ``moves``: the indexes of the moves whose narration it shows, so a
    page can offer to edit them. Stops at the first illegal move.
    """
    return AmnesiaNarrator(game, setup).tell(moves)


class AmnesiaNarrator(Narrator):
    """The story one move at a time. Its cursor names the open scene (a later suggestion or
    challenge goes into it, even after a pass), the paid suggestion waiting for an answer and
    the challenge being played, each by the position of its scene and its place in it, and
    counts the scenes and memories told (they are numbered apart, as a reader expects)."""

    def open_entries(self) -> list[int]:
        c = self.cursor
        found = {
            c.get("scene"),
            *(c.get(k, [None])[0] for k in ("pending", "challenge") if c.get(k)),
        }
        return sorted(p for p in found if p is not None)

    def _part(self, story: Story, key: str, items: str) -> dict[str, Any] | None:
        where = self.cursor.get(key)
        return story[where[0]][items][where[1]] if where else None

    def step(
        self,
        story: Story,
        index: int,
        move: dict[str, Any],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        c = self.cursor
        state = before
        verb, by, text = move["do"], move["by"], move_text(move)
        if verb in ("continue", "flashback", "room_flashback"):
            kind = {"continue": "scene", "flashback": "flashback"}.get(verb, "room")
            counts = c.setdefault("counts", {})
            counts[kind] = counts.get(kind, 0) + 1
            scene = {
                "kind": kind,
                "number": counts[kind],
                "narrator": by,
                "abilities": list(after["abilities"][len(state["abilities"]) :]),
                "narration": [],
                "suggestions": [],
                "challenges": [],
                "moves": [index],
            }
            c["scene"] = story.append(scene)
            if text:
                scene["narration"].append({"by": by, "text": text, "move": index})
            return
        if verb == "pass":
            story.append(
                {
                    "kind": "pass",
                    "by": by,
                    "take": move.get("take", 0),
                    "text": text,
                    "moves": [index],
                }
            )
            return
        if verb == "end_story":
            story.append(
                {"kind": "end", "agreed": list(move["agreed"]), "text": text, "moves": [index]}
            )
            return
        if c.get("scene") is None:
            return
        scene = story[c["scene"]]
        pending = self._part(story, "pending", "suggestions")
        challenge = self._part(story, "challenge", "challenges")
        if verb in ("end_scene",) and text:
            scene["narration"].append({"by": by, "text": text, "move": index})
        elif verb == "suggest":
            scene["suggestions"].append(
                {"by": by, "text": text, "paid": False, "outcome": "free", "move": index}
            )
        elif verb == "insist":
            scene["suggestions"].append(
                {"by": by, "text": text, "paid": True, "outcome": None, "move": index}
            )
            c["pending"] = [c["scene"], len(scene["suggestions"]) - 1]
        elif verb == "accept" and pending is not None:
            pending["outcome"] = "accepted"
            c["pending"] = None
            if text:
                scene["narration"].append({"by": by, "text": text, "move": index})
        elif verb == "refuse" and pending is not None:
            pending["outcome"] = "refused"
            scene["challenges"].append(
                {
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
            )
            c["challenge"] = [c["scene"], len(scene["challenges"]) - 1]
            c["pending"] = None
        elif challenge is not None and verb in ("stake", "join", "open", "higher", "lower", "quit"):
            self._duel(challenge, index, move, state, after)
        elif text:
            scene["narration"].append({"by": by, "text": text, "move": index})
        scene["moves"].append(index)

    def _duel(
        self,
        challenge: dict[str, Any],
        index: int,
        move: dict[str, Any],
        state: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        verb, by, text = move["do"], move["by"], move_text(move)
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
                    {"by": by, "guess": "open", "card": card, "result": "reference"}
                )
            else:
                before_ref = state["challenge"]["reference"]
                result = _guess_result(before_ref, card, verb, state["options"]["tie_loses"])
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
            self.cursor["challenge"] = None


def _guess_result(reference: str, card: str | None, verb: str, tie_loses: bool) -> str:
    if card is None:
        return "unknown"
    a, b = cards.rank_value(card), cards.rank_value(reference)
    if a == b:
        return "miss" if tie_loses else "again"
    hit = a > b if verb == "higher" else a < b
    return "hit" if hit else "miss"
