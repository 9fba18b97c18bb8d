"""What the crawl (tests/test_crawl.py) found in the designer's pages, the books and Japanese
punctuation, each mended and held here by a test of its own, fast and to the point: the crawl
says where, these say what."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.template import Context, Template
from django.utils import translation

from games import registry
from games.playtests import charts
from games.playtests.forms import add_option_fields
from stories.books import Credit, credits, incipit

ASCII_BESIDE_JAPANESE = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff] ?[,:;()]|[,:;()] ?[\u3040-\u9fff]"
)


def test_a_form_label_ends_in_the_languages_colon() -> None:
    class Named(forms.Form):
        name = forms.CharField(label="Name")

    with translation.override("ja"):
        assert Named()["name"].label_tag().endswith("：</label>")
    with translation.override("pt-br"):
        assert Named()["name"].label_tag().endswith(":</label>")


def test_djangos_own_words_the_site_says_otherwise_are_in_its_catalogues() -> None:
    """Django's strings the catalogues word otherwise (its label colon, the sign-up form's
    confirmation with full-width brackets) are marked in amnesia_site/django_words.py, so
    makemessages --no-obsolete keeps them (a run without the marks dropped them: the sign-up
    and the impressions forms said 'パスワード(確認用):')."""
    from django.contrib.auth.forms import SetPasswordForm, UserCreationForm

    with translation.override("ja"):
        signup = UserCreationForm()
        assert signup["password2"].label_tag() == (
            '<label for="id_password2">パスワード（確認用）：</label>'
        )
        assert str(SetPasswordForm(None)["new_password2"].label) == "新しいパスワード（確認用）"
    with translation.override("pt-br"):
        assert str(UserCreationForm()["password2"].label) == "Confirmação de senha"


@pytest.mark.parametrize("slug", [kit.slug for kit in registry.kits()])
def test_the_ruleset_form_shows_each_choice_by_its_label(slug) -> None:
    """As the new-table form does: ``zero_at_climax``, ``refuse``, ``defender`` are values the
    form sends, never what a designer reads."""
    form = forms.Form()
    kit = registry.kit(slug)
    with translation.override("pt-br"):
        add_option_fields(form, slug, {})
        for name, option in kit.referee.options.items():
            if option.choices is None or isinstance(option.default, bool):
                continue
            shown = dict(form.fields[f"opt_{name}"].choices)  # type: ignore[attr-defined]
            for value in option.choices:
                assert str(shown[value]) == str(kit.value_label(name, value))
                if isinstance(value, str) and value in kit.value_labels.get(name, {}):
                    assert str(shown[value]) != value, (name, value)


@pytest.mark.parametrize(
    ("language", "shown"), [("pt-br", "14/03/2026"), ("ja", "2026/03/14"), ("en", "03/14/2026")]
)
def test_a_day_kept_as_iso_text_is_shown_in_the_readers_form(language, shown) -> None:
    template = Template("{% load words %}{{ day|day }} {{ other|day }}")
    with translation.override(language):
        text = template.render(Context({"day": "2026-03-14", "other": "—"}))
    assert text == f"{shown} —"


def test_the_letter_paper_size_is_named_in_the_readers_language() -> None:
    from stories.views import SIZE_LABELS

    letter = dict(SIZE_LABELS)["letter"]
    with translation.override("ja"):
        assert str(letter) == "レター"
    with translation.override("pt-br"):
        assert str(letter) == "Carta"


def test_a_credit_counts_in_the_narrations_own_language() -> None:
    """English narration in a Japanese book is counted in words (語), Japanese in characters
    (字): "125字" for 125 English words was wrong."""
    from stories.books import Chapter, Passage

    def chapter(text: str) -> Chapter:
        return Chapter(
            anchor="c1",
            title="1",
            kind="scene",
            template="",
            narrators=["Ana"],
            passages=[Passage(seq=1, by="Ana", text=text)],
        )

    (english,) = credits([chapter("The hero went north at dawn.")], ["Ana"])
    (japanese,) = credits([chapter("勇者は北へ向かった。")], ["Ana"])
    assert (english.words, english.in_characters) == (6, False)
    assert (japanese.words, japanese.in_characters) == (10, True)
    template = Template(
        "{% load i18n %}{% if c.in_characters %}{% blocktranslate count n=c.words %}{{ n }} "
        "character{% plural %}{{ n }} characters{% endblocktranslate %}{% else %}"
        "{% blocktranslate count n=c.words %}{{ n }} word{% plural %}{{ n }} words"
        "{% endblocktranslate %}{% endif %}"
    )
    with translation.override("ja"):
        assert template.render(Context({"c": english})) == "6語"
        assert template.render(Context({"c": japanese})) == "10字"
    assert Credit("Bo", [], 0).in_characters is False


def test_a_japanese_chart_says_its_figures_with_japanese_marks() -> None:
    with translation.override("ja"):
        svg = charts.bar_chart(
            "プレイ時間",
            ["3人", "4人"],
            {"中央値": [35, 40]},
            ranges={"中央値": [(30, 40), (35, 45)]},
        )
        joined = charts.hbar_chart("勝ち", ["席1", "席2"], {"ゲーム": [3, 4], "勝利": [1, 2]})
    for text in (svg, joined):
        assert not ASCII_BESIDE_JAPANESE.search(text), ASCII_BESIDE_JAPANESE.findall(text)
    assert "プレイ時間：3人：中央値 35。4人：中央値 40" in svg
    assert charts._band_text(([30], [40]), 0) == " (30–40)"
    with translation.override("ja"):
        assert charts._band_text(([30], [40]), 0) == "（30〜40）"  # as the pages write an interval


def test_the_japanese_colophon_names_the_site_as_it_is_named() -> None:
    with translation.override("ja"):
        text = translation.gettext(
            "Set in Amnesia Serif (EB Garamond) and Amnesia Serif JP (Noto Serif CJK JP)."
            " Printed by Amnesia Table."
        )
    assert "Amnesia Table" in text and "アムネジア" not in text


@pytest.mark.django_db
def test_an_area_cards_alt_text_is_joined_as_the_language_joins(make_table) -> None:
    from games.amnesia_stories.card_faces import card_lookup

    table = make_table("amnesia_stories", ["Ana", "Bo", "Cy"])
    with translation.override("ja"):
        alt = card_lookup(table)("A01")["alt"]
    assert "、" in alt and ", " not in alt


def test_a_contest_player_and_character_are_bracketed_as_the_language_brackets() -> None:
    """'Doc Mirabel (Elio)が10♣を出します' put ASCII brackets inside a Japanese sentence."""
    from games.contest.page import shown_name

    with translation.override("ja"):
        assert shown_name("Elio", "Doc Mirabel") == "Doc Mirabel（Elio）"
        assert shown_name("Elio", None) == "Elio"
    with translation.override("pt-br"):
        assert shown_name("Elio", "Doc Mirabel") == "Doc Mirabel (Elio)"


def test_brackets_and_groups_are_written_as_the_language_writes_them() -> None:
    """'(銀行に1枚払う)', 'Ana 3; Bo 3' and 'プレイヤー 3: Ana、Bo (勝者： Bo)' were ASCII marks
    inside Japanese."""
    template = Template("{% load words %}x{% bracket_open %}y{% bracket_close %}{% colon %}z")
    with translation.override("ja"):
        assert template.render(Context()) == "x（y）：z"
        from amnesia_site import lists

        assert lists.groups().join(["a", "b"]) == "a。b"
    with translation.override("pt-br"):
        assert template.render(Context()) == "x (y): z"


def test_the_glossarys_refused_variants_are_in_no_catalogue_entry() -> None:
    """The crawl reads the glossary's refused words on every page; the catalogue, where most
    of them would come from, is read here whole."""
    import polib

    from tests.crawl_reading import refused_variants

    refused = refused_variants()
    assert refused["ja"] and refused["pt-br"]
    for language, folder in (("ja", "ja"), ("pt-br", "pt_BR")):
        for entry in polib.pofile(f"locale/{folder}/LC_MESSAGES/django.po"):
            for wrong, right in refused[language]:
                assert wrong not in entry.msgstr, (entry.msgid, wrong, right)


def test_a_japanese_incipit_is_cut_by_characters_even_with_spaces() -> None:
    """A chapter's line in the table of contents: Japanese narration with a full-width space
    between its sentences was kept whole (three "words"), a paragraph beside the others' few
    characters; it is cut as the same text without the spaces is. Spaced words still count
    as words."""
    spaced = (
        "勇者は旅立った。\u3000山を越え、谷を渡り、海の果てまで歩いた。\u3000そして帰らなかった。"
    )
    assert incipit(spaced) == "勇者は旅立った。 山を越え、谷を渡…"
    assert incipit(spaced.replace("\u3000", "")) == "勇者は旅立った。山を越え、谷を渡…"
    assert incipit("Ana は 森 へ 行った") == "Ana は 森 へ 行った"
    assert incipit("She wakes on a cold floor with no memory") == "She wakes on a cold floor with…"


def test_the_dashboards_summary_lists_and_brackets_as_the_language_does() -> None:
    """The dashboard's *All playtests* said '3人：3, 4人：2' and '19.1 (19.1–26.0)' in
    Japanese: an ASCII comma and brackets among Japanese words."""
    from games.playtests.dashboard_views import _summary_rows

    summary = {
        "count": 5,
        "tables": 5,
        "external": 0,
        "player_counts": [(3, 3), (4, 2)],
        "duration": {"median": 19.1, "q1": 19.1, "q3": 26.0},
        "score_spread": {"median": 5.0, "min": 1, "max": 14},
        "margin": {"median": 1.0, "min": 1, "max": 8},
        "draws": 0.0,
    }
    with translation.override("ja"):
        rows = dict((str(label), value) for label, value in _summary_rows(summary))
    assert rows["プレイ人数"] == "3人：3、4人：2"
    assert rows["プレイ時間（分）：中央値（第1〜第3四分位）"] == "19.1（19.1〜26.0）"
    assert rows["得点の幅：中央値（最小〜最大）"] == "5.0（1〜14）"
    with translation.override("pt-br"):
        rows = dict((str(label), value) for label, value in _summary_rows(summary))
    assert "3 jogadores: 3, 4 jogadores: 2" in rows.values()
    assert "19,1 (19,1–26,0)" in rows.values()


def test_the_labs_real_tables_are_counted_in_taku() -> None:
    """A run's length said '実際のテーブルのペース（1手あたり0.71分、5テーブル）' where the
    dashboard beside it says '実卓のペース' and '（5卓）': a game's table is 卓 (the glossary)."""
    with translation.override("ja"):
        assert translation.ngettext("%(n)s table", "%(n)s tables", 5) % {"n": 5} == "5卓"


def test_japanese_numbers_are_written_in_half_width_digits() -> None:
    """The run page mixed '１ゲームは24手かかります' and '15ゲームに１回' with '1手あたり' and
    '1ゲームで': the catalogue writes every number in half-width digits (as the figures are)."""
    import polib

    full_width = re.compile("[\uff10-\uff19]")
    for entry in polib.pofile("locale/ja/LC_MESSAGES/django.po"):
        for text in (entry.msgstr, *entry.msgstr_plural.values()):
            assert not full_width.search(text), (entry.msgid, text)
