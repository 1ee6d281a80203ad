"""An all-digit API key echoed by a server as a JSON number (an error code, a token count, the digits of a
fraction, or split across numbers) is scrubbed from a stored body as a string holding it is; ordinary numbers
stay numbers."""

from __future__ import annotations

import json

import pytest

from chemref._io.secrets import REDACTED, WITHHELD, register_secret, scrub_json

#: an all-digit key (allowed: any printable ASCII of at least 4 characters)
KEY = "83920174652039184756"


@pytest.fixture(autouse=True)
def _registered() -> None:
    register_secret(KEY)


def _digits(value: object) -> str:
    return "".join(ch for ch in json.dumps(value) if ch.isdigit())


@pytest.mark.parametrize("body", [
    {"error": {"code": int(KEY)}},
    {"usage": {"total_tokens": int(KEY)}, "choices": [{"message": {"content": "{}"}}]},
    {"error": {"code": float("0." + KEY)}},
    [int(KEY[:10]), int(KEY[10:])],
    {"a": int(KEY[:9])},
])
def test_a_number_holding_the_key_is_scrubbed(body: object) -> None:
    stored = scrub_json(body)
    assert KEY[:8] not in _digits(stored) and KEY[-8:] not in _digits(stored), stored
    text = json.dumps(stored)
    assert REDACTED in text or WITHHELD in text, stored


def test_ordinary_numbers_stay_numbers() -> None:
    body = {"usage": {"prompt_tokens": 12, "total_tokens": 40}, "created": 1733140000, "score": 0.25,
            "ok": True, "choices": [{"index": 0}]}
    assert scrub_json(body) == body
    assert isinstance(scrub_json(body)["usage"]["total_tokens"], int)
