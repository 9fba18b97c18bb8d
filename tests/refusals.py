"""What every refused move's answer must be, whatever the game (tests/games/*/test_refusals.py).

A refused move (400, 409) is answered inside the page it came from: a plain form post gets
the whole page (the site's stylesheet, a title), an htmx post gets the panel it swaps (never
a bare page nor a bare message), and either way the form that sent the move holds again what
was typed or chosen in it, above it one sentence in the reader's language that names no code
(no field's or verb's name, nothing in quotes a program would write).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from django.test import Client

LANGUAGES = ("pt-br", "ja")
STYLESHEET = '<link rel="stylesheet" href="/static/css/app.css">'
HTMX = {"HTTP_HX_REQUEST": "true"}
# Japanese text: kana or kanji.
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# What a program writes, not a person: a word in straight quotes ('agreed'), a placeholder.
CODE_LIKE = re.compile(r"'[^'\s]+'|[{}]|\\x|\bNone\b|\bTrue\b|\bFalse\b")


@dataclass
class Refusal:
    """One illegal form: where it is posted, what it sends, and what its answer must show
    again (``kept``: a field's name and the values the form holds for it, as
    :class:`FormValues` reads them; None: the form holds none, a box left unticked)."""

    id: str
    url: str
    data: dict[str, Any]
    kept: dict[str, list[str] | None]
    panel: str | None = "table-panel"  # None: a page of its own, not a panel htmx swaps
    status: int = 400
    codes: Iterable[str] = field(default_factory=tuple)


class FormValues(HTMLParser):
    """What each form of a page holds (``forms``), field by field, as a browser would send
    it: a text box's value, a ticked box's, a chosen option's, a text area's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, list[str]]] = []
        self.values: dict[str, list[str]] = {}
        self._by_id: dict[str, dict[str, list[str]]] = {}  # a control may name its form
        self._owner: dict[str, list[str]] | None = None  # the form of the control being read
        self._select: str | None = None
        self._option: tuple[str | None, bool] | None = None
        self._area: str | None = None
        self._text: list[str] = []
        self.feed(text)
        self.close()

    def _add(self, name: str | None, value: str, owner: dict | None = None) -> None:
        if name:
            (owner if owner is not None else self.values).setdefault(name, []).append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        kind = (a.get("type") or "text").lower()
        owner = self._by_id.setdefault(a["form"], {}) if a.get("form") else None
        if tag == "form":
            self.values = self._by_id.setdefault(a["id"], {}) if a.get("id") else {}
            self.forms.append(self.values)
        elif tag == "input" and kind in ("checkbox", "radio"):
            if "checked" in a:
                self._add(a.get("name"), a.get("value") or "on", owner)
        elif tag == "input" and kind not in ("hidden", "submit", "button", "file"):
            self._add(a.get("name"), a.get("value") or "", owner)
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select:
            self._option = (a.get("value"), "selected" in a)
            self._text = []
        elif tag == "textarea":
            self._area = a.get("name")
            self._owner = owner
            self._text = []

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None:
            value, chosen = self._option
            if chosen:
                self._add(self._select, value if value is not None else "".join(self._text).strip())
            self._option = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._area:
            self._add(self._area, "".join(self._text).removeprefix("\n"), self._owner)
            self._area = None


def alert_text(body: str) -> list[str]:
    """The text of each alert on the page (the refusal's sentence), its link left out."""
    found = re.findall(r'<div class="alert error" role="alert">(.*?)</div>', body, re.S)
    return [html.unescape(re.sub(r"<a\b.*?</a>", "", f, flags=re.S)).strip() for f in found]


def post(client: Client, case: Refusal, language: str, htmx: bool):
    client.cookies["django_language"] = language
    return client.post(case.url, case.data, **(HTMX if htmx else {}))


def check_refusal(client: Client, case: Refusal, english: str, language: str, htmx: bool):
    """Post ``case`` in ``language`` (htmx or not) and check its answer; ``english``: the
    sentence the same refusal reads in English."""
    response = post(client, case, language, htmx)
    body = response.content.decode()
    where = f"{case.id} ({language}, {'htmx' if htmx else 'plain'})"
    assert response.status_code == case.status, (where, response.status_code, body[:300])
    if htmx:
        # The panel alone, which htmx swaps in place of the one on the page.
        assert "<html" not in body and "<title>" not in body, where
        assert f'id="{case.panel}"' in body, where
    else:
        assert STYLESHEET in body, where
        title = re.search(r"<title>(.*?)</title>", body, re.S)
        assert title and title.group(1).strip(), where
        assert case.panel is None or f'id="{case.panel}"' in body, where
    alerts = alert_text(body)
    assert len(alerts) == 1, (where, alerts)
    sentence = alerts[0]
    assert sentence and sentence != english, (where, sentence)
    if language == "ja":
        assert JAPANESE.search(sentence), (where, sentence)
    assert not CODE_LIKE.search(sentence), (where, sentence)
    for code in case.codes:
        assert not re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", sentence), (
            where,
            code,
            sentence,
        )
    forms = FormValues(body).forms
    # The form that sent the move holds again everything it sent.
    assert any(
        all(form.get(name) == expected for name, expected in case.kept.items()) for form in forms
    ), (where, case.kept, [f for f in forms if set(f) & set(case.kept)])


def english_sentence(client: Client, case: Refusal) -> str:
    client.cookies["django_language"] = "en"
    response = client.post(case.url, case.data)
    alerts = alert_text(response.content.decode())
    assert len(alerts) == 1, (case.id, response.status_code, alerts)
    return alerts[0]


def check_everywhere(client: Client, case: Refusal, set_language) -> None:
    """``case`` posted plain and through htmx, in Portuguese and in Japanese.
    ``set_language(code)`` makes the page speak ``code`` (a seat page: the table's)."""
    set_language("en")
    english = english_sentence(client, case)
    for language in LANGUAGES:
        set_language(language)
        for htmx in (False, True) if case.panel else (False,):
            check_refusal(client, case, english, language, htmx)
