"""Japanese punctuation: a list is joined with 、 and a label ends in a full-width colon ：.
An ASCII comma or colon right beside Japanese text ("正答: けんた, さくら") is a mistake the
catalogue and the code can both make; this lints the ja catalogue and a Japanese book."""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime

import polib
import pytest

from games import registry
from games.services import import_script
from stories import services
from stories.models import story_for
from stories.pdf import book_html
from tests.stories.conftest import make_story
from tests.test_no_english_on_screen import visible

JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e\u3001-\u303f]"
# An ASCII comma or colon touching Japanese text on either side (one space allowed).
WRONG = re.compile(rf"{JAPANESE} ?[,:]|[,:] ?{JAPANESE}")
# Django's ``yesno`` filter reads its argument split on an ASCII comma.
FORMAT_ARGUMENTS = {"yes,no"}


def wrong_marks(text: str) -> list[str]:
    return [text[max(0, m.start() - 8) : m.end() + 8] for m in WRONG.finditer(text)]


def test_the_lint_finds_what_it_is_for() -> None:
    assert wrong_marks("正答: けんた, さくら") and wrong_marks("第1の旅, 第5の旅")
    assert wrong_marks("吟遊詩人: はるか")
    assert not wrong_marks("語り：はるか、正答：けんた、さくら") and not wrong_marks("Ana, Bo: 3")


def test_the_japanese_catalogue_uses_japanese_commas_and_colons() -> None:
    found = []
    for entry in polib.pofile("locale/ja/LC_MESSAGES/django.po"):
        if entry.obsolete or entry.msgid in FORMAT_ARGUMENTS:
            continue
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            found += [f"{entry.msgid!r}: {bad!r}" for bad in wrong_marks(text)]
    assert found == [], "\n".join(found)


NAMES = ["けんた", "さくら", "はるか", "ゆうき"]


def japanese_demo(slug: str) -> dict:
    """The game's first demo with Japanese players and narration."""
    _name, script = registry.kit(slug).demos(datetime.now(UTC))[0]
    script = copy.deepcopy(script)
    rename = dict(zip(script["players"], NAMES, strict=False))
    script["players"] = [rename[p] for p in script["players"]]
    for move in script["moves"]:
        move["by"] = rename.get(move["by"], move["by"])
        if "text" in move:
            move["text"] = "勇者は北へ向かった。"
    return {**script, "language": "ja"}


@pytest.mark.django_db
def test_a_japanese_book_uses_japanese_commas_and_colons(gm) -> None:
    stories = [make_story(gm, "ja")]
    table = import_script(japanese_demo("amnesia_stories"), gm)
    story = story_for(table, "ja")
    story.title = "北への旅"
    story.save()
    stories.append(story)
    found = []
    for story in stories:
        text = " | ".join(visible(book_html(services.make_book(story, "ja"))))
        assert "、" in text  # the players' names are a list
        found += wrong_marks(text)
    assert found == []


def test_a_japanese_book_sets_its_digits_as_lining_figures() -> None:
    """The Latin face's old-style figures sit low beside kana ("第1の旅" read as a subscript):
    the book's rule for Japanese overrides them, after the rule that sets them."""
    from django.conf import settings

    css = (settings.BASE_DIR / "static/css/story.css").read_text()
    base = css.index("oldstyle-nums")
    japanese = re.search(r"\.book:lang\(ja\)\s*\{([^}]*)\}", css[base:])
    assert japanese is not None and "lining-nums" in japanese.group(1)
