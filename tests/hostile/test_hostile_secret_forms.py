"""A server that echoes the API key in a form the exact scrubbing does not know (split by any characters that
are not letters or digits, hex with or without separators, base64 or base32 at any alignment, upper-case, HTML
entities, ``\\u`` escapes, zero-width characters, reversed, rot13, or a piece of it) has its whole text
withheld, in an excerpt as in a stored error body; ordinary text (prose, DOIs, URLs, formulae, times) is left
as it is, and the search stays linear."""

from __future__ import annotations

import base64
import codecs
import time

import pytest

from chemref._io.secrets import REDACTED, WITHHELD, excerpt, holds_secret, register_secret, scrub, scrub_json

#: a fake key: random letters and digits, no word (its pieces must never match ordinary text)
KEY = "sk-Vb7xQ2mLk9Rt4Wn6Zp3Hd8Jc5Fy1Gu"


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
    "split by dots": ".".join(KEY),
    "in pieces of 5 joined by slashes": " / ".join(KEY[i:i + 5] for i in range(0, len(KEY), 5)),
    "in pieces of 4 joined by dashes": "-".join(KEY[i:i + 4] for i in range(0, len(KEY), 4)),
    "hex with colons": ":".join(f"{b:02x}" for b in KEY.encode()),
    "HEX with spaces": " ".join(f"{b:02X}" for b in KEY.encode()),
    "base32": base64.b32encode(KEY.encode()).decode(),
    "base32 after two bytes, lower-case": base64.b32encode(b"xy" + KEY.encode()).decode().lower(),
    "base64 split by dots": ".".join(base64.b64encode(KEY.encode()).decode()),
    "reversed, split by dots": ".".join(KEY[::-1]),
}


@pytest.mark.parametrize("form", FORMS.values(), ids=list(FORMS))
def test_a_key_in_any_form_withholds_the_text(form: str) -> None:
    body = f'{{"error": "invalid key: {form} (check it)"}}'
    for stored in (excerpt(body.encode()), scrub(f"HTTP 401: {form}"),
                   scrub_json({"error": {"message": f"bad key {form}", "code": "invalid_api_key"}})["error"]["message"]):
        assert stored == WITHHELD or (REDACTED in stored and not holds_secret(stored)), stored


ORDINARY = [
    "The cited paper reports the synthesis of compound 3 in 85% yield (Table 2); sk-learn is not a key.",
    "See doi:10.1021/acs.jmedchem.5b01234 and https://doi.org/10.1039/C9SC01234A (accessed 12:30:45 UTC).",
    "Fe2(SO4)3·9H2O, C6H12O6, [Cu(NH3)4]2+ and Pd/C (10 wt%) at 25.0 °C; pH 7.4; m/z 301.1412 [M+H]+.",
    "Run 2024-03-05T08:15:30Z: 1.2.840.113549.1.1.11 / 192.168.10.254:8080 / a1:b2:c3:d4:e5:f6 / v3.10.12.",
    "base64 of nothing in particular: QWxhZGRpbjpvcGVuIHNlc2FtZQ==; hex 0xDEADBEEF; ISBN 978-3-16-148410-0.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_kept(text: str) -> None:
    assert not holds_secret(text)
    assert scrub(text) == text
    assert scrub_json({"content": text}) == {"content": text}


@pytest.mark.slow
def test_the_search_is_linear_on_a_large_ordinary_body() -> None:
    text = " ".join(ORDINARY) * (1_000_000 // len(" ".join(ORDINARY)))
    started = time.perf_counter()
    assert not holds_secret(text)
    small = time.perf_counter() - started
    started = time.perf_counter()
    assert not holds_secret(text * 4)
    assert time.perf_counter() - started < 8 * small + 0.5  # linear (a generous bound: the machine is shared)


def test_a_short_key_is_found_whole_only() -> None:
    register_secret("Ab1x9Q")
    assert scrub("the key Ab1x9Q is wrong") == "the key [redacted] is wrong"
    assert scrub("the key ab1X9q is wrong") == WITHHELD
    assert scrub("the key Ab1x9 is wrong") == "the key Ab1x9 is wrong"


def test_eight_characters_of_the_key_with_its_punctuation_are_withheld() -> None:
    piece = KEY[:9]  # "sk-Vb7xQ2": fewer than 8 letters and digits, but 8 characters of the key
    assert scrub(f"bearer token {piece}%") == WITHHELD
