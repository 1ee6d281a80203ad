"""A number too long to read in a JSON Lines input is one error naming the file and the line, not a traceback."""

from __future__ import annotations

import pytest

from chemref.errors import InputError
from chemref.jsonl import read_jsonl


def test_an_integer_of_thousands_of_digits_is_an_input_error(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_text('{"id": "a", "n": 1}\n{"id": "b", "n": ' + "9" * 5000 + "}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        list(read_jsonl(path))
    assert caught.value.line == 2 and "number cannot be read" in str(caught.value)
