"""What the fuzz test sends hostile requests to (tests/games/test_fuzz.py, bench/fuzz.py): the
world of tables every endpoint is sent to (``make_world``), a maker of broken requests for each
endpoint (``ENDPOINTS``) and the statuses each may answer, and how a request is sent and what
it must leave unchanged (``send``, ``snapshot``)."""

from __future__ import annotations

import io
import json
import random
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.amnesia_stories.modes import PHONES
from games.contest.models import Character, SeatCharacter
from games.models import Move, Seat, Table
from games.playtests.models import DESIGNERS_GROUP, FREE_TEXTS, RATINGS, Impression, PlaytestReport
from games.services import new_tables, reading, writing
from stories.bundles.format import MANIFEST
from stories.models import Story
from tests.games.fuzz_values import (
    HUGE_NUMBER,
    MISFITS,
    PLAYERS,
    RAW_VALUES,
    break_form,
    break_move,
    to_json,
    unknown_key,
)
from tests.playtests.conftest import finished_table


@dataclass
class World:
    gm: Any
    client: Client
    anonymous: Client
    amnesia: Table
    stories: Table
    contest: Table
    zed: Character
    phones: Table  # Amnesia Stories answered on each player's phone, in the answer phase
    finished: Table  # a finished contest, whose players give their impressions
    bundle: bytes  # a bundle of the tables above, as another site would export it

    def url(self, name: str, *args) -> str:
        return reverse(name, args=args)


def make_world(gm, gm_client: Client) -> World:
    """The tables every endpoint is sent to (also ``bench/fuzz.py``'s); ``gm`` designs games."""
    gm.groups.add(Group.objects.get_or_create(name=DESIGNERS_GROUP)[0])
    amnesia = new_tables.create_table(gm, "amnesia", PLAYERS, seed=3)
    stories = new_tables.create_table(gm, "amnesia_stories", PLAYERS, seed=5)
    story = stories.state["journey"][:3]
    writing.play_many(stories, [{"by": "Ana", "do": "tell", "story": story}], 0, gm)
    contest = new_tables.create_table(gm, "contest", ["Ana", "Bruno"], deck_mode="physical")
    zed = Character.objects.create(owner=gm, name="Zed", brains=3, muscle=3, moves=3, coolness=3)
    phones = new_tables.create_table(
        gm, "amnesia_stories", PLAYERS, seed=5, extra={"answer_mode": PHONES}
    )
    writing.play_many(phones, [{"by": "Ana", "do": "tell", "story": story}], 0, gm)
    finished = finished_table(gm, "contest/last_card_and_winner")
    # The command, as another site's operator exports: whole, so that the tables in play are
    # not refused for their deck before the broken parts are read.
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "tables.zip"
        call_command(
            "bundle",
            "export",
            str(out),
            user=gm.username,
            with_secrets=True,
            stdout=io.StringIO(),
        )
        bundle = out.read_bytes()
    return World(gm, gm_client, Client(), amnesia, stories, contest, zed, phones, finished, bundle)


SCRIPT = {
    "game": "amnesia",
    "players": ["Ana", "Bruno"],
    "seed": 5,
    "moves": [
        {"by": "Ana", "do": "continue", "text": "Blood.", "at": "2026-01-02T20:00:00+00:00"},
        {"by": "Ana", "do": "end_scene"},
    ],
}
CHARACTER = {"name": "Kit", "brains": 3, "muscle": 3, "moves": 3, "coolness": 3}


def broken_script(rng: random.Random) -> bytes:
    script = json.loads(json.dumps(SCRIPT))
    for name in rng.sample(["move", "players", "seed", "game", "options", "deck"], 2):
        if name == "move":
            i = rng.randrange(2)
            mutation = rng.choice(("unknown", "by", "do", "text", "at", "null_field"))
            script["moves"][i] = break_move(rng, script["moves"][i], (mutation,))
        elif name == "players":
            script["players"] = rng.choice(
                [["Ana", "B\x00"], ["Ana", "B" * 61], ["Ana", "Ana"], "Ana", [], [1, 2]]
            )
        elif name == "seed":
            script["seed"] = rng.choice([2**64, -(2**64), "7", 1.5, True])
        elif name == "game":
            script["game"] = rng.choice(["chess", None, ["amnesia"], "\x00"])
        elif name == "options":
            script["options"] = rng.choice([{"start_tokens": 10**9}, {"nope": 1}, []])
        else:
            script["deck"] = rng.choice([["ZZ"], "7H", [None], [["7H"]]])
    return to_json(rng, script)


