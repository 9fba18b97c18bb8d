"""The kit's templates: they load, the table, rules and seat templates extend their frames,
and they fill only blocks their frame has (``games.E003``, ``E012``, ``E016``)."""

from __future__ import annotations

from typing import Any

from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.template.loader_tags import BlockNode, ExtendsNode

from games.checks.report import Report

# Every game's table template extends it (games/templates/games/table_frame.html).
TABLE_FRAME = "games/table_frame.html"
# ... its rules page this one, and its seat page this one.
RULES_PAGE = "games/rules_page.html"
SEAT_FRAME = "games/seat_frame.html"


def check_template(report: Report, part: str, name: Any) -> Any:
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
            f"Put it at games/{getattr(report.kit, 'slug', '<slug>')}/templates/{name} (the game's app must be in "
            "INSTALLED_APPS), or fix the name.",
        )
    except TemplateSyntaxError as exc:
        report.error("E003", part, f"the template {name!r} does not load: {exc}.", "Fix it.")
    return None


def parents(template: Any) -> list[str]:
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
    """``parents``, on through a parent named as ``variable|default:"name"`` (a frame
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


def check_fills(report: Report, part: str, loaded: Any, frame: str) -> None:
    """A game's template extending ``frame`` fills only blocks the frame has: a block of any
    other name is silently never shown (a rules page's whole text was, once)."""
    template = loaded.template
    if frame not in parents(template):
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


def check_framed(report: Report, template: Any) -> None:
    """The table page's plumbing (the htmx panel, the poll, the live region, the tools, the
    move log) is the frame's: a table template extends it and draws the game."""
    if TABLE_FRAME in parents(template.template):
        return
    report.error(
        "E012",
        "table_template",
        f"{template.template.name!r} does not extend {TABLE_FRAME!r}.",
        f'Start it with {{% extends "{TABLE_FRAME}" %}} and draw the game in its blocks '
        "(moves, side, …; its forms with {% moveform %}): docs/adding-a-game.md, 'The frames and their blocks'.",
    )
