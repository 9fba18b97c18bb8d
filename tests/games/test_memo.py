"""``{% memo %}`` keeps a block's HTML per value of its inputs, and never serves it for other
inputs, another language, another escaping, or inputs that are not plain data."""

from __future__ import annotations

import pytest
from django.template import Context, Engine, TemplateSyntaxError
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from games.templatetags import memo

ENGINE = Engine(libraries={"memo": "games.templatetags.memo", "i18n": "django.templatetags.i18n"})


class Counting:
    """A value whose every reading is counted: tells a drawn block from a kept one."""

    def __init__(self) -> None:
        self.reads = 0

    def __str__(self) -> str:
        self.reads += 1
        return "x"


def test_the_same_inputs_take_the_kept_html() -> None:
    template = ENGINE.from_string("{% load memo %}{% memo p %}{{ p.name }}:{{ seen }}{% endmemo %}")
    seen = Counting()
    first = template.render(Context({"p": {"name": "Ana", "n": [1, 2]}, "seen": seen}))
    again = template.render(Context({"p": {"name": "Ana", "n": [1, 2]}, "seen": seen}))
    assert first == again == "Ana:x"
    assert seen.reads == 1  # drawn once, then kept
    other = template.render(Context({"p": {"name": "Ana", "n": [1, 3]}, "seen": seen}))
    assert other == "Ana:x" and seen.reads == 2  # a different input is drawn


def test_types_the_same_text_would_hide_are_told_apart() -> None:
    template = ENGINE.from_string("{% load memo %}{% memo v %}{{ v }}{% endmemo %}")
    assert template.render(Context({"v": 1})) == "1"
    assert template.render(Context({"v": True})) == "True"
    assert template.render(Context({"v": "1"})) == "1"
    assert template.render(Context({"v": "<b>"})) == "&lt;b&gt;"
    assert template.render(Context({"v": mark_safe("<b>")})) == "<b>"
    assert template.render(Context({"v": "<b>"})) == "&lt;b&gt;"
    assert template.render(Context({"v": "<b>"}, autoescape=False)) == "<b>"


def test_the_language_is_part_of_the_key() -> None:
    template = ENGINE.from_string(
        '{% load i18n memo %}{% memo v %}{% translate "Lost:" %} {{ v }}{% endmemo %}'
    )
    with translation.override("en"):
        english = template.render(Context({"v": gettext_lazy("Hand")}))
    with translation.override("pt-br"):
        portuguese = template.render(Context({"v": gettext_lazy("Hand")}))
    assert english == "Lost: Hand"
    assert portuguese != english
    with translation.override("en"):
        assert template.render(Context({"v": gettext_lazy("Hand")})) == english


def test_inputs_that_are_not_plain_data_are_drawn_every_time() -> None:
    template = ENGINE.from_string("{% load memo %}{% memo v %}{{ v }}{% endmemo %}")
    value = Counting()
    for _ in range(3):
        assert template.render(Context({"v": value})) == "x"
    assert value.reads == 3
    node = next(n for n in template.nodelist if isinstance(n, memo.MemoNode))
    assert not node.kept


def test_a_block_keeps_at_most_keep_values() -> None:
    template = ENGINE.from_string("{% load memo %}{% memo v %}{{ v }}{% endmemo %}")
    for i in range(memo.KEEP + 10):
        assert template.render(Context({"v": i})) == str(i)
    node = next(n for n in template.nodelist if isinstance(n, memo.MemoNode))
    assert len(node.kept) == memo.KEEP


def test_memo_names_its_inputs() -> None:
    with pytest.raises(TemplateSyntaxError):
        ENGINE.from_string("{% load memo %}{% memo %}x{% endmemo %}")
