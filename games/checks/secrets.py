"""The secrets (``games.rules.base.Game.view``): played through its demo tables, the game
never shows a spectator or another player its deck, its generator's state (or a copy of them
under another name), another player's hand or an unjudged answer (``games.E020``, ``E021``).
The pages are checked by ``games.leaks`` (``check --deploy``)."""

from __future__ import annotations

from typing import Any

from games.checks.demos import Demo
from games.checks.report import Report
from games.rules.base import Game
from games.rules.hiding import FRAMEWORK_SECRETS

# The secrets' messages (the views, played through the demo tables).
SECRET_IDS = frozenset({"games.E020", "games.E021"})


_MISSING = object()


def _at(value: Any, path: list[str], owner: str) -> Any:
    """What ``path`` names for ``owner`` (``*`` is the owner's name), or _MISSING."""
    for key in path:
        key = owner if key == "*" else key
        if not isinstance(value, dict) or key not in value:
            return _MISSING
        value = value[key]
    return value


def _holds(value: Any, secret: Any) -> bool:
    """Whether ``secret`` (a list of cards, a generator's state) is anywhere in ``value``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if item == secret and type(item) is type(secret):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _telling(secret: Any) -> bool:
    """A secret worth looking for elsewhere in a view: a list of two or more cards, or a
    generator's state (a big number), not a value many public things may equal."""
    if isinstance(secret, list):
        return len(secret) >= 2
    return isinstance(secret, int) and not isinstance(secret, bool) and abs(secret) >= 2**16


def check_secrets(report: Report, demos: list[Demo]) -> None:
    """Plays each demo table and looks at every view after every move: a spectator's
    (``view(state, None)``) and each player's."""
    game = report.kit.referee
    if not isinstance(game, Game):
        return
    hidden = [k for k in (*FRAMEWORK_SECRETS, *game.secret_keys) if k not in game.public_keys]
    private = [p.split(".") for p in game.private]
    said: set[tuple[str, str]] = set()

    def once(code: str, what: str, text: str, hint: str) -> None:
        if (code, what) not in said:
            said.add((code, what))
            report.error(code, "referee.view", text, hint)

    for demo in demos:
        for index, state in enumerate(demo.states):
            where = f"in the demo {demo.name!r} after {index} move(s)"
            for viewer in [None, *state.get("seats", [])]:
                seen = game.view(state, viewer)
                who = "a spectator" if viewer is None else repr(viewer)
                for key in hidden:
                    secret = state.get(key)
                    if secret in (None, [], {}, ""):
                        continue
                    if seen.get(key) is not None or (_telling(secret) and _holds(seen, secret)):
                        once(
                            "E020",
                            key,
                            f"view(state, {viewer!r}) shows {who} the state's {key!r} {where}.",
                            "Let the base Game.view hide it (do not override view, or start "
                            "from super().view); a deck that is public goes in `public_keys`.",
                        )
                for path in private:
                    for owner in state.get("seats", []):
                        if owner == viewer:
                            continue
                        secret = _at(state, path, owner)
                        if secret is _MISSING or secret in (None, [], {}, ""):
                            continue
                        if _at(seen, path, owner) not in (_MISSING, None):
                            once(
                                "E021",
                                ".".join(path),
                                f"view(state, {viewer!r}) shows {who} {owner!r}'s secret "
                                f"{'.'.join(path)!r} {where}.",
                                "Let the base Game.view hide the referee's `private` paths "
                                "(do not override view, or start from super().view).",
                            )
