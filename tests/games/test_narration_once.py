"""No narration is stored twice by accident.

The accident: the narration box saved its draft a moment after the typing stopped, and a
move sent in that moment took the text with it; the late save then put the text back in the
draft, the next page showed it in the box, and the next move stored it again. The browser
cancels such a save (tests/browser/test_reload_and_history.py shows the box empty after
each move); the server drops one that arrives all the same: each save names the move its
page showed, and one that a narrated move has overtaken is refused. Typed twice on purpose,
the same words are stored twice.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import new_tables, reading, table_writes, writing

pytestmark = pytest.mark.django_db


@pytest.fixture
def amnesia(gm):
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=1)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], 0, gm)
    return table


def draft_of(table) -> str:
    table.refresh_from_db()
    return table.draft


def test_a_save_overtaken_by_a_narrated_move_is_dropped(gm, amnesia):
    assert table_writes.save_draft(amnesia, "She wakes.", seen_seq=1)
    writing.play_many(amnesia, [{"by": "Ana", "do": "end_scene", "text": "She wakes."}], 1, gm)
    assert draft_of(amnesia) == ""
    # The late save of the page that sent the move: refused, the draft stays empty.
    assert not table_writes.save_draft(amnesia, "She wakes.", seen_seq=1)
    assert draft_of(amnesia) == ""
    # Typing on the page drawn after the move is kept.
    assert table_writes.save_draft(amnesia, "Bruno hesitates.", seen_seq=2)
    assert draft_of(amnesia) == "Bruno hesitates."


def test_a_move_without_narration_does_not_overtake_the_draft(gm, amnesia):
    writing.play_many(amnesia, [{"by": "Bruno", "do": "suggest", "text": ""}], 1, gm)
    assert table_writes.save_draft(amnesia, "Still typing.", seen_seq=1)
    assert draft_of(amnesia) == "Still typing."


def test_the_late_save_never_reaches_the_next_page(gm, gm_client, amnesia):
    url = reverse("games:draft", args=[amnesia.pk])
    move = {"by": "Ana", "do": "end_scene", "text": "She wakes.", "expected_seq": 1}
    gm_client.post(reverse("games:move", args=[amnesia.pk]), move)
    late = gm_client.post(url, {"text": "She wakes.", "seq": "1"})
    assert late.status_code == 409
    writing.play_many(amnesia, [{"by": "Bruno", "do": "continue"}], 2, gm)
    page = gm_client.get(amnesia.get_absolute_url()).content.decode()
    assert 'id="narration"' in page and "She wakes.</textarea>" not in page
    # A save that names no move (an older page) is kept as before.
    assert gm_client.post(url, {"text": "Bruno narrates."}).status_code == 204
    assert draft_of(amnesia) == "Bruno narrates."


def test_no_two_moves_carry_the_same_narration_unless_typed_twice(gm, gm_client, amnesia):
    move_url = reverse("games:move", args=[amnesia.pk])
    draft_url = reverse("games:draft", args=[amnesia.pk])
    said = "The door is locked."

    def narrate(by: str, seq: int, text: str) -> None:
        gm_client.post(draft_url, {"text": text, "seq": str(seq)})
        gm_client.post(move_url, {"by": by, "do": "end_scene", "text": text, "expected_seq": seq})
        gm_client.post(draft_url, {"text": text, "seq": str(seq)})  # the late save

    narrate("Ana", 1, said)
    writing.play_many(amnesia, [{"by": "Bruno", "do": "continue"}], 2, gm)
    # The next narration starts from the box as the page drew it: empty.
    assert draft_of(amnesia) == ""
    # Bruno types the very same words on purpose: stored again, once.
    narrate("Bruno", 3, said)
    texts = [m.text for m in reading.live_moves(amnesia) if m.text]
    assert texts == [said, said]