# Each endpoint: (name, request maker). A request maker returns (url, kwargs for post).
Maker = Callable[[random.Random, World], tuple[Client, str, dict]]


def move_json(rng, w):
    move = break_move(
        rng, {"by": "Ana", "do": "continue"}, ("unknown", "by", "do", "text", "at", "null_field")
    )
    body: Any = {"move": move, "expected_seq": 0}
    if rng.random() < 0.2:
        body = rng.choice([[move], "continue", 7, {**move, "expected_seq": "0"}])
    data = to_json(rng, body)
    return (
        w.client,
        w.url("games:move", w.amnesia.pk),
        {"data": data, "content_type": "application/json"},
    )


def move_form(rng, w):
    data = {"by": "Ana", "do": "continue", "expected_seq": "0"}
    data = break_form(rng, data, ("unknown", "by", "do", "move", "client_id", "text"))
    return w.client, w.url("games:move", w.amnesia.pk), {"data": data}


def move_form_bad_encoding(rng, w):
    body = rng.choice(
        [
            b"by=%FF%FE&do=continue&expected_seq=0",
            b"by=Ana&do=continue&expected_seq=0&text=%00",
            b"by=Ana&do=%C0%AFcontinue",
            b"by=Ana&do=continue&move=%5B" * 3,
        ]
    )
    kwargs = {"data": body, "content_type": "application/x-www-form-urlencoded"}
    if rng.random() < 0.3:
        kwargs = {"data": b"--x\r\nbroken", "content_type": "multipart/form-data; boundary=y"}
    return w.client, w.url("games:move", w.amnesia.pk), kwargs


def import_text(rng, w):
    data = {"script_text": broken_script(rng).decode("utf-8", "replace")}
    return w.client, w.url("games:table_import"), {"data": data}


def import_file(rng, w):
    upload = SimpleUploadedFile("script.json", broken_script(rng), "application/json")
    return w.client, w.url("games:table_import"), {"data": {"script": upload}}


def seat_move(rng, w):
    token = w.contest.seats.get(name="Ana").token
    data = {"do": "character", "expected_seq": "0", **{k: str(v) for k, v in CHARACTER.items()}}
    fields = ("unknown", "do", "name", "brains", "extra_points", "move", "client_id")
    return w.anonymous, w.url("contest:seat_move", token), {"data": break_form(rng, data, fields)}


def seat_move_json(rng, w):
    token = w.contest.seats.get(name="Ana").token
    move = break_move(
        rng,
        {"do": "character", **CHARACTER, "bfa": False},
        ("unknown", "do", "name", "brains", "bfa", "extra_points", "null_field"),
    )
    data = to_json(rng, {"move": move, "expected_seq": 0})
    return (
        w.anonymous,
        w.url("contest:seat_move", token),
        {"data": data, "content_type": "application/json"},
    )


def answer(rng, w):
    data = {"pick-1": "1", "pick-2": "2", "pick-3": "3", "expected_seq": "1"}
    data |= {"expected_turn": "answer/1"}
    data = break_form(rng, data, ("pick-1", "pick-2", "pick-3", "expected_turn", "client_id"))
    return w.client, w.url("amnesia_stories:answer", w.stories.pk, 0), {"data": data}


def revealed(rng, w):
    data = {f"picks-{p}-{s}": str(s) for p in range(3) for s in (1, 2, 3)}
    data |= {"expected_seq": "1", "expected_turn": "answer/1"}
    fields = ("picks-0-1", "picks-1-2", "picks-2-3", "expected_turn", "client_id")
    return (
        w.client,
        w.url("amnesia_stories:revealed", w.stories.pk),
        {"data": break_form(rng, data, fields)},
    )


