"""The referee's sentences in the reader's language: the ``N_`` template and the English
fragments put into it (marked with ``N_`` too) are translated where the message is shown;
names and numbers are left as they are. A small catalogue made here stands in for the real
one, compiled as set-up compiles it, and read by Django's own gettext."""

from __future__ import annotations

import ast
from pathlib import Path

import polib
import pytest
from django.utils import translation

from amnesia_site.catalogues import catalogue_path, compile_catalogue
from games.amnesia import rules as amnesia_rules
from games.messages import referee_message
from games.rules import IllegalMove
from games.rules.cards import SUIT_NAMES
from games.rules.errors import N_, Marked

PAY = "{who} has 0 tokens and cannot pay {why}."


@pytest.fixture
def portuguese(settings, tmp_path: Path) -> None:
    po = polib.POFile()
    po.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Plural-Forms": "nplurals=2; plural=(n > 1);",
        "Language": "pt_BR",
    }
    for msgid, msgstr in {
        PAY: "{who} não tem fichas e não pode pagar {why}.",
        "for a flashback": "por um flashback",
        "spades": "espadas",
    }.items():
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    path = catalogue_path("pt_BR", tmp_path)
    path.parent.mkdir(parents=True)
    po.save(str(path))
    compile_catalogue(path)
    # Django forgets the catalogues it had read when LOCALE_PATHS changes (a test signal).
    settings.LOCALE_PATHS = [tmp_path]


def test_n_marks_a_text_without_changing_it() -> None:
    marked = N_("for a flashback")
    assert marked == "for a flashback" and isinstance(marked, str) and isinstance(marked, Marked)
    assert isinstance(SUIT_NAMES["S"], Marked)


def test_the_template_and_the_marked_fragments_are_translated(portuguese) -> None:
    error = IllegalMove("insufficient_tokens", N_(PAY), who="Ana", why=N_("for a flashback"))
    assert error.message == "Ana has 0 tokens and cannot pay for a flashback."  # the log's
    with translation.override("pt-br"):
        assert referee_message(error) == "Ana não tem fichas e não pode pagar por um flashback."
    with translation.override("en"):
        assert referee_message(error) == error.message


def test_a_name_that_reads_like_a_fragment_is_left_alone(portuguese) -> None:
    # A player may be called anything; only what the referee marked is translated.
    error = IllegalMove("insufficient_tokens", N_(PAY), who="spades", why=N_("for a flashback"))
    with translation.override("pt-br"):
        assert referee_message(error) == "spades não tem fichas e não pode pagar por um flashback."


def test_the_amnesia_referee_marks_every_fragment_it_puts_into_a_sentence() -> None:
    """What is paid for and what only the narrator may do are fragments of a sentence: each
    call passes them through N_ (so the reader sees them in their language)."""
    parts = Path(amnesia_rules.__file__).parent.glob("*.py")  # the referee's package
    calls = [
        node
        for part in parts
        for node in ast.walk(ast.parse(part.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("_pay", "_require_narrator", "_require_not_narrator")
    ]
    assert len(calls) >= 9
    for call in calls:
        fragment = call.args[-1]
        assert isinstance(fragment, ast.Call) and getattr(fragment.func, "id", "") == "N_", (
            ast.unparse(call)
        )
