"""The deep check of secrets (``games.leaks``): every page of every demo table, for every
viewer, shows no value of a part that viewer's view leaves out."""

from __future__ import annotations

import dataclasses
import io

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from games import exports, leaks, presenters, registry
from games.facing import Facing
from games.models import Table
from games.services import new_tables, writing
from games.snapshot import Snapshot
from stories.books import Passage, chronicle
from tests.games import every_game
from tests.games.three_cards.kit import KIT, page_context

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", every_game.slugs())
def test_every_page_of_every_demo_keeps_its_secrets(slug, every_kit):
    assert leaks.check_pages(every_kit) == []


def peeking(facing):
    """A page context that reaches past its view for the state (the row read again: the one
    it is given has no state), and shows every hand."""
    state = Snapshot(Table.objects.get(pk=facing.table.pk)).state
    hands = "; ".join(f"{n}: {','.join(h)}" for n, h in state["hands"].items())
    return {**page_context(facing), "scores": {hands: 0}}


def peeking_seat(facing, seat):
    """A seat page's context that shows every hand (the others' too)."""
    others = Snapshot(Table.objects.get(pk=facing.table.pk)).state["hands"]
    return {"hand": [c for hand in others.values() for c in hand], "score": 0}


def test_a_page_reaching_for_a_hand_in_the_state_is_refused_naming_game_page_and_path(
    game_for_tests, monkeypatch
):
    """The table page and, in the same kit, a seat page showing another hand: each is named
    on its own (one check of every page for both; they were two tests and two checks)."""
    leaky = game_for_tests(
        dataclasses.replace(KIT, page_context=peeking, seat_context=peeking_seat)
    )
    monkeypatch.setattr(registry, "kits", lambda: [leaky])  # the command checks it alone
    # What check_pages finds, heard as the deploy check runs it (every page once, not twice).
    found: list[list] = []
    real = leaks.check_pages
    monkeypatch.setattr(leaks, "check_pages", lambda kit: found.append(real(kit)) or found[-1])
    with pytest.raises(SystemCheckError) as refused:
        call_command("check", "--deploy", "--tag", "games")
    # each page's leak in its own message (the other page's leak names the same path)
    refusal = str(refused.value).splitlines()
    assert any("'games:table'" in line and "'hands.Bruno'" in line for line in refusal)
    assert len(found) == 1
    messages = found[0]
    assert messages and {m.id for m in messages} == {leaks.ID}
    said = " ".join(m.msg for m in messages if "'games:table'" in m.msg)
    assert "'three_cards'" in said and "'hands.Bruno'" in said
    # the seat page showing another hand is named for itself (a seat of Ana's shows Bruno's)
    seat_said = " ".join(m.msg for m in messages if "'three_cards:seat'" in m.msg)
    assert "'three_cards:seat' (seat 'Ana')" in seat_said and "'hands.Bruno'" in seat_said
    # Plain ``check`` (before every command) does not render pages: it stays quick.
    call_command("check", "--tag", "games", stdout=io.StringIO())


def test_the_same_game_reading_its_view_passes_the_deploy_check(game_for_tests, monkeypatch):
    monkeypatch.setattr(registry, "kits", lambda: [game_for_tests(KIT)])
    out = io.StringIO()
    call_command("check", "--deploy", "--tag", "games", stdout=out)
    assert "no issues" in out.getvalue()


def test_a_page_gets_no_state_and_only_the_moves_its_viewer_may_enter(game_for_tests, gm):
    game_for_tests(KIT)
    table = new_tables.create_table(gm, "three_cards", ["Ana", "Bruno"], name="Cards", seed=9)
    snap = Snapshot(table)
    hands = snap.state["hands"]
    with pytest.raises(AttributeError, match="view"):
        Facing.owner(snap).state  # noqa: B018 - the reading is what is refused
    # A template offering every card in play: each viewer keeps only the cards they may see.
    offered = [{"do": "play", "choices": {"card": [*hands["Ana"], *hands["Bruno"], "k99"]}}]
    snap.__dict__["legal_moves"] = {"Ana": offered, "Bruno": offered}
    owner, ana, spectator = Facing.owner(snap), Facing.seat(snap, "Ana"), Facing.spectator(snap)
    assert owner.legal_moves == {n: [{"do": "play", "choices": {"card": ["k99"]}}] for n in hands}
    assert ana.legal_moves == {"Ana": [{"do": "play", "choices": {"card": [*hands["Ana"], "k99"]}}]}
    assert spectator.legal_moves == {} and ana.view["hands"] == {"Ana": hands["Ana"]}


