"""The demo tables in the game master's language (issue 47): the demo command makes them in the
language it runs in, or the one ``--language`` names: the tables' names, their narration, a
contest's kind and a flashback's ability, and the table's own language, so its pages, seats and
book speak it too."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation

from games import registry
from games.models import Table

pytestmark = pytest.mark.django_db

ENGLISH = re.compile(r"\b(the|and|her|she|they|with|of)\b", re.IGNORECASE)


def _said(table: Table) -> str:
    texts = [m.text for m in table.moves.all() if m.text]
    for move in table.moves.all():
        data = move.payload if isinstance(move.payload, dict) else {}
        texts += [data.get("contest") or "", *(data.get("abilities") or [])]
    return " ".join(t for t in texts if t)


@pytest.mark.parametrize(
    ("asked", "language", "name", "words"),
    [
        (["--language", "ja"], "ja", "714号室の夜", "カードキー"),
        (["--language", "pt_BR"], "pt-br", "A noite do quarto 714", "cartão-chave"),
    ],
)
def test_demo_tables_are_made_in_the_language_asked(asked, language, name, words):
    call_command("demo", *asked, stdout=StringIO())
    tables = Table.objects.filter(owner__username="demo")
    # Every registered game's demos (whatever games are installed), and those only.
    with translation.override(language):
        names = sorted(n for kit in registry.kits() for n, _ in kit.demos(timezone.now()))
    assert sorted(tables.values_list("name", flat=True)) == names
    assert set(tables.values_list("language", flat=True)) == {language}
    assert tables.filter(name=name, game="amnesia").exists()
    for table in tables:
        said = _said(table)
        assert said, table.name
        if language == "ja":
            assert not re.search(r"[a-z]{4,}", said.replace("Zed", "").replace("Kit", "")), said
        else:
            assert not ENGLISH.search(said), (table.name, ENGLISH.findall(said)[:5])
    assert words in _said(tables.get(name=name))


def test_demo_speaks_the_language_it_runs_in():
    with translation.override("pt-br"):
        call_command("demo", stdout=StringIO())
    contest = Table.objects.get(owner__username="demo", name="O campeonato de comer tortas")
    assert contest.language == "pt-br"
    assert "uma disputa de quem come mais torta" in _said(contest)


def test_demo_refuses_a_language_the_site_does_not_speak():
    with pytest.raises(CommandError, match="No language 'xx'"):
        call_command("demo", "--language", "xx", stdout=StringIO())
    assert not Table.objects.exists()
