"""What a refused move's form held, put back in the form its answer draws.

A refused move (400, 409) is answered with its page drawn again from the table, so every box
would come back as the table has it: the narration, the suggestion, the character's name and
attributes, the boxes ticked, the option chosen, all gone. ``games.answers`` marks the request
of a refused move (``keep_sent``); ``{% moveform %}`` (``games/templatetags/moves.py``) then
hands the form it draws to :func:`refill`, which fills it with what was sent when it is the
form that sent it. One place for every game, every page (table, seat, pass-the-laptop) and
both ways of posting (htmx and a plain form post): no game's template needs to know.

Hidden inputs are never refilled: the log's length, the submission's id and the CSRF token
must be the new page's, so that sending the form again is a new submission against the table
as it is now.
"""

from __future__ import annotations

import html
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

from django.http import QueryDict

# The request attribute that holds what a refused move sent (a QueryDict).
SENT = "refused_post"
# Inputs whose value is not what was typed or chosen.
NOT_KEPT = {"hidden", "submit", "button", "reset", "image", "file", "password"}
TICKED = {"checkbox", "radio"}


def keep_sent(request: Any) -> None:
    """Mark ``request`` as a refused move's: the page drawn for it keeps what it sent. A
    JSON body is no form to put back."""
    if getattr(request, "method", None) == "POST" and request.content_type != "application/json":
        setattr(request, SENT, request.POST)


def sent_form(context: Any) -> QueryDict | None:
    """What the refused move being answered sent, when the page being drawn answers one."""
    request = context.get("request")
    sent = getattr(request, SENT, None)
    return sent if isinstance(sent, QueryDict) else None


def posted_here(context: Any, action: str) -> bool:
    """Whether the refused move was posted to ``action`` (a form's address)."""
    request = context.get("request")
    return request is not None and urlsplit(action).path == request.path


class _Tags(HTMLParser):
    """Each tag of an HTML fragment with where it starts and ends in the text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.lines = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.lines.append(i + 1)
        self.tags: list[tuple[str, dict[str, str | None], int, int]] = []
        self.feed(text)
        self.close()

    def _start(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._start()
        raw = self.get_starttag_text() or ""
        self.tags.append((tag, dict(attrs), start, start + len(raw)))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        start = self._start()
        end = self.text.find(">", start) + 1
        self.tags.append(("/" + tag, {}, start, end))


def _start_tag(tag: str, attrs: dict[str, str | None]) -> str:
    parts = [tag]
    for name, value in attrs.items():
        parts.append(name if value is None else f'{name}="{html.escape(value, quote=True)}"')
    return "<" + " ".join(parts) + ">"


def _with(attrs: dict[str, str | None], name: str, on: bool) -> dict[str, str | None]:
    out = {k: v for k, v in attrs.items() if k != name}
    if on:
        out[name] = None
    return out


def sends(fragment: str, sent: QueryDict) -> bool:
    """Whether the form drawn as ``fragment`` is the one that sent ``sent``: one of its
    named buttons is the one pressed, or (a form whose buttons carry no name) it has a field
    of the same name as one sent."""
    buttons: list[tuple[str, str]] = []
    fields: set[str] = set()
    for tag, attrs, _start, _end in _Tags(fragment).tags:
        name = attrs.get("name")
        if not name:
            continue
        kind = (attrs.get("type") or "").lower()
        if tag == "button" or (tag == "input" and kind in ("submit", "image")):
            buttons.append((name, attrs.get("value") or ""))
        elif tag in ("input", "select", "textarea") and kind != "hidden":
            fields.add(name)
    if buttons:
        return any(value in sent.getlist(name) for name, value in buttons)
    return any(name in sent for name in fields)


def refill(fragment: str, sent: QueryDict) -> str:
    """``fragment`` (a form's inside) with its boxes holding what ``sent`` held: text typed,
    boxes ticked or not, options chosen. A text box or select ``sent`` does not name is left
    as it was; a tick box or radio button is ticked exactly when its value was sent."""
    tags = _Tags(fragment).tags
    out: list[str] = []
    at = 0
    seen: dict[str, int] = {}  # how many text boxes of each name so far (a name may repeat)
    select: str | None = None
    chosen: list[str] | None = None  # the values the select being read holds
    i = 0
    while i < len(tags):
        tag, attrs, start, end = tags[i]
        name = attrs.get("name") or ""
        replacement: str | None = None
        skip_to = end
        if tag == "select":
            # Each select of a name holds its own value (a story told step by step), in
            # order; a multiple select holds them all.
            chosen = None
            if name in sent:
                values = sent.getlist(name)
                k = seen.get(name, 0)
                seen[name] = k + 1
                if "multiple" in attrs:
                    chosen = values
                elif k < len(values):
                    chosen = [values[k]]
            select = name if chosen is not None else None
        elif tag == "/select":
            select = None
        elif tag == "option" and select is not None:
            value = attrs.get("value")
            if value is None:  # the option's text is its value
                close = fragment.find("<", end)
                value = html.unescape(fragment[end : close if close >= 0 else None]).strip()
            replacement = _start_tag(tag, _with(attrs, "selected", value in (chosen or ())))
        elif tag == "input" and name:
            kind = (attrs.get("type") or "text").lower()
            if kind in TICKED:
                # A box left unticked is not sent at all: not sent, not ticked.
                on = (attrs.get("value") or "on") in sent.getlist(name)
                replacement = _start_tag(tag, _with(attrs, "checked", on))
            elif kind not in NOT_KEPT and name in sent:
                values = sent.getlist(name)
                k = seen.get(name, 0)
                seen[name] = k + 1
                if k < len(values):
                    replacement = _start_tag(tag, {**attrs, "value": values[k]})
        elif tag == "textarea" and name in sent:
            values = sent.getlist(name)
            k = seen.get(name, 0)
            seen[name] = k + 1
            close = fragment.find("</textarea", end)
            if k < len(values) and close >= 0:
                replacement = fragment[start:end] + html.escape(values[k], quote=False)
                skip_to = close
                while i + 1 < len(tags) and tags[i + 1][2] < close:
                    i += 1  # tags inside a textarea are its text
        if replacement is not None:
            out.append(fragment[at:start])
            out.append(replacement)
            at = skip_to
        i += 1
    out.append(fragment[at:])
    return "".join(out)
