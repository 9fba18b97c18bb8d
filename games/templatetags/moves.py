"""``{% moveform %}…{% endmoveform %}`` and ``{% movebutton %}…{% endmovebutton %}``: a move's
form drawn from one of the referee's legal moves, so that a game's template holds only its
board and its buttons (the table page's plumbing is ``games/table_frame.html``).

``{% moveform legal by=name action=url do=verb turn=True class="…" data_narrate=True %}``
draws ``<form method="post">`` with the CSRF token and the hidden inputs every move carries
(*Moves from a page* in docs/moves.md):

- ``expected_seq`` (the context's), ``client_id`` (a fresh one per form: the fallback for a
  page without JavaScript), and ``expected_turn`` when the form's verb is one of the referee's
  ``independent_moves`` (or ``turn=True``);
- ``by`` when given (a seat's page leaves it out: its move is made in the seat's name);
- ``do`` when given as ``do=``, or when no button inside posts the verb (each posts another
  field, as ``name="card"``): the verb rides in a hidden input.

``keep_sent=False`` draws the form empty even in the answer to a refused move it sent (a
secret answer on the passed laptop, which the next player may see): by default it holds again
what was sent (``games.refill``).

``legal`` is a legal move (``{"do": …}``, from ``legal_moves``): its verb is the one the form's
``movebutton`` posts. ``action`` defaults to the context's ``move_url``. Any other keyword is
an attribute of the form (``data_narrate=True`` is ``data-narrate``; a false value leaves it
out).

``{% movebutton verb key="c" class="primary" %}label{% endmovebutton %}`` draws the button
that posts the verb (default: its form's) with its keyboard letter (``data-shortcut`` and
``<kbd>``); a ``name=``/``value=`` pair posts another field instead of the verb.

``{% narration part… rows=… placeholder=… %}`` draws the table's narration box, the one the
frame's scripts keep and carry across a live refresh (every game's box comes from it).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, token_kwargs
from django.template.defaulttags import CsrfTokenNode
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from games import registry
from games.forms import new_client_id
from games.refill import posted_here, refill, sends, sent_form

register = template.Library()

# The innermost form's verb, for the buttons inside it.
_VERB = "_moveform_verb"
# The CSRF input of the render (with the token it was drawn from).
_CSRF = "_moveform_csrf"
# Set once the render has put a refused move's values back in the form that sent them.
_REFILLED = "_moveform_refilled"


def _parse(parser, token, end: str) -> tuple[FilterExpression | None, dict, NodeList]:
    bits = token.split_contents()[1:]
    first = None
    if bits and "=" not in bits[0]:
        first = parser.compile_filter(bits.pop(0))
    kwargs = token_kwargs(bits, parser)
    if bits:
        raise template.TemplateSyntaxError(f"{token.contents.split()[0]}: cannot read {bits!r}")
    nodelist = parser.parse((end,))
    parser.delete_first_token()
    return first, kwargs, nodelist


def _attrs(values: dict[str, Any]) -> str:
    out = []
    for key, value in values.items():
        if value is False or value is None or value == "":
            continue
        name = key.replace("_", "-")
        out.append(f" {name}" if value is True else f' {name}="{conditional_escape(value)}"')
    return "".join(out)


def _hidden(name: str, value: Any) -> str:
    return f'<input type="hidden" name="{name}" value="{conditional_escape(value)}">'


class MoveFormNode(template.Node):
    def __init__(self, legal, kwargs, nodelist):
        self.legal = legal
        self.kwargs = kwargs
        self.nodelist = nodelist
        self.csrf = CsrfTokenNode()

    def render(self, context) -> SafeString:
        values = {k: v.resolve(context) for k, v in self.kwargs.items()}
        legal = self.legal.resolve(context) if self.legal is not None else None
        do = values.pop("do", None)
        verb = do or (legal.get("do") if isinstance(legal, dict) else None)
        by = values.pop("by", None)
        action = values.pop("action", None) or context.get("move_url", "")
        turn = values.pop("turn", None)
        keep_sent = values.pop("keep_sent", True)
        if turn is None and verb:
            game: Any = getattr(context.get("table"), "game", None)
            referee = registry.kit(game).referee if registry.is_game(game) else None
            turn = referee is not None and verb in referee.independent_moves
        parts = [
            f'<form method="post" action="{conditional_escape(action)}"{_attrs(values)}>',
            self._csrf(context),
            _hidden("expected_seq", context.get("expected_seq", "")),
            _hidden("client_id", new_client_id()),
        ]
        if turn:
            parts.append(_hidden("expected_turn", context.get("expected_turn", "")))
        if by is not None:
            parts.append(_hidden("by", by))
        if do:
            parts.append(_hidden("do", do))
        with context.push({_VERB: verb}):
            inside = self.nodelist.render(context)
        if verb and not do and 'name="do"' not in inside:
            # Buttons that post another field (a card each): the form's verb rides hidden, or
            # the form would post no move at all.
            parts.append(_hidden("do", verb))
        kept = self._kept(context, inside, action, by, do) if keep_sent else None
        if kept is not None:
            # Marked, so that the page opens the folded parts (<details>) that hold it.
            parts[0] = parts[0][:-1] + " data-refused>"
        parts.append(inside if kept is None else kept)
        parts.append("</form>")
        return mark_safe("".join(parts))

    def _kept(self, context, inside: str, action: str, by: Any, do: Any) -> str | None:
        """When the page answers a refused move that this form sent (``games.refill``), the
        form's inside with what it sent put back (only the first such form); else None."""
        sent = sent_form(context)
        if sent is None or context.render_context.get(_REFILLED):
            return None
        if by is not None and sent.get("by") != str(by):
            return None
        if do is not None and sent.get("do") != str(do):
            return None
        if not posted_here(context, action) or not sends(inside, sent):
            return None
        context.render_context[_REFILLED] = True
        return refill(inside, sent)

    def _csrf(self, context) -> str:
        """The CSRF input, drawn once per render for all the page's move forms (a page draws a
        score of them, all with the request's one token)."""
        token = context.get("csrf_token")
        drawn = context.render_context.get(_CSRF)
        if drawn is None or drawn[0] is not token:
            drawn = (token, self.csrf.render(context))
            context.render_context[_CSRF] = drawn
        return drawn[1]