def build(rng, w):
    pending = break_move(
        rng, {"do": "play", "by": "Ana"}, ("unknown", "by", "card", "draws", "ham", "null_field")
    )
    data = {"move": to_json(rng, pending).decode("utf-8", "replace"), "expected_seq": "0"}
    data = break_form(rng, data, ("pick", "text", "ham", "word", "reward", "client_id"))
    return w.client, w.url("contest:build", w.contest.pk), {"data": data}


def character(rng, w):
    data = {
        "by": "Ana",
        "expected_seq": "0",
        "keep": "true",
        **{k: str(v) for k, v in CHARACTER.items()},
    }
    fields = ("unknown", "by", "name", "muscle", "extra_points", "move", "client_id", "text")
    return (
        w.client,
        w.url("contest:table_character", w.contest.pk),
        {"data": break_form(rng, data, fields)},
    )


def bring(rng, w):
    data = {"by": "Ana", "character": str(w.zed.pk), "expected_seq": "0"}
    data = break_form(rng, data, ("by", "character", "client_id", "expected_seq"))
    if data["character"] == str(w.zed.pk) and rng.random() < 0.5:
        data["character"] = rng.choice(["abc", "1" * 30, "-3", "１", "\x00", ""])
    return w.client, w.url("contest:bring", w.contest.pk), {"data": data}


def seat_answer(rng, w):
    """A player's secret answer from their phone (Amnesia Stories)."""
    token = w.phones.seats.get(name="Bruno").token
    data = {"pick-1": "1", "pick-2": "2", "pick-3": "3", "expected_seq": "1"}
    data |= {"expected_turn": "answer/1"}
    fields = ("pick-1", "pick-2", "pick-3", "expected_turn", "client_id")
    data = break_form(rng, data, fields)
    if rng.random() < 0.3:  # what str.isdigit takes and int does not, or reads otherwise
        data[f"pick-{rng.randint(1, 3)}"] = rng.choice(["²", "٣", "１", "1_0", "+1", " 9" * 99])
    return w.anonymous, w.url("amnesia_stories:seat_move", token), {"data": data}


def names(rng, w):
    """The owner's label for a player left out (only a broken position or label here)."""
    data = {"position": "0", "label": "Player 1"}
    for name in rng.sample(["position", "label"], rng.randint(1, 2)):
        if name == "position":
            data["position"] = rng.choice(
                ["abc", "-1", "99", HUGE_NUMBER, "1.5", "\x00", "[]", "²", "", "9" * 16]
            )
        else:
            data["label"] = rng.choice(["\x00", "Ab\x00cd", "x" * 25_000, "", "   ", "Bruno"])
    if rng.random() < 0.2:
        data["action"] = rng.choice(["rename", "\x00", "x" * 500])
    return w.client, w.url("games:names", w.amnesia.pk), {"data": data}


def impression(rng, w):
    """A player's impressions through their seat's link: a rating out of 1-5 or a text no
    answer may hold. (An empty rating is an answer left out, which the form takes.)"""
    token = w.finished.seats.get(name="Ana").token
    data = {key: "4" for key, _label in RATINGS} | {key: "" for key, _label in FREE_TEXTS}
    keys = [key for key, _label in RATINGS + FREE_TEXTS]
    for key in rng.sample(keys, rng.randint(1, 3)):
        if key in data and data[key] == "4":
            data[key] = rng.choice(["0", "6", "-1", HUGE_NUMBER, "²", "4.5", "five", "\x00", "[]"])
        else:
            data[key] = rng.choice(["\x00", "a\x00b", "x" * 2001, "y" * 25_000])
    if rng.random() < 0.2:
        data[unknown_key(rng).replace("\x00", "")] = "1"
    return w.anonymous, w.url("playtests:seat_impression", token), {"data": data}


