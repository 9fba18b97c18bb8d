"""What a bundle carries beside the scripts: an Amnesia Stories table's custom deck (its
pictures made safe again on arrival, shared by two tables yet carried and made once) and the
contest's saved characters, linked to their seats with their points; a second import changes
nothing, and a bad part is refused whole."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.utils import translation
from PIL import Image

from games.amnesia_stories import decks
from games.amnesia_stories.models import CustomCard, CustomDeck
from games.contest import characters
from games.contest.carry import FIGURES
from games.contest.models import Character, SeatCharacter
from games.models import Table
from games.services import new_tables, reading, writing
from stories.bundles.export import export_bundle
from stories.bundles.format import BundleError
from stories.bundles.importing import import_bundle
from stories.bundles.summary import summary_lines
from tests.games.amnesia_stories.test_decks import good_files, make_zip
from tests.permission_world import deck_table as matrix_deck_table
from tests.stories.bundle_sites import empty_the_site, importer, zip_of

pytestmark = pytest.mark.django_db

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def deck_table(owner, deck, name: str) -> Table:
    """A table of ``deck`` (the permission matrix's), its first story told."""
    table = matrix_deck_table(owner, deck, name)
    state = reading.state_of(table)
    tell = {"by": state["bard"], "do": "tell", "story": state["journey"][:2], "text": "Far."}
    writing.play_many(table, [tell], table.last_seq)
    return table


@pytest.fixture
def laptop(gm):
    deck = decks.import_deck(gm, "Forest deck", make_zip(good_files()))
    deck_table(gm, deck, "Forest one")
    deck_table(gm, deck, "Forest two")
    contest = new_tables.create_table(gm, "contest", ["Ana", "Bo"], name="Fair", seed=5)
    zed = Character.objects.create(owner=gm, name="Zed", brains=6, muscle=3, extra_points=3)
    yum = Character.objects.create(
        owner=gm, name="Yum", brains=2, muscle=2, coolness=5, unspent_points=1, bfa=True
    )
    characters.bring(contest, "Ana", zed, None, gm)
    characters.bring(contest, "Bo", yum, None, gm)
    return deck


def pixels(field_file) -> tuple:
    with Image.open(field_file.open("rb")) as image:
        return image.size, image.convert("RGB").resize((1, 1)).getpixel((0, 0))


def seen() -> dict:
    """What the tables show of their deck and characters, by table name."""
    out = {}
    for table in Table.objects.order_by("name"):
        cards = decks.table_cards(table).order_by("position")
        links = SeatCharacter.objects.filter(seat__table=table).order_by("seat__position")
        out[table.name] = {
            "deck": [(c.card_id, c.text, pixels(c.image), pixels(c.thumb)) for c in cards],
            "deck_name": cards[0].deck.name if cards else None,
            "characters": [
                (
                    link.seat.position,
                    link.character.owner.username,
                    link.character.name,
                    [getattr(link.character, key) for key in FIGURES],
                    link.character.bfa,
                    link.credited,
                )
                for link in links
            ],
        }
    return out


def owned_by(tables: dict, owner: str) -> dict:
    """What ``seen`` says once the characters belong to ``owner`` (whoever imported them)."""
    return {
        name: {**t, "characters": [(c[0], owner, *c[2:]) for c in t["characters"]]}
        for name, t in tables.items()
    }


def test_the_deck_and_the_characters_come_along_once(laptop):
    before = seen()
    assert len(before["Forest one"]["deck"]) == laptop.cards.count() > 0
    assert len(before["Fair"]["characters"]) == 2
    data = export_bundle(Table.objects.all(), with_deck=True)
    archive = zipfile.ZipFile(io.BytesIO(data))
    pictures = [n for n in archive.namelist() if n.startswith("files/")]
    assert len(pictures) == laptop.cards.count()  # two tables, one deck: each picture once

    mover = empty_the_site()
    assert CustomDeck.objects.count() == 0 and Character.objects.count() == 0
    summary = import_bundle(data, mover)
    assert summary.decks == 1 and summary.characters == 2
    assert "Custom decks: 1; Contest characters: 2." in summary_lines(summary)
    with translation.override("pt-br"):
        assert "Baralhos próprios: 1; personagens da Disputa: 2." in summary_lines(summary)
    assert seen() == owned_by(before, "mover")
    deck = CustomDeck.objects.get()
    assert deck.owner == mover and deck.name == "Forest deck"
    for table in Table.objects.filter(game="amnesia_stories"):
        assert table.extra["custom_deck"] == deck.pk
        # Which deck's pictures to show is no rule: the kept state is the replay's still.
        assert reading.rebuild_state(table) == reading.state_of(table)
        card = deck.cards.first()
        assert decks.table_picture(table, card.pk, "large") is not None
    # Nothing is made twice.
    counts = [m.objects.count() for m in (CustomDeck, CustomCard, Character, SeatCharacter)]
    again = import_bundle(data, mover)
    assert again.decks == 0 and again.characters == 0 and len(again.already_there) == 3
    assert [m.objects.count() for m in (CustomDeck, CustomCard, Character, SeatCharacter)] == counts


def test_a_finished_table_is_credited_once(gm):
    """A contest that ended here credited its winners' characters; they arrive with those
    points, and the import's replay of the end credits nobody again."""
    script = json.loads((SCRIPTS / "contest/last_card_and_winner.json").read_text())["script"]
    table = new_tables.import_script(script, gm, "Finished fair")
    assert reading.state_of(table)["finished"]
    for seat in table.seats.all():
        character = Character.objects.create(owner=gm, name=f"Hero of {seat.name}")
        SeatCharacter.objects.create(seat=seat, character=character)
    assert characters.credit(table) > 0  # what the table's end did at home
    before = seen()["Finished fair"]["characters"]
    assert all(row[-1] for row in before)
    data = export_bundle(Table.objects.filter(pk=table.pk))
    import_bundle(data, empty_the_site())
    assert (
        seen()["Finished fair"]["characters"]
        == owned_by({"t": {"characters": before}}, "mover")["t"]["characters"]
    )


def test_a_table_whose_deck_is_not_carried_points_at_no_deck(laptop, gm):
    """The script names its deck by this site's id; elsewhere that id is another deck (here,
    one the same owner has), whose pictures the table must never show."""
    table = Table.objects.get(name="Forest one")
    data = export_bundle(Table.objects.filter(pk=table.pk), with_deck=True)
    archive = zipfile.ZipFile(io.BytesIO(data))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    manifest["tables"][0]["carried"] = None  # a bundle that carries no deck
    entries = {"bundle.json": json.dumps(manifest).encode()}
    Table.objects.all().delete()  # the deck stays: same owner, same id as in the script
    import_bundle(zip_of(entries), gm)
    arrived = Table.objects.get()
    assert "custom_deck" not in arrived.extra
    assert not decks.table_cards(arrived).exists()
    assert CustomDeck.objects.filter(pk=laptop.pk).exists()


def bundle_with(laptop, change) -> bytes:
    data = export_bundle(Table.objects.filter(name="Forest one"), with_deck=True)
    archive = zipfile.ZipFile(io.BytesIO(data))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    change(manifest, entries)
    entries["bundle.json"] = json.dumps(manifest).encode()
    return zip_of(entries)


def test_a_deck_picture_that_is_not_a_picture_refuses_the_bundle(laptop, settings):
    def spoil(manifest, entries):
        # The last card's: every picture is made safe before any is written, so none is.
        card = manifest["tables"][0]["carried"]["deck"]["cards"][-1]
        card["picture"] = "files/" + "0" * 32 + ".png"
        entries[card["picture"]] = b"<html>not a picture</html>"

    data = bundle_with(laptop, spoil)
    empty_the_site()
    media = Path(settings.MEDIA_ROOT)
    files_before = sorted(p for p in media.rglob("*") if p.is_file())
    with pytest.raises(BundleError, match="not a JPEG, PNG or WebP"):
        import_bundle(data, importer())
    assert Table.objects.count() == 0 and CustomDeck.objects.count() == 0
    assert sorted(p for p in media.rglob("*") if p.is_file()) == files_before


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda t: t["carried"]["deck"]["cards"][0].update(card_id=""), "cards[0].card_id"),
        (lambda t: t["carried"]["deck"]["cards"][1].update(picture="files/x.png"), "picture"),
        (lambda t: t["carried"]["deck"].update(cards=[]), "deck.cards"),
        (lambda t: t["carried"].update(deck="Forest"), "carried.deck"),
        (lambda t: t["script"].update(game="contest"), "carried"),
    ],
)
def test_a_part_of_the_wrong_shape_is_refused_before_anything_is_written(laptop, change, where):
    data = bundle_with(laptop, lambda manifest, entries: change(manifest["tables"][0]))
    empty_the_site()
    with pytest.raises(BundleError) as caught:
        import_bundle(data, importer())
    assert where in str(caught.value)
    assert Table.objects.count() == 0 and CustomDeck.objects.count() == 0


def test_a_character_of_the_wrong_shape_is_refused(laptop):
    data = export_bundle(Table.objects.filter(name="Fair"))
    archive = zipfile.ZipFile(io.BytesIO(data))
    manifest = json.loads(archive.read("bundle.json"))
    manifest["tables"][0]["carried"]["characters"][0]["muscle"] = -1
    empty_the_site()
    with pytest.raises(BundleError, match=r"characters\[0\]\.muscle"):
        import_bundle(zip_of({"bundle.json": json.dumps(manifest).encode()}), importer())
    assert Character.objects.count() == 0