class MoveButtonNode(template.Node):
    def __init__(self, verb, kwargs, nodelist):
        self.verb = verb
        self.kwargs = kwargs
        self.nodelist = nodelist

    def render(self, context) -> SafeString:
        values = {k: v.resolve(context) for k, v in self.kwargs.items()}
        key = values.pop("key", "")
        if "name" in values:
            name, value = values.pop("name"), values.pop("value", "")
        else:
            verb = self.verb.resolve(context) if self.verb is not None else context.get(_VERB)
            name, value = "do", verb
        key = str(key) if key not in (None, False) else ""
        attrs = {"name": name, "value": value, **values, "data_shortcut": key}
        label = self.nodelist.render(context)
        kbd = f" <kbd>{conditional_escape(key.upper())}</kbd>" if key else ""
        return mark_safe(f"<button{_attrs(attrs)}>{label}{kbd}</button>")


@register.tag
def moveform(parser, token):
    legal, kwargs, nodelist = _parse(parser, token, "endmoveform")
    return MoveFormNode(legal, kwargs, nodelist)


@register.tag
def movebutton(parser, token):
    verb, kwargs, nodelist = _parse(parser, token, "endmovebutton")
    return MoveButtonNode(verb, kwargs, nodelist)


@register.simple_tag(takes_context=True)
def narration(context, *part: Any, value: Any = None, **attrs: Any) -> SafeString:
    """``{% narration "scene" state.scenes rows=6 placeholder=_("…") %}``: the table's
    narration box, the same for every game. The frame's scripts know it by what it carries:
    its draft is kept in the browser and saved to the server as it is typed
    (``static/js/table.js``), and a live refresh carries its text, caret and keyboard into
    the new panel instead of waiting for the narrator to stop typing (``static/js/live.js``).

    ``part`` names what the text narrates (a scene, a turn): a refresh that brings another
    part's box leaves the text behind. ``value`` is the text it starts with (default: what a
    refused move just sent in it, else the table's saved draft); any other keyword is an
    attribute of the box (``form``, ``rows``, ``placeholder``)."""
    table = context["table"]
    key = "-".join(str(bit) for bit in (table.game, table.pk, *part))
    box = {
        "id": "narration",
        "name": "text",
        **attrs,
        "data_draft_key": key,
        "data_draft_url": reverse("games:draft", args=[table.pk]),
    }
    if value is None:
        # A refused move sent from this page: the text it carried, as typed.
        sent = sent_form(context)
        value = (sent or {}).get(box["name"]) or table.draft
    text = value
    return mark_safe(f"<textarea{_attrs(box)}>{conditional_escape(text)}</textarea>")
