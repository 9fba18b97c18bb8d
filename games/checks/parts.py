"""The kit's parts: the required ones are there and of the right kind, the optional ones,
when a kit has them, are well formed (``registry.GameKit``)."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.core.exceptions import FieldDoesNotExist
from django.urls import NoReverseMatch, reverse

from games import registry
from games.checks.bots import check_bots
from games.checks.frames import (
    RULES_PAGE,
    TABLE_FRAME,
    check_fills,
    check_framed,
    check_template,
)
from games.checks.report import Report, check_callable, takes
from games.models import Table
from games.rules.base import Game
from games.start import StartMethod


def check_required(report: Report) -> None:
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
        check_callable(report, "page_context", kit.page_context, 1, "context(snap) -> dict")
    if kit.book is not None:
        check_callable(report, "book", kit.book, 2, "build(entries, texts) -> [Chapter]")
    if kit.demos is not None:
        check_callable(report, "demos", kit.demos, 1, "demos(now) -> [(table name, script)]")
    if kit.components is not None:
        check_callable(report, "components", kit.components, 1, "components(PrintRequest)")
    if kit.table_template:
        table = check_template(report, "table_template", kit.table_template)
        if table is not None:
            check_framed(report, table)
            check_fills(report, "table_template", table, TABLE_FRAME)
    if kit.rules_template:
        rules = check_template(report, "rules_template", kit.rules_template)
        if rules is not None:
            check_fills(report, "rules_template", rules, RULES_PAGE)
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
                check_callable(report, f"playtest.{name}", getattr(playtest, name), count, name)
            if playtest.questions is not None:
                check_callable(
                    report,
                    "playtest.questions",
                    playtest.questions,
                    2,
                    "questions(figures, players) -> [question]",
                )


def check_optional(report: Report) -> None:
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
            check_template(report, "story_template", kit.story_template)
            check_callable(report, "story_part", kit.story_part, 2, "part(snap, entries) -> dict")
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
            check_callable(report, part, value, count, shape)
    if kit.guarded is not None and kit.table_guard is None:
        report.error(
            "E002",
            "guarded",
            "says which tables a guard keeps, and the kit has no table_guard.",
            "Give the kit the table_guard it speaks of, or leave guarded out.",
        )
    if kit.printed_texts is not None and takes(kit.printed_texts, 0):
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
        elif check_callable(
            report, "pictures.picture", getattr(kit.pictures, "picture", None), 1, ""
        ):
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
                check_callable(report, f"carry.{name}", getattr(kit.carry, name), count, name)
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
    check_bots(report)


def _table_related(report: Report) -> None:

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


def _nav(report: Report) -> None:
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
