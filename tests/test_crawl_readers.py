"""The crawl's readers themselves (tests/crawl_reading.py): each finds what it is for and
passes what is right, and the Japanese catalogue and book read as the crawl's Japanese reader
expects. Marked as the crawl is (tests/test_crawl.py)."""

from __future__ import annotations

import re

import polib
import pytest

from tests.crawl_reading import JAPANESE, English, Reader

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_only, pytest.mark.long]


# -- the detectors themselves -----------------------------------------------------------------


def test_the_crawls_readers_find_what_they_are_for() -> None:
    ja = Reader("ja", {"Ana"}, English({"Pass the laptop"}), [("数字カード", "ナンバーカード")])
    assert ja.problems("正答: けんた, さくら") and ja.problems("吟遊詩人: はるか")
    assert ja.problems("Doc Mirabel (Elio)が10♣を出します")
    assert ja.problems("数字カードを使う") and ja.problems("Pass the laptop")
    assert ja.problems("もしもchoicesを変えたら") and ja.problems("· 10D")
    assert not ja.problems("語り：はるか、正答：けんた、さくら") and not ja.problems("Ana 3")
    assert not ja.problems("画像は3:2に切り抜かれます") and not ja.problems("Amnesia Table")
    pt = Reader("pt-br", {"Ana"}, English(set()), [])
    assert pt.problems("2026-03-12") and pt.problems("média 3.5") and pt.problems("bard_share")
    assert pt.problems("refuse", same_as_english=True)
    assert not pt.problems("refuse") and not pt.problems("média 3,5")
    assert not pt.problems("https://example.com/v1.2") and not pt.problems(
        "Total", same_as_english=True
    )
    # A part read again (the crawl's readers keep what they found) is found the same, and
    # whether it stands where the English page has the same text still counts.
    assert ja.problems("Pass the laptop") == ja.problems("Pass the laptop") != []
    assert pt.problems("refuse") == [] and pt.problems("refuse", same_as_english=True) != []
    found = ja.problems("· 10D")
    found.clear()  # what a caller does with its list is not kept
    assert ja.problems("· 10D")


def test_the_english_finder_finds_what_the_plain_reading_finds() -> None:
    """``English.found_in`` against the plain definition: a part that is a string, or holds a
    long one (spaces and more than 12 characters), string by string."""
    msgids = {"Discard", "Pass the laptop", "Nothing you sent was applied", "Next round now"}
    english = English(msgids)
    parts = [
        "Discard",
        "Discard it",
        "Ana: Pass the laptop to Bruno",
        "Nothing you sent was applied, and the Next round now begins",
        "パスしてください",
        "",
    ]
    for part in parts:
        plain = sorted(m for m in msgids if part == m or (" " in m and len(m) > 12 and m in part))
        assert english.found_in(part) == plain, part


def test_the_japanese_catalogue_uses_japanese_commas_and_colons() -> None:
    """The crawl reads what pages show; the catalogue is read here whole, entries no page of
    the world shows included (``yes,no`` is an argument of Django's ``yesno``, not text)."""
    found = []
    for entry in polib.pofile("locale/ja/LC_MESSAGES/django.po"):
        if entry.obsolete or entry.msgid == "yes,no":
            continue
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            if re.search(rf"{JAPANESE} ?[,:]|[,:] ?{JAPANESE}", text):
                found.append(f"{entry.msgid!r}: {text!r}")
    assert found == [], "\n".join(found)


def test_a_japanese_book_sets_its_digits_as_lining_figures() -> None:
    """The Latin face's old-style figures sit low beside kana ("第1の旅" read as a subscript):
    the book's rule for Japanese overrides them, after the rule that sets them."""
    from django.conf import settings

    css = (settings.BASE_DIR / "static/css/story.css").read_text()
    base = css.index("oldstyle-nums")
    japanese = re.search(r"\.book:lang\(ja\)\s*\{([^}]*)\}", css[base:])
    assert japanese is not None and "lining-nums" in japanese.group(1)
