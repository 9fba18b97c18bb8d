"""``{% memo a b ... %}…{% endmemo %}``: a part of a page drawn once per distinct value of its
inputs, then kept.

A table page draws the same things again and again: each of the story's last entries, each
player's card. A move changes one or two of them, and every render (the move's answer, each
screen's refresh) draws them all. Inside ``memo`` the HTML is kept per block, per language,
time zone, escaping and address prefix, and per value of the inputs named in the tag, in this process, for the
last ``KEEP`` values; a later render with the same inputs takes the kept HTML.

The block must read nothing but its inputs (and what never changes: translations, static
addresses): no form, token, per-request value or time. The inputs must be plain data, exactly
dicts, lists, tuples, sets, ranges, text, numbers, booleans, times and None (what a state or a story entry is), where
a translated text counts as its words in the current language and a text marked safe (not to
be escaped) differs from the same text unmarked; with any other value (a model, an object) the
block is drawn every time, so a kept block never stands in for one whose inputs differ.

The key. Most inputs are exactly JSON's kinds (dicts, lists, text, numbers): those are keyed by
their ``marshal`` bytes, made in C in one pass (format 2, which writes no references, so equal
values give equal bytes whatever objects they share, and which refuses any subclass: a text
marked safe, a lazy translation, a model). In what ``marshal`` refuses, each part it takes is
keyed by it and the others by ``_frozen``, a walk in Python that knows times and marked texts
(``_mixed``). Bytes never equal a tuple, so the two kinds of key never meet.
"""

from __future__ import annotations

import datetime
import decimal
import marshal
import threading
from collections import OrderedDict
from typing import Any

from django import template
from django.urls import get_script_prefix
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.safestring import SafeData

register = template.Library()

# Kept values per block: a page shows at most a few dozen at a time.
KEEP = 1024
# The render's script prefix, in its render context.
_PREFIX = "_memo_script_prefix"

# Values that never change once made (a time shows in the key's time zone and language).
_PLAIN = (
    str,
    int,
    float,
    bool,
    type(None),
    datetime.datetime,
    datetime.date,
    datetime.time,
    decimal.Decimal,
)


class _NotPlain(Exception):
    pass


def _frozen(value: Any) -> Any:
    """A hashable copy of plain data, told apart by type (1, 1.0 and True differ)."""
    if isinstance(value, Promise):  # a lazy translation: its words now (the key holds the language)
        value = str(value)
    kind = type(value)
    if kind in _PLAIN:
        return (kind.__name__, value)
    if isinstance(value, SafeData) and isinstance(value, str):
        return ("safe", str.__str__(value))
    if kind is dict:
        return ("{", tuple((_frozen(k), _frozen(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return ("[", tuple(_frozen(v) for v in value))
    if kind is set or kind is frozenset:  # in its order of iteration, as the block meets it
        return ("{}", tuple(_frozen(v) for v in value))
    if kind is range:
        return ("range", value.start, value.stop, value.step)
    raise _NotPlain


def _key(values: list[Any]) -> Any:
    """The inputs' key (see the module's docstring)."""
    try:
        return marshal.dumps(values, 2)
    except ValueError:  # not exactly JSON's kinds (a time, a marked or lazy text, an object)
        return _mixed(values)


def _mixed(value: Any) -> Any:
    """The key of a value ``marshal`` refused: a dict or a list is walked, each of its parts
    keyed by ``marshal`` when it can be (a move log's row is refused for its time alone, not
    for its fields), the rest by ``_frozen``. A part's bytes never equal ``_frozen``'s tuples."""
    kind = type(value)
    if kind is dict:
        return ("{", tuple((k if type(k) is str else _part(k), _part(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return ("[", tuple(_part(v) for v in value))
    return _frozen(value)


def _part(value: Any) -> Any:
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return _mixed(value)


class MemoNode(template.Node):
    def __init__(self, nodelist: template.NodeList, inputs: list[template.base.FilterExpression]):
        self.nodelist = nodelist
        self.inputs = inputs
        self.kept: OrderedDict[Any, str] = OrderedDict()
        self.lock = threading.Lock()

    def render(self, context: template.Context) -> str:
        try:
            values = _key([v.resolve(context) for v in self.inputs])
        except _NotPlain:
            return self.nodelist.render(context)
        # The site's own addresses (where the block links to them) start with the script
        # prefix, which no render changes: read once per render, not once per block.
        prefix = context.render_context.get(_PREFIX)
        if prefix is None:
            prefix = context.render_context[_PREFIX] = get_script_prefix()
        key = (
            prefix,
            translation.get_language(),
            timezone.get_current_timezone_name(),
            context.autoescape,
            values,
        )
        with self.lock:
            html = self.kept.get(key)
            if html is not None:
                self.kept.move_to_end(key)
                return html
        html = self.nodelist.render(context)
        with self.lock:
            self.kept[key] = html
            if len(self.kept) > KEEP:
                self.kept.popitem(last=False)
        return html


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("'memo' names the values its block is drawn from.")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, [parser.compile_filter(bit) for bit in bits])
