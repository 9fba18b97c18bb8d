"""ExactJSONField's text: orjson where it is exact, the standard library where it is not."""

from __future__ import annotations

import datetime
import json

import pytest

from games.fields import ExactJSONField, dumps, loads


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [1.5, -0.0, 1e16, None, True], "ç": 'ação 日本\n\u2028"\\'},
        {"seats": ["Zé", "Ana"], "rng": 163507441998954890, "top": 2**63 - 1, "low": -(2**63)},
        {"past 64 bits": 2**70, "below": -(2**64) - 1},
        [],
        "text",
    ],
)
def test_a_value_comes_back_as_it_went_and_as_the_standard_library_wrote_it(value):
    text = dumps(value)
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert loads(text) == value
    assert loads(text.encode()) == value
    assert type(loads(text)) is type(value)


def test_a_long_integer_written_by_the_standard_library_is_read_exactly():
    # orjson reads an integer past 64 bits as a float: such a text is read by json
    assert loads('{"n": 1180591620717411303424}') == {"n": 2**70}
    assert loads('{"n": 1180591620717411303424}')["n"] == 2**70
    assert loads('["9999999999999999999 in a string", 12345678901234567890]')[1] == (
        12345678901234567890
    )


def test_what_the_standard_library_refuses_is_refused():
    with pytest.raises(TypeError):
        dumps({"when": datetime.date(2026, 1, 1)})
    with pytest.raises(ValueError):
        loads("{not json")


def test_the_field_reads_and_writes_through_them():
    field = ExactJSONField()
    value = {"phase": "scene", "n": 2**70}
    assert field.to_python(field.get_prep_value(value)) == value
    assert field.from_db_value(None, None, None) is None
