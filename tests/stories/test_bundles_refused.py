"""A damaged or hostile bundle is refused whole and changes nothing: truncated, oversized, a
zip bomb, files outside its folders, a symbolic link, bad JSON, a version the database cannot
store, a NUL character anywhere; the command says why; a refused bundle leaves no cover."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.models import Table
from tests.stories.bundle_sites import importer, refused, zip_of

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def bundle(bundle_once) -> bytes:
    """The laptop's bundle, on the site it leaves, made once for the module: every test here
    refuses it or a copy of it and checks that nothing changed (``refused``)."""
    return bundle_once


def test_a_truncated_bundle_is_refused(bundle):
    for cut in (len(bundle) // 2, len(bundle) - 30, 10):
        assert "not a whole zip" in refused(bundle[:cut]) or "damaged" in refused(bundle[:cut])


def test_an_oversized_bundle_is_refused(bundle, settings):
    settings.BUNDLE_MAX_BYTES = len(bundle) - 1
    assert "larger than" in refused(bundle)


def test_a_zip_bomb_is_refused(bundle):
    manifest = zipfile.ZipFile(io.BytesIO(bundle)).read("bundle.json")
    # A few kilobytes that expand to 40 megabytes of spaces after the JSON.
    bomb = zip_of({"bundle.json": manifest + b" " * (40 * 1024 * 1024)})
    assert len(bomb) < 200_000
    assert "too large once unpacked" in refused(bomb)


@pytest.mark.parametrize(
    "name",
    [
        "../evil.json",
        "/etc/evil",
        "files/../../evil.jpg",
        "files\\..\\evil.jpg",
        "C:/evil.jpg",
        "files/extra.sh",
    ],
)
def test_a_bundle_naming_files_outside_its_folders_is_refused(bundle, name):
    entries = {
        n: zipfile.ZipFile(io.BytesIO(bundle)).read(n)
        for n in zipfile.ZipFile(io.BytesIO(bundle)).namelist()
    }
    entries[name] = b"x"
    assert "outside its own folders" in refused(zip_of(entries))


def test_a_symbolic_link_is_refused(bundle):
    out = io.BytesIO(bundle)
    with zipfile.ZipFile(out, "a") as archive:
        info = zipfile.ZipInfo("files/" + "a" * 32 + ".jpg")
        info.external_attr = 0o120777 << 16
        archive.writestr(info, "/etc/passwd")
    assert "outside its own folders" in refused(out.getvalue())


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda m: b"{not json", "not valid JSON"),
        (lambda m: b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
        (
            lambda m: json.dumps(
                {**m, "tables": [{**m["tables"][0], "script": {"moves": 3}}]}
            ).encode(),
            "does not replay",
        ),
        (lambda m: json.dumps({**m, "version": 99}).encode(), "format or version"),
        (lambda m: json.dumps({**m, "tables": "x"}).encode(), "not as expected"),
        # One table good, the last one broken: nothing of the good one is kept either.
        (
            lambda m: json.dumps(
                {
                    **m,
                    "tables": m["tables"][:-1]
                    + [
                        {
                            **m["tables"][-1],
                            "script": {
                                **m["tables"][-1]["script"],
                                "moves": m["tables"][-1]["script"]["moves"]
                                + [{"by": "Nobody", "do": "fly"}],
                            },
                        }
                    ],
                }
            ).encode(),
            "does not replay",
        ),
        (
            lambda m: json.dumps(
                {
                    **m,
                    "tables": [
                        {
                            **m["tables"][0],
                            "report": {
                                "place": "",
                                "impressions": [
                                    {
                                        "player": "A",
                                        "seat": None,
                                        "fun": 9,
                                        "length": 1,
                                        "clarity": 1,
                                        "downtime": 1,
                                        "decisions": 1,
                                        "again": 1,
                                        "best_moment": "",
                                        "confusing_rule": "",
                                        "change": "",
                                    }
                                ],
                            },
                        }
                    ],
                }
            ).encode(),
            "not as expected",
        ),
        (
            lambda m: json.dumps(
                {**m, "people": [{**m["people"][0], "username": "bad name/"}] + m["people"][1:]}
            ).encode(),
            "not as expected",
        ),
    ],
)
def test_bad_json_is_refused_whole(bundle, change, words):
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    entries["bundle.json"] = change(json.loads(entries["bundle.json"]))
    assert words in refused(zip_of(entries))


@pytest.mark.parametrize("version", [0, -1, 2**40])
def test_a_ruleset_version_the_database_cannot_store_is_refused(bundle, version):
    """Not an error of the database (a 500 on the page) but a sentence, on both engines."""
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    (table,) = [t for t in manifest["tables"] if t["ruleset"]]
    table["ruleset"]["version"] = version
    entries["bundle.json"] = json.dumps(manifest).encode()
    assert "ruleset.version" in refused(zip_of(entries))


def test_the_command_refuses_with_a_message(bundle, tmp_path):
    path = tmp_path / "cut.zip"
    path.write_bytes(bundle[: len(bundle) // 3])
    importer()
    with pytest.raises(CommandError, match="refused, nothing was imported"):
        call_command("bundle", "import", str(path), "--owner", "mover")
    assert Table.objects.count() == 0


def test_a_refused_bundle_leaves_no_cover_behind(bundle, settings):
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    # The table with the story and its cover first, a table that does not replay last.
    manifest["tables"].sort(key=lambda t: t["story"] is None)
    assert manifest["tables"][0]["story"]["cover"]
    manifest["tables"][-1]["script"]["moves"].append({"by": "Nobody", "do": "fly"})
    entries["bundle.json"] = json.dumps(manifest).encode()
    covers = Path(settings.MEDIA_ROOT) / "stories" / "covers"
    before = sorted(covers.iterdir()) if covers.exists() else []
    assert "does not replay" in refused(zip_of(entries))
    assert (sorted(covers.iterdir()) if covers.exists() else []) == before


def test_a_nul_character_anywhere_is_refused_on_both_databases(bundle):
    """PostgreSQL cannot store a NUL in a text (SQLite could): refused before any write."""
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    entries = {n: archive.read(n) for n in archive.namelist()}
    manifest = json.loads(entries["bundle.json"])
    manifest["tables"][0]["seats"][0]["alias"] = "Ana\x00"
    entries["bundle.json"] = json.dumps(manifest).encode()
    assert "NUL character" in refused(zip_of(entries))


def test_the_ids_start_after_the_rows_the_module_left(bundle, db):
    """The module's site (the laptop's users, ruleset and the rest, kept for all its tests) is
    where each test's ids go on from, as anywhere else (tests/test_ids.py): the ``db`` fixture
    sets the ids back from these rows, not from where the sequences stood before the module."""
    from tests.test_ids import assert_ids_as_set_back_from_the_rows

    assert_ids_as_set_back_from_the_rows()
