"""A simulation's spec for the tests of tests/simulate/: a registered game at its option
defaults (the contest's hands small, so its games stay short), the kit's bots and figures."""

from __future__ import annotations

from games import registry
from games.simulate.engine import Spec

# The contest's games run to hundreds of moves at its defaults: small hands keep these short.
SMALL = {"contest": {"hand_size": 4}}


def spec(game: str, bots, players: int = 4, games: int = 6, *, values: bool = False, **kw) -> Spec:
    """``values``: each record keeps what every seat plays for (the kit's ``bot_value``), as
    the search bot's figures read it."""
    kit = registry.kit(game)
    options = {k: o.default for k, o in kit.referee.options.items()}
    options.update(kw.pop("options", SMALL.get(game, {})))
    return Spec(
        referee=kit.referee,
        classes=dict(kit.bots),
        figures=kit.bot_figures,
        trace=kit.bot_trace,
        value=kit.bot_value if values else None,
        options=options,
        players=players,
        bots=list(bots),
        games=games,
        **kw,
    )
