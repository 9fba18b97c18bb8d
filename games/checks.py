"""The game contract, checked by Django: ``manage.py check`` (and ``make run``, ``make serve``,
``make test``) verifies every registered kit (``games.registry``).

Each problem is one check message naming the game, the part and what to do (``games.E0xx``);
a part that raises while it is checked is a message too, never a traceback. What is checked:

- the required parts (``registry.REQUIRED_PARTS``) are there and of the right kind;
- the optional parts, when a kit has them, are well formed (``registry.GameKit``);
- the templates the kit names load, its static files (the emblem) are found, and its table
  template extends the table frame (``games/table_frame.html``);
- the referee's declared moves, fields, options and player counts agree with one another, and
  the kit's option labels, presets and rulesets are options the referee accepts;
- each demo table replays through the referee with moves that keep to the declared fields,
  and the playtest figures, rows and charts are computed from it;
- the URLs of the game's own URLconf resolve under its slug;
- the secrets (``games.rules.base.Game.view``): played through its demo tables (the kit's
  demos), the game never shows a spectator or another player its deck, its generator's state
  (or a copy of them under another name), another player's hand or an unjudged answer (its
  ``private`` paths). What is private is what the referee declares, by path: no key's name
  is taken for a hand. The pages are checked by ``games.leaks`` (``check --deploy``).

``check_kit(kit)`` returns the messages of one kit (the tests call it on broken kits).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from importlib import import_module
from typing import Any

from django.contrib.staticfiles import finders
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.template.loader_tags import BlockNode, ExtendsNode
from django.urls import NoReverseMatch, resolve, reverse

from games import registry, seats
from games.models import Table
from games.playtests import figures as lab_figures
from games.playtests import reports
from games.registry import GameKit
from games.rules.base import (
    FRAMEWORK_SECRETS,
    BadScript,
    Field,
    Game,
    IllegalMove,
    Narrator,
    Option,
)
from games.rules.script import COMMON_FIELDS, misfit_field, parse_script, undeclared_fields
from games.simulate import figures as simulated
from games.simulate.bots import Bot, Param
from games.start import StartMethod

# Every game's table template extends it (games/templates/games/table_frame.html).
TABLE_FRAME = "games/table_frame.html"
# ... its rules page this one, and its seat page this one.
RULES_PAGE = "games/rules_page.html"
SEAT_FRAME = "games/seat_frame.html"

# The moment the demos are built for (a fixed one: the check must say the same every time).
DEMO_NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)

# What each message id means (docs/adding-a-game.md, "The check's messages", lists them too).
IDS = {
    "games.E001": "a required part is missing",
    "games.E002": "a part is not of the right kind",
    "games.E003": "a template is not found (or does not load)",
    "games.E004": "a static file is not found",
    "games.E005": "the referee's moves, fields, options or player counts disagree",
    "games.E006": "an option label, preset or ruleset the referee does not accept",
    "games.E007": "a demo table is missing or does not replay",
    "games.E008": "the playtest figures cannot be computed from a demo table",
    "games.E009": "the game's URLs are not mounted under its slug",
    "games.E010": "a part raised an exception while it was checked",
    "games.E011": "the bots (or their figures) are malformed",
    "games.E012": "the table template does not extend the table frame",
    "games.E013": "a figure the game's bots produce, or a bot parameter, has no declaration "
    "(name, meaning, unit)",
    "games.E015": "the seat page is not the engine's (games.seats)",
    "games.E016": "a template fills a block its frame does not have (it would never show)",
    "games.E020": "a view shows the deck or the generator's state",
    "games.E021": "a view shows another player's secret (a hand, an unjudged answer)",
}

# The secrets' messages (the views, played through the demo tables).
SECRET_IDS = frozenset({"games.E020", "games.E021"})


class _Report:
    """The messages of one kit."""

    def __init__(self, kit: GameKit) -> None:
        self.kit = kit
        self.messages: list[checks.CheckMessage] = []

    def error(self, code: str, part: str, text: str, hint: str) -> None:
        slug = getattr(self.kit, "slug", "?")
        self.messages.append(
            checks.Error(
                f"Game {slug!r}, part {part!r}: {text}",
                hint=hint,
                obj=f"game {slug}",
                id=f"games.{code}",
            )
        )


def _takes(function: Any, count: int) -> bool:
    """Whether ``function`` can be called with ``count`` positional arguments (a callable
    whose signature Python cannot read is given the benefit of the doubt)."""
    if not callable(function):
        return False
    try:
        inspect.signature(function).bind(*([None] * count))
    except TypeError:
        return False
    except ValueError:
        return True
    return True


def _callable(report: _Report, part: str, value: Any, count: int, shape: str) -> bool:
    if _takes(value, count):
        return True
    report.error(
        "E002",
        part,
        f"is {type(value).__name__}, not a callable taking {count} argument(s).",
        f"Give the kit a function {shape}.",
    )
    return False


def _template(report: _Report, part: str, name: Any) -> Any:
    """The template ``name`` (a message and None when it is not one that loads)."""
    if not isinstance(name, str) or not name:
        report.error(
            "E002",
            part,
            f"is {name!r}, not a template name.",
            "Name a template, e.g. '<slug>/table.html'.",
        )
        return None
    try:
        return get_template(name)
    except TemplateDoesNotExist:
        report.error(
            "E003",
            part,
            f"the template {name!r} is not found.",
            f"Put it at games/<slug>/templates/{name} (the game's app must be in "
            "INSTALLED_APPS), or fix the name.",
        )
    except TemplateSyntaxError as exc:
        report.error("E003", part, f"the template {name!r} does not load: {exc}.", "Fix it.")
    return None


def _parents(template: Any) -> list[str]:
    """The names of the templates ``template`` extends, nearest first (as far as they are
    named in the template itself: a name held in a variable ends the chain)."""
    names: list[str] = []
    while template is not None and len(names) < 10:
        found = template.nodelist.get_nodes_by_type(ExtendsNode)
        parent = found[0].parent_name if found else None
        if parent is None or parent.filters or not isinstance(parent.var, str):
            break
        names.append(parent.var)
        loaded: Any = get_template(parent.var)  # the engine's wrapper of a Template
        template = loaded.template
    return names


def _ancestors(template: Any) -> list[str]:
    """``_parents``, on through a parent named as ``variable|default:"name"`` (a frame
    that an htmx answer swaps for its panel alone) to the default."""
    names: list[str] = []
    while template is not None and len(names) < 10:
        found = template.nodelist.get_nodes_by_type(ExtendsNode)
        parent = found[0].parent_name if found else None
        if parent is None:
            break
        name = parent.var if isinstance(parent.var, str) and not parent.filters else None
        for func, args in parent.filters:
            if func.__name__ == "default" and args and not args[0][0]:
                name = str(args[0][1])  # (is a variable, the literal): a name written out
        if name is None:
            break
        names.append(name)
        loaded: Any = get_template(name)
        template = loaded.template
    return names


def _blocks(template: Any) -> set[str]:
    """The names of the blocks ``template`` (a django Template) itself defines."""
    return {node.name for node in template.nodelist.get_nodes_by_type(BlockNode)}


def _fills(report: _Report, part: str, loaded: Any, frame: str) -> None:
    """A game's template extending ``frame`` fills only blocks the frame has: a block of any
    other name is silently never shown (a rules page's whole text was, once)."""
    template = loaded.template
    if frame not in _parents(template):
        return
    offered: set[str] = set()
    for name in _ancestors(template):
        parent: Any = get_template(name)
        offered |= _blocks(parent.template)
    unknown = sorted(_blocks(template) - offered)
    if unknown:
        report.error(
            "E016",
            part,
            f"{template.name!r} fills the block(s) {', '.join(unknown)}, which {frame!r} does "
            "not have: they would never show.",
            f"Use the frame's blocks: {', '.join(sorted(offered))} (docs/adding-a-game.md, 'The frames and their blocks').",
        )


def _framed(report: _Report, template: Any) -> None:
    """The table page's plumbing (the htmx panel, the poll, the live region, the tools, the
    move log) is the frame's: a table template extends it and draws the game."""
    if TABLE_FRAME in _parents(template.template):
        return
    report.error(
        "E012",
        "table_template",
        f"{template.template.name!r} does not extend {TABLE_FRAME!r}.",
        f'Start it with {{% extends "{TABLE_FRAME}" %}} and draw the game in its blocks '
        "(moves, side, …; its forms with {% moveform %}): docs/adding-a-game.md, 'The frames and their blocks'.",
    )


# -- the required parts ---------------------------------------------------------------------
def _required(report: _Report) -> None:
    kit = report.kit
    for part in registry.REQUIRED_PARTS:
        if getattr(kit, part, None) in (None, ""):
            report.error(
                "E001",
                part,
                "is missing.",
                f"Every game needs its {part}: see {registry.PART_HELP[part]} "
                "(docs/adding-a-game.md, 'The package').",
            )
    if kit.referee is not None and not isinstance(kit.referee, Game):
        report.error(
            "E002",
            "referee",
            f"is {type(kit.referee).__name__}, not a games.rules.base.Game.",
            "Subclass games.rules.base.Game and give the kit an instance.",
        )
    if kit.page_context is not None:
        _callable(report, "page_context", kit.page_context, 1, "context(snap) -> dict")
    if kit.book is not None:
        _callable(report, "book", kit.book, 2, "build(entries, texts) -> [Chapter]")
    if kit.demos is not None:
        _callable(report, "demos", kit.demos, 1, "demos(now) -> [(table name, script)]")
    if kit.components is not None:
        _callable(report, "components", kit.components, 1, "components(PrintRequest)")
    if kit.table_template:
        table = _template(report, "table_template", kit.table_template)
        if table is not None:
            _framed(report, table)
            _fills(report, "table_template", table, TABLE_FRAME)
    if kit.rules_template:
        rules = _template(report, "rules_template", kit.rules_template)
        if rules is not None:
            _fills(report, "rules_template", rules, RULES_PAGE)
    playtest = kit.playtest
    if playtest is not None:
        if not isinstance(playtest, registry.PlaytestParts):
            report.error(
                "E002",
                "playtest",
                f"is {type(playtest).__name__}, not a registry.PlaytestParts.",
                "Give the kit PlaytestParts(figures=, balance=, figure_rows=, charts=).",
            )
        else:
            for name, count in (("figures", 5), ("balance", 2), ("figure_rows", 1), ("charts", 1)):
                _callable(report, f"playtest.{name}", getattr(playtest, name), count, name)
            if playtest.questions is not None:
                _callable(
                    report,
                    "playtest.questions",
                    playtest.questions,
                    2,
                    "questions(figures, players) -> [question]",
                )


# -- the optional parts ---------------------------------------------------------------------
def _optional(report: _Report) -> None:
    kit = report.kit
    if kit.emblem:
        found = finders.find(kit.emblem) if isinstance(kit.emblem, str) else None
        if not isinstance(kit.emblem, str) or not kit.emblem.endswith(".svg"):
            report.error(
                "E002",
                "emblem",
                f"is {kit.emblem!r}, not the path of an SVG file.",
                "Name a local SVG under the game's static folder, e.g. '<slug>/emblem.svg'.",
            )
        elif found is None:
            report.error(
                "E004",
                "emblem",
                f"the static file {kit.emblem!r} is not found.",
                f"Put it at games/<slug>/static/{kit.emblem} (a local SVG, nothing fetched "
                "from outside).",
            )
    if kit.story_template or kit.story_part is not None:
        if not kit.story_template or kit.story_part is None:
            report.error(
                "E002",
                "story_part",
                "story_template and story_part come together.",
                "Give the kit both (the template and its context function) or neither.",
            )
        else:
            _template(report, "story_template", kit.story_template)
            _callable(report, "story_part", kit.story_part, 2, "part(snap, entries) -> dict")
    hooks = {
        "cover": (2, "draw(book, (width, height)) -> PIL image"),
        "printed_texts": (0, "printed_texts() -> [str]"),
        "picture": (3, "picture(table, number, size) -> stored file or None"),
        "describe_move": (1, "describe(move) -> str"),
        "table_guard": (4, "guard(table, state, moves, now) -> None or IllegalMove"),
        "guarded": (1, "guarded(table) -> bool"),
    }
    for part, (count, shape) in hooks.items():
        value = getattr(kit, part)
        if value is not None:
            _callable(report, part, value, count, shape)
    if kit.guarded is not None and kit.table_guard is None:
        report.error(
            "E002",
            "guarded",
            "says which tables a guard keeps, and the kit has no table_guard.",
            "Give the kit the table_guard it speaks of, or leave guarded out.",
        )
    if kit.printed_texts is not None and _takes(kit.printed_texts, 0):
        texts = list(kit.printed_texts())
        if not all(isinstance(t, str) for t in texts):
            report.error(
                "E002", "printed_texts", "gives something other than texts.", "Return strings."
            )
    if kit.pictures is not None:
        ids = getattr(kit.pictures, "ids", None)
        if not ids or not all(isinstance(i, str) and i for i in ids):
            report.error(
                "E002",
                "pictures",
                "has no ids (a non-empty set of picture ids).",
                "Give it `ids`, the illustration ids its chapters show.",
            )
        elif _callable(report, "pictures.picture", getattr(kit.pictures, "picture", None), 1, ""):
            if kit.pictures.picture(min(ids))[:3] != b"\xff\xd8\xff":
                report.error("E002", "pictures", "picture(id) is not a JPEG.", "Return JPEG bytes.")
    if kit.carry is not None:
        if not isinstance(kit.carry, registry.Carry):
            report.error(
                "E002",
                "carry",
                f"is {type(kit.carry).__name__}, not a registry.Carry.",
                "Give the kit Carry(export=, check=, bring=).",
            )
        else:
            for name, count in (("export", 3), ("check", 3), ("bring", 4)):
                _callable(report, f"carry.{name}", getattr(kit.carry, name), count, name)
    for name in ("add_fields", "clean", "extra_setup", "after_create"):
        if not callable(getattr(kit.new_table, name, None)):
            report.error(
                "E002",
                "new_table",
                f"has no method {name}.",
                "Subclass registry.NoNewTableHooks and override what the game adds.",
            )
    if kit.start_method is not None:
        if not isinstance(kit.start_method, StartMethod):
            report.error(
                "E002", "start_method", "is not a games.start.StartMethod.", "Give one or None."
            )
    _table_related(report)
    _nav(report)
    _bots(report)


def _table_related(report: _Report) -> None:

    for name in report.kit.table_related:
        try:
            relation = Table._meta.get_field(name)
        except FieldDoesNotExist:
            relation = None
        if relation is None or not relation.one_to_one:
            report.error(
                "E002",
                "table_related",
                f"{name!r} is not a one-to-one relation of games.Table.",
                "Name the related_name of a OneToOneField(Table) of the game's models.",
            )


def _nav(report: _Report) -> None:
    for entry in report.kit.nav:
        name = entry[0] if isinstance(entry, tuple) and len(entry) == 2 else None
        try:
            reverse(name) if isinstance(name, str) else None
        except NoReverseMatch:
            name = None
        if name is None:
            report.error(
                "E002",
                "nav",
                f"{entry!r} is not (URL name, label) of a page without arguments.",
                "Name a URL of the game's own URLconf, e.g. ('<slug>:characters', _('…')).",
            )


def _bots(report: _Report) -> None:
    """The simulated plays' part (``games.simulate``): bot classes by name, and the figures of
    one simulated game; both or neither."""

    kit = report.kit
    bots, figures = kit.bots, kit.bot_figures
    if kit.bot_trace is not None:
        if figures is None:
            report.error(
                "E011",
                "bot_trace",
                "is given without bot_figures.",
                "Give it with the figures whose reading of each state it copies, or leave it out.",
            )
        else:
            _callable(report, "bot_trace", kit.bot_trace, 1, "trace(state) -> dict")
    if bots is None:
        if figures is not None:
            report.error(
                "E011",
                "bot_figures",
                "is given without bots.",
                "Give the kit its bots (games/<slug>/bots.py), or leave both out.",
            )
        return
    if not isinstance(bots, Mapping) or not bots:
        report.error(
            "E011",
            "bots",
            f"is {type(bots).__name__}, not a non-empty mapping of bot names to bot classes.",
            "Give the kit bots={'random': RandomBot, 'sensible': SensibleBot} "
            "(games.simulate.bots), or None.",
        )
        return
    for needed in ("random", "sensible"):
        if needed not in bots:
            report.error(
                "E011",
                "bots",
                f"has no {needed!r} bot.",
                "Every game with bots has at least 'random' and 'sensible'.",
            )
    for name, bot in bots.items():
        if not isinstance(name, str) or not name.isidentifier() or name != name.lower():
            report.error(
                "E011",
                "bots",
                f"the bot name {name!r} is not a lower-case identifier.",
                "Name each bot as the simulate command's --bots option names it ('random').",
            )
        if not (inspect.isclass(bot) and issubclass(bot, Bot)):
            report.error(
                "E011",
                f"bots[{name!r}]",
                f"is {bot!r}, not a games.simulate.bots.Bot class.",
                "Subclass games.simulate.bots.Bot (built as Bot(params, rng_seed, seat)) "
                "and write its choose(view, legal_moves, may_wait).",
            )
            continue
        if bot.choose is Bot.choose:
            report.error(
                "E011",
                f"bots[{name!r}]",
                "does not write choose(view, legal_moves, may_wait).",
                "Write it: the move it makes (without 'by'), or None to wait.",
            )
        params = getattr(bot, "params", None)
        if not isinstance(params, Mapping) or not all(
            isinstance(k, str) and isinstance(v, Param) for k, v in params.items()
        ):
            report.error(
                "E011",
                f"bots[{name!r}]",
                "has params that are not a mapping of names to games.simulate.bots.Param.",
                "Declare each parameter as Param(default, min, max, help).",
            )
    if figures is None:
        report.error(
            "E011",
            "bot_figures",
            "is missing, but the kit has bots.",
            "Give it figures(setup, moves, initial, states, bots_by_seat) -> dict.",
        )
    else:
        _callable(
            report,
            "bot_figures",
            figures,
            5,
            "figures(setup, moves, initial, states, bots_by_seat) -> dict",
        )


# -- the referee ------------------------------------------------------------------------------
def _referee(report: _Report) -> None:
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


def _options(report: _Report) -> None:
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


def _urls(report: _Report) -> None:
    kit = report.kit
    for part in ("seat_page",):
        name = getattr(kit, part)
        if name and (not isinstance(name, str) or not name.startswith(f"{kit.slug}:")):
            report.error(
                "E009",
                part,
                f"{name!r} is not a URL name of the game's own URLconf.",
                f"Name it '{kit.slug}:<name>' (a pattern of the kit's urls, taking the token).",
            )
    if not kit.urls:
        if kit.seat_page:
            report.error(
                "E009",
                "urls",
                "is missing, but the kit names a seat_page.",
                "Give the kit urls='games.<slug>.urls' holding the seat page.",
            )
        return
    urlconf = import_module(kit.urls)
    if getattr(urlconf, "app_name", None) != kit.slug:
        report.error(
            "E009",
            "urls",
            f"{kit.urls} has app_name {getattr(urlconf, 'app_name', None)!r}.",
            f"Set app_name = {kit.slug!r} in it.",
        )
        return
    named = [p for p in getattr(urlconf, "urlpatterns", []) if getattr(p, "name", None)]
    for pattern in named:
        kwargs = {
            arg: 1 if converter.regex == "[0-9]+" else "x"
            for arg, converter in getattr(pattern.pattern, "converters", {}).items()
        }
        try:
            url = reverse(f"{kit.slug}:{pattern.name}", kwargs=kwargs)
            mounted = resolve(url).namespace == kit.slug
        except Exception:  # noqa: BLE001 - any failure means: not mounted
            mounted = False
        if not mounted:
            report.error(
                "E009",
                "urls",
                f"the pattern {pattern.name!r} of {kit.urls} is not served under the site.",
                "The site mounts every registered kit's urls when it loads its URLconf: "
                "register the kit in its AppConfig.ready().",
            )
            return
    if kit.seat_page and kit.seat_page.split(":", 1)[1] not in {p.name for p in named}:
        report.error(
            "E009",
            "seat_page",
            f"{kit.seat_page!r} is not a pattern of {kit.urls}.",
            "Name a pattern of the kit's urls.",
        )
        return
    if kit.seat_page:
        _engine_seat(report, named)


def _engine_seat(report: _Report, named: list[Any]) -> None:
    """A seat page is the engine's (``games.seats``): the guessed-link throttle, the table's
    language and the move in the seat's own name are built in, never a game's to forget."""
    kit = report.kit
    views = {p.name: _unwrapped(p.callback) for p in named}
    engine = {"seat": _unwrapped(seats.seat_page), "seat_move": _unwrapped(seats.seat_move)}
    for name, view in engine.items():
        if views.get(name) is not view:
            report.error(
                "E015",
                "seat_page",
                f"'{kit.slug}:{name}' is not the engine's seat view.",
                "Mount the seat's page and moves with games.seats.seat_urls(page, move) in "
                "the kit's urls, and give the kit seat_template and seat_context.",
            )
            return
    if not kit.seat_template:
        report.error(
            "E001",
            "seat_template",
            "is missing, but the kit names a seat_page.",
            "Give the kit seat_template='<slug>/seat.html' (extending games/seat_frame.html).",
        )
    else:
        seat = _template(report, "seat_template", kit.seat_template)
        if seat is not None:
            _fills(report, "seat_template", seat, SEAT_FRAME)
    if kit.seat_context is None:
        report.error(
            "E001",
            "seat_context",
            "is missing, but the kit names a seat_page.",
            "Give the kit seat_context(facing, seat) -> dict, the game's part of the page.",
        )
    else:
        _callable(report, "seat_context", kit.seat_context, 2, "context(facing, seat) -> dict")
    if kit.seat_move is not None:
        _callable(report, "seat_move", kit.seat_move, 2, "seat_move(request, seat) -> Posted")


def _unwrapped(view: Any) -> Any:
    while hasattr(view, "__wrapped__"):
        view = view.__wrapped__
    return view


# -- the demos ------------------------------------------------------------------------------
class Demo:
    """One demo table replayed: its set-up, its moves and the state after each."""

    def __init__(self, name: str, setup, moves: list[dict[str, Any]], states: list) -> None:
        self.name = name
        self.setup = setup
        self.moves = moves
        self.states = states  # the initial state, then the state after each move


def _demos(report: _Report) -> list[Demo]:
    kit = report.kit
    game = kit.referee
    if kit.demos is None or not isinstance(game, Game) or not _takes(kit.demos, 1):
        return []
    demos = kit.demos(DEMO_NOW)
    if not demos:
        report.error("E007", "demos", "gives no demo table.", "Return at least one (name, script).")
        return []
    played = []
    for name, script in demos:
        if not isinstance(script, Mapping) or script.get("game") != kit.slug:
            report.error(
                "E007", "demos", f"the demo {name!r} is not a script of this game.", "Fix it."
            )
            continue
        try:
            setup, moves = parse_script(dict(script))
        except BadScript as exc:
            report.error(
                "E007", "demos", f"the demo {name!r} is malformed: {exc.message}", "Fix it."
            )
            continue
        state = game.initial_state(setup)
        states = [state]
        for index, move in enumerate(moves):
            extra = undeclared_fields(game, move) if move.get("do") in game.moves else []
            misfit = misfit_field(game, move)
            if extra or misfit:
                report.error(
                    "E005",
                    "referee",
                    f"move {index} of the demo {name!r} ({move.get('do')!r}) carries "
                    f"{', '.join(extra) or misfit!r}, which its fields do not declare (or "
                    "declare otherwise): the write path would refuse it.",
                    "Declare every field each verb reads in Game.fields.",
                )
            rules = {k: v for k, v in move.items() if k not in ("text", "at")}
            try:
                state = game.apply(state, rules)
            except IllegalMove as exc:
                report.error(
                    "E007",
                    "demos",
                    f"move {index} of the demo {name!r} is refused: {exc.message}",
                    "Make every demo move legal (referee replay shows where it stops).",
                )
                break
            states.append(state)
        played.append(Demo(name, setup, moves, states))
    return played


def _figures(report: _Report, demos: list[Demo]) -> None:

    kit = report.kit
    if not isinstance(kit.playtest, registry.PlaytestParts):
        return
    for demo in demos[:1]:
        figures = reports.figures(demo.setup, demo.moves)
        try:
            json.dumps(figures)
        except (TypeError, ValueError) as exc:
            report.error(
                "E008",
                "playtest.figures",
                f"the figures of the demo {demo.name!r} are not JSON: {exc}.",
                "Return numbers, texts, lists and dicts only (they are stored).",
            )
            return
        _balance(report, figures)
        rows = kit.playtest.figure_rows(figures)
        charts = kit.playtest.charts(figures)
        if not isinstance(rows, list) or not all(
            isinstance(r, tuple) and len(r) == 2 for r in rows
        ):
            report.error(
                "E008",
                "playtest.figure_rows",
                "does not give [(label, value)].",
                "Return a list of (label, value) pairs.",
            )
        if not isinstance(charts, list) or not all(
            isinstance(c, Mapping) and {"title", "svg"} <= set(c) for c in charts
        ):
            report.error(
                "E008",
                "playtest.charts",
                "does not give [{'title', 'svg'}].",
                "Return a list of {'title': ..., 'svg': ...}.",
            )


def _declared_figures(report: _Report, demos: list[Demo]) -> None:
    """Every figure the bots' figures give on the demo tables (two kinds of bot seated in
    turn, so the bots' edges are given too) and those the lab adds has its declaration."""
    kit = report.kit
    if kit.bot_figures is None or not isinstance(kit.bots, Mapping) or not kit.bots:
        return
    names = list(kit.bots)[:2]
    for figure in kit.figures:
        if not isinstance(figure, lab_figures.Figure) or figure.unit not in lab_figures.UNITS:
            report.error(
                "E013",
                "figures",
                f"{figure!r} is not a Figure with a unit of {', '.join(lab_figures.UNITS)}.",
                "Declare each as games.playtests.figures.Figure(key, label, meaning, unit).",
            )
            return
    taken: dict[str, str] = {}  # each parameter, and the first bot that takes it
    for bot_name, bot in kit.bots.items():
        params = getattr(bot, "params", None)
        for param in params if isinstance(params, Mapping) else ():
            taken.setdefault(param, bot_name)
    for param, bot_name in taken.items():
        if param not in kit.bot_param_labels:
            report.error(
                "E013",
                "bot_param_labels",
                f"the parameter {param!r} of the {bot_name!r} bot has no words.",
                "Give the kit bot_param_labels={name: (label, one-line meaning)}, "
                "translated: the lab lists and sweeps a parameter by them.",
            )
    for demo in demos[:1]:
        seats = demo.setup.players
        by_seat = {seat: names[i % len(names)] for i, seat in enumerate(seats)}
        given = kit.bot_figures(demo.setup, demo.moves, demo.states[0], demo.states[1:], by_seat)
        record = {
            "index": 0,
            "finished": bool(demo.states[-1].get("finished")),
            "figures": given,
            "winner_bots": [by_seat[seats[0]]],
            "seat_bots": by_seat,
        }
        for key in lab_figures.undeclared(kit, simulated.collect([record])):
            report.error(
                "E013",
                "figures",
                f"the figure {key!r} its bots produce has no declaration.",
                "Add a games.playtests.figures.Figure for it (name and one-line meaning, "
                "translated; unit; headline or not) to the kit's figures.",
            )


def _balance(report: _Report, figures: dict[str, Any]) -> None:
    """The dashboard's balance rows, made from one demo's report as the dashboard holds it
    (an entry of ``games.playtests.service.table_entry``'s shape): typed records."""
    entry = {
        **figures,
        "kind": "table",
        "impressions": [],
        "figures": figures.get("figures", {}),
        "winners": figures.get("winners", []),
    }
    rows = report.kit.playtest.balance([entry], [entry["figures"]])
    keys = set(registry.BalanceRow.__annotations__)
    for row in rows if isinstance(rows, list) else [rows]:
        value = row.get("value") if isinstance(row, Mapping) else None
        if (
            not isinstance(row, Mapping)
            or set(row) != keys
            or not isinstance(row["key"], str)
            or row["kind"] not in registry.BALANCE_KINDS
            or not (value is None or isinstance(value, (int, float)))
        ):
            report.error(
                "E008",
                "playtest.balance",
                f"gives {row!r}, not a balance row.",
                "Return a list of games.registry.BalanceRow, made with games.playtests.stats"
                f".row(key, label, value, kind), kind one of {registry.BALANCE_KINDS}.",
            )
            return


# -- the secrets -----------------------------------------------------------------------------
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


def _secrets(report: _Report, demos: list[Demo]) -> None:
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


# -- the whole kit ----------------------------------------------------------------------------
STEPS: list[tuple[str, Callable[[_Report], Any]]] = [
    ("required parts", _required),
    ("optional parts", _optional),
    ("referee", _referee),
    ("options", _options),
    ("urls", _urls),
]


def check_kit(kit: GameKit) -> list[checks.CheckMessage]:
    """Every problem of one kit, as check messages."""
    report = _Report(kit)
    for part, step in STEPS:
        _guarded(report, part, step, report)
    demos = _guarded(report, "demos", _demos, report) or []
    if demos and not any(m.id == "games.E008" for m in report.messages):
        _guarded(report, "playtest", _figures, report, demos)
    if demos and not any(m.id == "games.E011" for m in report.messages):
        _guarded(report, "figures", _declared_figures, report, demos)
    if demos:
        _guarded(report, "referee.view", _secrets, report, demos)
    return report.messages


def _guarded(report: _Report, part: str, step: Callable[..., Any], *args: Any) -> Any:
    try:
        return step(*args)
    except Exception as exc:  # noqa: BLE001 - a broken part is a message, never a traceback
        report.error(
            "E010",
            part,
            f"raised {type(exc).__name__}: {exc}",
            "Fix the part (its error is above); the other checks of this game went on.",
        )
        return None


@checks.register("games")
def check_games(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """The contract of every registered game (``manage.py check``)."""
    return [message for kit in registry.kits() for message in check_kit(kit)]