def test_a_pages_table_row_gives_no_seed_deck_or_state(game_for_tests, gm):
    game_for_tests(KIT)
    table = new_tables.create_table(gm, "three_cards", ["Ana", "Bruno"], name="Cards", seed=9)
    snap = Snapshot(table)
    row = Facing.seat(snap, "Ana").table
    assert row.pk == table.pk and row.name == "Cards" and row.game == "three_cards"
    assert (row.seed, row.deck, row.state) == (None, None, None)
    assert snap.table.seed == 9 and snap.state["hands"]  # the snapshot's own row is whole


def peeking_book(entries, texts):
    """A book that reaches past the log for the table's state, and prints every hand."""
    chapters = chronicle(entries, texts)
    hands = Snapshot(texts.table).state["hands"]
    chapters[0].passages.append(Passage(seq=0, by="", text=repr(hands)))
    return chapters


def test_a_book_reaching_for_a_hand_in_the_state_is_refused_naming_game_file_and_path(
    game_for_tests, monkeypatch
):
    leaky = game_for_tests(dataclasses.replace(KIT, book=peeking_book))
    monkeypatch.setattr(registry, "kits", lambda: [leaky])
    with pytest.raises(SystemCheckError) as refused:
        call_command("check", "--deploy", "--tag", "games")
    said = str(refused.value)
    assert "'three_cards'" in said and "the book of the demo" in said and "'hands.Bruno'" in said
    # The pages and the export keep them all the same: only the book is named.
    assert "'games:table'" not in said and "the export of" not in said


def test_an_export_holding_a_secret_move_or_a_virtual_decks_seed_is_refused(
    game_for_tests, monkeypatch
):
    """An export that writes the whole log (the moves the referee keeps secret for now, the
    seed of a virtual deck in play) is refused, naming the file and the path."""
    game_for_tests(KIT)
    # Its first move a secret until the game is over (as an answer not judged yet).
    monkeypatch.setattr(
        KIT.referee, "pending_secrets", lambda state, moves: [] if state["finished"] else [0]
    )
    whole = exports.export_script
    monkeypatch.setattr(
        exports,
        "export_script",
        lambda table, **kw: whole(table, with_pending=True, with_deck=True),
    )
    said = " ".join(m.msg for m in leaks.check_pages(registry.kit("three_cards")))
    assert "the export of the demo 'Three Cards: in play'" in said
    assert "'moves.0.text'" in said and "at 'seed'" in said
    assert "the bundle's bundle.json of the demo 'Three Cards: in play'" in said
    assert "the export of the demo 'Three Cards: a finished game'" not in said


def test_the_log_of_a_game_keeping_moves_secret_shows_their_sentences_never_their_fields(
    game_for_tests, gm
):
    class FaceDown(type(KIT.referee)):  # type: ignore[misc]
        def pending_secrets(self, state, moves):
            return [len(moves) - 1] if moves else []

    plain = game_for_tests(KIT)
    table = new_tables.create_table(gm, "three_cards", ["Ana", "Bruno"], name="Cards", seed=9)
    card = Snapshot(table).state["hands"]["Ana"][0]
    writing.play_many(table, [{"by": "Ana", "do": "play", "card": card}], table.last_seq, gm)
    assert presenters.recent_log(Snapshot(table))[0]["fields"] == {"card": card}
    game_for_tests(dataclasses.replace(plain, referee=FaceDown()))
    row = presenters.recent_log(Snapshot(table))[0]
    assert row["fields"] == {} and (row["by"], row["do"]) == ("Ana", "play")
