"""The contest's book and table page tell one evening alike: the narration typed before a
take-over is the narrator's who held the story then, in the book and on the page; every part
has a line in the contents; a take-over paid with drinks says the drinks once; and a player
with their character reads "Zed (Ana)" everywhere. Each is read from a table played through
the write path, in the book's own HTML (what the PDF is printed from) and the page's."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from games.services import writing
from stories import pdf as story_pdf
from stories import services as story_services
from stories.models import story_for
from tests.tables import CAST, contest_in_play

pytestmark = pytest.mark.django_db

OPENING = "The market is closed, and Zed knows why."
BEFORE_TAKE_OVER = "The lights go out over the stalls."


def _evening(gm):
    """A two-seat contest: the narrator challenges and is refused, the other takes control
    with drinks (with the narration typed while the first still held the story), and the
    first takes it straight back (so the second narrator's part has nothing written)."""
    table = contest_in_play(gm, deck_mode="physical", seed=7)
    first = table.state["controller"]
    second = next(name for name, _character in CAST if name != first)
    for move in (
        {
            "by": first,
            "do": "challenge",
            "target": second,
            "contest": "a race",
            "attribute": "moves",
            "text": OPENING,
        },
        {"by": second, "do": "refuse", "penalty": ["drink", "card"], "cards": ["9D"]},
        {"by": second, "do": "take_control", "with": "drinks", "text": BEFORE_TAKE_OVER},
    ):
        writing.play_many(table, [move], None)
    table.refresh_from_db()
    return table, first, second


def _book(table):
    story = story_for(table, "en")
    book = story_services.make_book(story)
    return book, story_pdf.book_html(book)


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def shown(name: str) -> str:
    character = dict(CAST)[name]
    return f"{character} ({name})"


def test_narration_typed_before_a_take_over_is_the_previous_narrators_in_book_and_page(
    gm, gm_client
):
    table, first, second = _evening(gm)
    book, _html = _book(table)
    parts = [c for c in book.chapters if c.kind == "part"]
    assert [(p.text, p.by) for p in parts[0].passages] == [
        (OPENING, first),
        (BEFORE_TAKE_OVER, first),
    ]
    assert [p.narrators for p in parts] == [[first], [second]]
    credits = {c.name: c.chapters for c in book.credits}
    assert credits[second] == ["Part 2"]
    # The table page credits it to the same narrator, before the change of control.
    page = gm_client.get(table.get_absolute_url()).content.decode()
    told = re.findall(
        r'<blockquote class="story-narration"><p>(.*?)</p><footer>— (.*?)</footer>', page
    )
    assert [(unescape(t), unescape(by)) for t, by in told] == [
        (OPENING, shown(first)),
        (BEFORE_TAKE_OVER, shown(first)),
    ]


def test_every_part_has_a_line_in_the_contents(gm):
    table, first, _second = _evening(gm)
    writing.play_many(table, [{"by": first, "do": "take_control", "with": "drinks"}], None)
    table.refresh_from_db()
    book, html = _book(table)
    parts = [c for c in book.chapters if c.kind == "part"]
    assert [c.title for c in parts] == ["Part 1", "Part 2", "Part 3"]
    assert not parts[1].passages and not parts[2].passages  # nothing written in either
    contents = html.split('<nav class="book-toc"', 1)[1].split("</nav>", 1)[0]
    lines = re.findall(r'<li class="toc-entry toc-entry--part">(.*?)</li>', contents, re.S)
    assert len(lines) == 3
    for line, part in zip(lines, parts, strict=True):
        assert part.incipit, part.title
        assert _text(line) == f"{part.title} {part.incipit}"
    assert parts[0].incipit.startswith("The market is closed")
    assert shown(first) in parts[2].incipit


def test_a_take_over_paid_with_drinks_says_the_drinks_once(gm, gm_client):
    table, _first, second = _evening(gm)
    page = gm_client.get(table.get_absolute_url()).content.decode()
    just_now = page.split('<div class="just-now">', 1)[1].split("</div>", 1)[0]
    assert _text(just_now).count("takes 2 drinks") == 1
    assert f"{shown(second)} takes 2 drinks and takes control of the story." in _text(just_now)
    book, html = _book(table)
    margins = [i for c in book.chapters for i in c.data.get("items", []) if i["type"] == "margin"]
    assert not [m for m in margins if "2 drinks" in m["summary"]]
    body = _text(html.split('<div class="book-body">', 1)[1])
    assert body.count("takes two drinks") + body.count("takes 2 drinks") == 1


def test_a_player_and_their_character_read_the_same_everywhere(gm, gm_client):
    table, first, second = _evening(gm)
    page = _text(gm_client.get(table.get_absolute_url()).content.decode())
    _book_, html = _book(table)
    book = _text(html)
    for name in (first, second):
        character = dict(CAST)[name]
        assert f"{name} ({character})" not in page
        assert f"{name} ({character})" not in book
    assert f"{shown(first)} starts the story." in book
    assert f"{shown(second)} takes" in book and f"{shown(second)} takes" in page


@pytest.mark.parametrize("language", ["pt-br", "ja"])
def test_the_book_tells_events_in_its_language_and_names_cards_as_the_table_does(
    gm, gm_client, language
):
    """The demo's finished evening, printed in Portuguese and Japanese: every event is the
    table page's translated sentence (not the referee's English summary), a lost card reads
    10♦ and an attribute its word, never a code."""
    from django.utils import timezone

    from games.contest.demo import finished
    from games.services.new_tables import import_script
    from tests.codenames import code_names

    table = import_script(finished(timezone.now()), gm, "A fair")
    story = story_for(table, language)
    body = _text(story_pdf.book_html(story_services.make_book(story)).split("book-body", 1)[1])
    for english in (
        "loses 10♦",
        "throws a pretzel at",
        "takes control",
        "is the last one standing",
        "brains",
        "muscle",
        "drink",
    ):
        assert english not in body, english
    assert not code_names(body), code_names(body)
    assert "10♦" in body  # the card Yum loses, drawn as the table page draws it
    # The story page and the single-HTML download print the same chapters.
    for name in ("stories:detail", "stories:single_html"):
        response = gm_client.get(reverse(name, args=[story.pk]), HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, name
        page = _text(b"".join(response).decode() if response.streaming else response.text)
        assert "10♦" in page, name
        assert "throws a pretzel at" not in page and "loses 10♦" not in page, name


def test_a_refused_challenge_and_an_eaten_pretzel_are_in_the_book(gm):
    """The penalties of a refusal say why (the challenge, then the refusal), and a pretzel
    eaten is told beside the one thrown, as on the table page."""
    table, first, second = _evening(gm)
    for move in (
        {"by": first, "do": "throw_pretzel"},
        {"by": second, "do": "eat_pretzels", "count": 1},
    ):
        writing.play_many(table, [move], None)
    table.refresh_from_db()
    _book_, html = _book(table)
    body = _text(html.split('<div class="book-body">', 1)[1])
    challenge = f"{shown(first)} challenges {shown(second)} to a race, with Moves."
    refusal = f"{shown(second)} refuses the challenge and pays a drink + a card."
    lost = f"{shown(second)} loses 9♦."
    assert challenge in body and refusal in body and lost in body, body
    assert body.index(challenge) < body.index(refusal) < body.index(lost)
    thrown = f"{shown(first)} throws a pretzel at {shown(second)}."
    eaten = f"{shown(second)} eats 1 pretzel."
    assert thrown in body and eaten in body, body
    assert body.index(thrown) < body.index(eaten)


def _played(gm, *after: dict):
    """A contest played to its result (the first seat's 9♦ and 2♠ against 3♠), then
    ``after``, each move's ``by`` given as "first" or "second"."""
    table = contest_in_play(gm, deck_mode="physical", seed=7)
    first = table.state["controller"]
    second = next(name for name, _character in CAST if name != first)
    seats = {"first": first, "second": second}
    for move in (
        {"by": first, "do": "challenge", "target": second, "contest": "a race",
         "attribute": "moves"},
        {"by": second, "do": "accept", "attribute": "moves"},
        {"by": first, "do": "play", "card": "9D", "draws": ["2S"]},
        {"by": second, "do": "play", "card": "3S"},
        *({**m, "by": seats[m["by"]]} for m in after),
    ):  # fmt: skip
        writing.play_many(table, [move], None)
    table.refresh_from_db()
    return table, first, second


def test_a_contests_penalty_is_told_once_in_its_box(gm):
    """The loser's drink is in the contest's box, not also in the margin before the box."""
    table, _first, second = _played(gm, {"by": "second", "do": "drink"})
    _book_, html = _book(table)
    body = _text(html.split('<div class="book-body">', 1)[1])
    assert f"{shown(second)} takes 1 drink." not in body, body
    assert "3 ♠ = 6 · 1 drink" in body, body


def test_a_contests_result_reads_as_one_japanese_sentence(gm, gm_client):
    """The board's result line in Japanese: 「…が合計で上回って…に勝ちました。」, no space
    left from the English word order between how and whom."""
    table, first, second = _played(gm)
    gm_client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    page = _text(gm_client.get(table.get_absolute_url()).content.decode())
    who = {name: f"{character}（{name}）" for name, character in CAST}
    won = f"{who[first]}が合計で上回って{who[second]}に勝ちました。"
    assert won in page, page
