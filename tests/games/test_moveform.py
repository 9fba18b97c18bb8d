"""The table frame's move forms (``{% moveform %}``, ``games/templatetags/moves.py``) and the
frame itself: every form carries the plumbing of a move, and an htmx answer is the panel alone."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template import RequestContext, Template
from django.test import RequestFactory

AMNESIA = SimpleNamespace(game="amnesia")


def draw(source: str, **context) -> str:
    request = RequestFactory().get("/")
    return Template("{% load moves %}" + source).render(RequestContext(request, context))


def test_a_move_form_carries_the_token_the_hidden_inputs_the_verb_and_its_letter():
    html = draw(
        '{% moveform legal by=name class="inline-form" %}<input name="take">'
        '{% movebutton class="primary" key="p" %}Pass{% endmovebutton %}{% endmoveform %}',
        legal={"do": "pass", "max_take": 2},
        name="Ana & Bo",
        expected_seq=7,
        expected_turn="scene-3",
        move_url="/tables/1/move/",
        table=AMNESIA,
    )
    assert html.startswith('<form method="post" action="/tables/1/move/" class="inline-form">')
    assert re.search(r'<input type="hidden" name="csrfmiddlewaretoken" value="\w+">', html)
    assert '<input type="hidden" name="expected_seq" value="7">' in html
    assert re.search(r'<input type="hidden" name="client_id" value="[0-9a-f]{32}">', html)
    assert '<input type="hidden" name="by" value="Ana &amp; Bo">' in html
    assert 'name="expected_turn"' not in html  # a pass depends on the log: judged by its seq
    assert html.endswith(
        '<input name="take"><button name="do" value="pass" class="primary" data-shortcut="p">'
        "Pass <kbd>P</kbd></button></form>"
    )


def test_an_independent_move_carries_its_turn_and_each_form_its_own_id():
    source = (
        "{% moveform legal %}{% movebutton %}Suggest{% endmovebutton %}{% endmoveform %}"
        "{% moveform legal %}{% movebutton %}Suggest{% endmovebutton %}{% endmoveform %}"
    )
    html = draw(source, legal={"do": "suggest"}, expected_seq=3, expected_turn="t9", table=AMNESIA)
    assert html.count('<input type="hidden" name="expected_turn" value="t9">') == 2
    ids = re.findall(r'name="client_id" value="(\w+)"', html)
    assert len(ids) == 2 and ids[0] != ids[1]
    assert 'name="by"' not in html  # a seat's page: the move is made in the seat's name


def test_a_hidden_verb_buttons_posting_another_field_and_the_form_attributes():
    html = draw(
        '{% moveform action=url do="play" turn=True data_confirm_card=True hidden=False %}'
        '{% for c in cards %}{% movebutton name="card" value=c key=forloop.first|yesno:"x," %}'
        "Play {{ c }}{% endmovebutton %}{% endfor %}{% endmoveform %}",
        url="/seat/abc/move/",
        cards=["7C", "<b>"],
        expected_seq=0,
        expected_turn="",
    )
    assert html.startswith('<form method="post" action="/seat/abc/move/" data-confirm-card>')
    assert '<input type="hidden" name="do" value="play">' in html
    assert '<input type="hidden" name="expected_turn" value="">' in html
    assert '<button name="card" value="7C" data-shortcut="x">Play 7C <kbd>X</kbd></button>' in html
    assert '<button name="card" value="&lt;b&gt;">Play &lt;b&gt;</button>' in html


def test_a_legal_moves_form_whose_buttons_post_another_field_carries_its_verb_hidden():
    html = draw(
        "{% moveform legal %}{% for c in cards %}{% movebutton name='card' value=c %}"
        "Play {{ c }}{% endmovebutton %}{% endfor %}{% endmoveform %}",
        legal={"do": "play"},
        cards=["7C", "9H"],
        expected_seq=0,
    )
    assert html.count('<input type="hidden" name="do" value="play">') == 1
    # A form whose buttons post the verb themselves carries no second one.
    plain = draw(
        "{% moveform legal %}{% movebutton %}Play{% endmovebutton %}{% endmoveform %}",
        legal={"do": "play"},
        expected_seq=0,
    )
    assert plain.count('name="do"') == 1 and '<button name="do" value="play">' in plain


@pytest.mark.django_db
def test_an_htmx_answer_is_the_panel_alone_and_the_page_is_whole(gm_client, make_table):
    table = make_table()
    page = gm_client.get(table.get_absolute_url()).content.decode()
    panel = gm_client.get(table.get_absolute_url(), HTTP_HX_REQUEST="true").content.decode()
    assert page.startswith("<!doctype html>") and 'class="site-header"' in page
    assert panel.lstrip().startswith('<div id="table-panel"') and "site-header" not in panel
    for html in (page, panel):  # the frame's plumbing, in both
        assert 'data-poll="' in html and "data-announce" in html and 'class="log"' in html
        assert html.count('<div id="table-panel"') == 1
