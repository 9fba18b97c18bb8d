"""The referee's declarations: its moves, fields, options and player counts agree with one
another (``games.E005``), and the kit's option labels, presets and rulesets are options the
referee accepts (``games.E006``)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping

from games.checks.report import Report
from games.rules.base import Field, Game, Narrator, Option
from games.rules.errors import BadScript
from games.rules.script import COMMON_FIELDS


def check_referee(report: Report) -> None:
    game = report.kit.referee
    if not isinstance(game, Game):
        return
    if not (1 <= game.min_players <= game.max_players):
        report.error(
            "E005",
            "referee",
            f"min_players {game.min_players} and max_players {game.max_players} do not agree.",
            "Make 1 <= min_players <= max_players.",
        )
    if not game.moves:
        report.error("E005", "referee", "declares no moves.", "Fill in Game.moves.")
    for verb, phases in game.moves.items():
        if not isinstance(phases, (set, frozenset)):
            report.error(
                "E005",
                "referee",
                f"the phases of {verb!r} are not a set.",
                "Map each verb to frozenset({phase, ...}).",
            )
        if not callable(getattr(game, f"_do_{verb}", None)) and type(game).handle is Game.handle:
            report.error(
                "E005",
                "referee",
                f"the verb {verb!r} has no handler _do_{verb}.",
                f"Write _do_{verb}(state, move), or a handle() of the game's own.",
            )
    for verb, fields in game.fields.items():
        if verb not in game.moves:
            report.error(
                "E005",
                "referee",
                f"fields declares {verb!r}, which is not one of its moves.",
                "Declare fields only for verbs in Game.moves.",
            )
        for name, declared in (fields or {}).items():
            if not isinstance(declared, Field) or name in COMMON_FIELDS:
                report.error(
                    "E005",
                    "referee",
                    f"the field {verb}.{name} is not a games.rules.base.Field of its own.",
                    "Declare each field as Field(kind, ...); by, do, text and at are common.",
                )
    for verb in game.independent_moves:
        if verb not in game.moves:
            report.error(
                "E005",
                "referee",
                f"independent_moves names {verb!r}, which is not one of its moves.",
                "Name only verbs in Game.moves.",
            )
    if game.narrator_class is not None and not (
        inspect.isclass(game.narrator_class) and issubclass(game.narrator_class, Narrator)
    ):
        report.error(
            "E005",
            "referee",
            "narrator_class is not a games.rules.base.Narrator.",
            "Subclass Narrator (or leave it None: the story is then replayed on every page).",
        )
    for name, option in game.options.items():
        if not isinstance(option, Option):
            report.error(
                "E005",
                "referee",
                f"the option {name!r} is not a games.rules.base.Option.",
                "Declare it as Option(default, ...).",
            )
            continue
        try:
            option.check(name, option.default)
        except BadScript as exc:
            report.error(
                "E005",
                "referee",
                f"the default of the option {name!r} is refused: {exc.message}",
                "Make the default one of the values the option accepts.",
            )


def check_options(report: Report) -> None:
    kit = report.kit
    if not isinstance(kit.referee, Game):
        return
    options = kit.referee.options
    for name in kit.option_labels:
        if name not in options:
            report.error(
                "E006",
                "option_labels",
                f"labels {name!r}, which is not an option of the referee.",
                "Label only the referee's options.",
            )
    named = []
    for key, preset in kit.presets.items():
        if not isinstance(preset, Mapping) or not preset.get("label"):
            report.error(
                "E006",
                "presets",
                f"the preset {key!r} has no label.",
                "Give each preset {'label': ..., 'options': {...}}.",
            )
        else:
            named.append((f"preset {key!r}", "presets", preset.get("options", {})))
    for spec in kit.rulesets:
        if not isinstance(spec, Mapping) or not spec.get("name") or "changelog" not in spec:
            report.error(
                "E006",
                "rulesets",
                f"{spec!r} is not a ruleset.",
                "Give each ruleset {'name', 'options', 'changelog'}.",
            )
        else:
            named.append((f"ruleset {spec['name']!r}", "rulesets", spec.get("options", {})))
    for where, part, values in named:
        for key, value in values.items():
            if key not in options:
                report.error(
                    "E006",
                    part,
                    f"the {where} sets {key!r}, which is not an option of the referee.",
                    "Set only the referee's options.",
                )
                continue
            try:
                options[key].check(key, value)
            except BadScript as exc:
                report.error("E006", part, f"the {where}: {exc.message}", "Fix the value.")
