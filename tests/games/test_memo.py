"""``{% memo %}`` keeps a block's HTML per value of its inputs, and never serves it for other
inputs, another language, another escaping, or inputs that are not plain data."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.template import Context, Engine, TemplateSyntaxError
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from games import registry
from games.services import new_tables
from games.templatetags import memo
from tests.games.long_games import long_game
from tests.games.test_query_counts import next_move

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


# -- the table pages: kept parts are the very HTML a fresh drawing gives ---------------------

TOKENS = re.compile(r'(name="(?:client_id|csrfmiddlewaretoken)" value=|"x-csrftoken": )"[^"]*"')
# A running clock's seconds so far (the contest's control): read off the clock at each drawing.
ELAPSED = re.compile(r'(data-elapsed=)"\d+"')


def _page(client, url: str, language: str = "en") -> str:
    # A form's id and the CSRF token differ at every drawing, by design.
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return ELAPSED.sub(r"\1-", TOKENS.sub(r"\1-", page))


@pytest.mark.django_db
@pytest.mark.parametrize("game", [kit.slug for kit in registry.kits()])
def test_a_page_drawn_from_kept_parts_equals_a_fresh_one(game, gm, gm_client, monkeypatch):
    # The contest's narrator clock counts seconds of wall time: a second passing between two
    # drawings of a loaded machine changes the page, not the memo. The clock stands still here.
    frozen = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    table = new_tables.import_script(long_game(game, 120), gm)
    url = reverse("games:table", args=[table.pk])
    _page(gm_client, url)  # fills what is kept
    kept = _page(gm_client, url)
    used = []
    drawn = memo.MemoNode.render

    def fresh(self, context):
        used.append(self)
        return self.nodelist.render(context)

    monkeypatch.setattr(memo.MemoNode, "render", fresh)
    assert _page(gm_client, url) == kept
    assert used, "the page uses no kept part"
    monkeypatch.setattr(memo.MemoNode, "render", drawn)
    # After a move (what the answer draws), and in another language, the same holds.
    move = next_move(table)
    answer = gm_client.post(
        reverse("games:move", args=[table.pk]),
        {"move": json.dumps(move), "expected_seq": table.last_seq},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    pages = {}
    for language in ("en", "pt-br", "ja"):
        pages[language] = kept = _page(gm_client, url, language)
        monkeypatch.setattr(memo.MemoNode, "render", fresh)
        assert _page(gm_client, url, language) == kept, language
        monkeypatch.setattr(memo.MemoNode, "render", drawn)
    assert len(set(pages.values())) == 3, "each language drew its own page"


def test_equal_plain_inputs_share_one_key_whatever_objects_they_share() -> None:
    # JSON's kinds are keyed by their marshal bytes: equal values, one key, even when one of
    # them holds the same list twice and the other two equal lists.
    shared = [1, 2]
    assert memo._key([{"a": shared, "b": shared}]) == memo._key([{"a": [1, 2], "b": [1, 2]}])
    assert isinstance(memo._key([{"a": [1, "é", None, 1.5]}]), bytes)
    # Values equal in Python but drawn differently are told apart.
    keys = {memo._key([v]) for v in (1, 1.0, True, "1", 0.0, -0.0)}
    assert len(keys) == 6
    # A marked text, a lazy translation or a time is no JSON kind: keyed the other way.
    for value in (mark_safe("<b>"), gettext_lazy("Hand")):
        assert not isinstance(memo._key([{"v": value}]), bytes)
    assert memo._key(["<b>"]) != memo._key([mark_safe("<b>")])


def test_a_refused_part_keys_its_value_and_its_siblings_by_their_own_kinds() -> None:
    when = timezone.now()
    row = {"seq": 1, "at": when, "fields": {"card": "6C"}}
    assert memo._key([[row]]) == memo._key([[dict(row)]])
    for changed in ({"seq": 2}, {"at": when + timedelta(seconds=1)}, {"fields": {"card": "7C"}}):
        assert memo._key([[row]]) != memo._key([[{**row, **changed}]])
    assert memo._key([{"v": "<b>", "n": [1]}]) != memo._key([{"v": mark_safe("<b>"), "n": [1]}])
    assert memo._key([{"n": 1, "t": when}]) != memo._key([{"n": True, "t": when}])