def _zip(entries: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return out.getvalue()


def _entries(bundle: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        return [(info.filename, archive.read(info)) for info in archive.infolist()]


def _poke(rng: random.Random, value: Any) -> Any:
    """``value`` (a bundle.json) with one place somewhere inside it replaced by a misfit."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        return {**value, key: _poke(rng, value[key])}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        return [*value[:i], _poke(rng, value[i]), *value[i + 1 :]]
    return rng.choice([*MISFITS, None, "", "x", 7, {"k": "v"}, ["\x00"]])


def broken_bundle(rng: random.Random, good: bytes) -> bytes:
    """The bundle, broken as bytes, as a zip, or in its bundle.json."""
    how = rng.choice(["cut", "flip", "garbage", "manifest", "raw", "entry", "twice", "nul"])
    if how == "cut":
        return good[: rng.randrange(len(good))]
    if how == "flip":
        data = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if how == "garbage":
        return rng.choice([b"", b"PK\x03\x04" + b"\x00" * 40, rng.randbytes(300), b"{}"])
    entries = _entries(good)
    manifest = json.loads(entries[0][1])
    if how == "manifest":
        manifest = _poke(rng, manifest)
        entries[0] = (MANIFEST, json.dumps(manifest, allow_nan=True).encode())
    elif how == "raw":  # text no JSON reader should take whole
        raw = rng.choice(RAW_VALUES)
        entries[0] = (MANIFEST, entries[0][1].replace(b"null", raw.encode(), 1))
        if b"null" not in _entries(good)[0][1]:
            entries[0] = (MANIFEST, f'{{"format": {raw}}}'.encode())
    elif how == "entry":
        name = rng.choice(
            ["../evil.png", "/abs.png", "files/../../x.png", "files/x.exe", "C:x", "a\\b"]
        )
        entries.append((name, b"x"))
    elif how == "twice":
        entries.append(entries[0])
    else:
        entries[0] = (MANIFEST, entries[0][1].replace(b'"', b'"\\u0000', 1))
    return _zip(entries)


def bundle_upload(rng, w):
    """A designer's bundle from another site (only requests: the import is the bundle's)."""
    data: dict[str, Any] = {
        "bundle": SimpleUploadedFile("tables.zip", broken_bundle(rng, w.bundle), "application/zip")
    }
    if rng.random() < 0.15:
        data = rng.choice([{"bundle": "not a file"}, {"other": data["bundle"]}, {}])
    return w.client, w.url("stories:bundle_import"), {"data": data}


ENDPOINTS: dict[str, Maker] = {
    "move (JSON)": move_json,
    "move (form)": move_form,
    "move (raw form bytes)": move_form_bad_encoding,
    "import (pasted)": import_text,
    "import (file)": import_file,
    "seat move (form)": seat_move,
    "seat move (JSON)": seat_move_json,
    "stories answer": answer,
    "stories revealed": revealed,
    "contest build": build,
    "contest character": character,
    "contest bring": bring,
    "stories seat answer": seat_answer,
    "names": names,
    "impression": impression,
    "bundle upload": bundle_upload,
}
# What else a status may be, per endpoint (every one may answer 400, 404 and 409).
ALSO_ALLOWED = {
    "contest build": {302},
    "bundle upload": {200},  # a bundle whose tables are here already: left alone
}


def snapshot(w: World) -> dict:
    """Every table's log and state, and what a request could have written beside it."""
    tables = {}
    for table in Table.objects.order_by("pk"):
        rows = list(table.moves.order_by("seq").values_list("seq", "payload", "text"))
        tables[table.pk] = (table.last_seq, rows, reading.rebuild_state(table))
    return {
        "tables": tables,
        "moves": Move.objects.count(),
        "characters": Character.objects.count(),
        "links": SeatCharacter.objects.count(),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "name", "alias", "user")),
        "impressions": Impression.objects.count(),
        "reports": PlaytestReport.objects.count(),
        "stories": Story.objects.count(),
        "people": get_user_model().objects.count(),
    }


def send(client: Client, url: str, kwargs: dict) -> tuple[int, str]:
    """The status of one hostile request, and its body as text (after the exception that
    made it a 500, if one did)."""
    client.raise_request_exception = False
    response = client.post(url, **kwargs)
    body = response.content[:200_000].decode("utf-8", "replace")
    if getattr(response, "exc_info", None):
        body = f"{response.exc_info[0].__name__}: {str(response.exc_info[1])[:200]}\n{body}"
    return response.status_code, body
