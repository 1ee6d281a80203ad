"""A server that echoes the API key in a form the exact scrubbing does not know (split, hex, base64 at any
alignment, upper-case, HTML entities, ``\\u`` escapes, zero-width characters, reversed, rot13, or a piece of it)
has its whole text withheld, in an excerpt as in a stored error body; ordinary text is left as it is."""

from __future__ import annotations

import base64
import codecs

import pytest

from chemref._io.secrets import REDACTED, WITHHELD, excerpt, holds_secret, register_secret, scrub, scrub_json

KEY = "sk-forms-TEST-9f8e7d6c5b4a3210QRS"


@pytest.fixture(autouse=True)
def _registered() -> None:
    """Each test starts with this key registered (the suite's conftest empties the registry around every test)."""
    register_secret(KEY)

FORMS = {
    "split by a newline": KEY[:13] + "\n" + KEY[13:],
    "split by a space": KEY[:7] + " " + KEY[7:],
    "hex": KEY.encode().hex(),
    "HEX": KEY.encode().hex().upper(),
    "base64": base64.b64encode(KEY.encode()).decode(),
    "base64 after one byte": base64.b64encode(b"x" + KEY.encode()).decode(),
    "base64 after two bytes": base64.b64encode(b"xy" + KEY.encode()).decode(),
    "upper-case": KEY.upper(),
    "HTML entities": "".join(f"&#{ord(ch)};" for ch in KEY),
    "\\u escapes": "".join(f"\\u{ord(ch):04x}" for ch in KEY),
    "zero-width spaces": "\u200b".join(KEY),
    "reversed": KEY[::-1],
    "rot13": codecs.encode(KEY, "rot13"),
    "first 12": KEY[:12],
    "last 12": KEY[-12:],
    "percent-encoded": "".join(f"%{b:02X}" for b in KEY.encode()),
}


@pytest.mark.parametrize("form", FORMS.values(), ids=list(FORMS))
def test_a_key_in_any_form_withholds_the_text(form: str) -> None:
    body = f'{{"error": "invalid key: {form} (check it)"}}'
    for stored in (excerpt(body.encode()), scrub(f"HTTP 401: {form}"),
                   scrub_json({"error": {"message": f"bad key {form}", "code": "invalid_api_key"}})["error"]["message"]):
        assert stored == WITHHELD or (REDACTED in stored and not holds_secret(stored)), stored


def test_ordinary_text_is_kept() -> None:
    text = "The cited paper reports the synthesis of compound 3 in 85% yield (Table 2); sk-learn is not a key."
    assert not holds_secret(text)
    assert scrub(text) == text
    assert scrub_json({"content": text}) == {"content": text}


def test_a_short_key_is_found_whole_only() -> None:
    register_secret("Ab1x9Q")
    assert scrub("the key Ab1x9Q is wrong") == "the key [redacted] is wrong"
    assert scrub("the key ab1X9q is wrong") == WITHHELD
    assert scrub("the key Ab1x9 is wrong") == "the key Ab1x9 is wrong"
