"""Secrets kept out of every output: the API key, Bearer tokens, ``Authorization`` values and URL credentials.

Every text that could hold one (a server's body, an exception's message, an endpoint or scheduler address) goes
through :func:`scrub` before it is written to a file, a log line or the terminal; a server's body is stored only
as :func:`excerpt` makes it (scrubbed, one line, bounded). The secrets this process was given are registered
(:func:`register_secret`, done by :func:`api_key_from_env` and :func:`check_api_key`) so that they are removed
whatever surrounds them, in the forms they are commonly echoed in (as is, JSON- or ``repr``-escaped,
percent-encoded, base64 in a Basic header); Bearer tokens, ``Authorization`` header values and the
``user:password@`` of any URL are removed by their shape, registered or not.
"""

from __future__ import annotations

import base64
import codecs
import html
import json
import math
import os
import re
import threading
import unicodedata
from typing import Any, Callable, NamedTuple
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from chemref.errors import InputError

__all__ = ["REDACTED", "WITHHELD", "holds_secret", "EXCERPT_CHARS", "MAX_KEY_CHARS", "register_secret", "scrub",
           "scrub_json", "excerpt", "check_api_key", "api_key_from_env", "safe_url", "shown_address", "finite_json"]

#: what stands in for a removed secret
REDACTED = "[redacted]"
#: the longest excerpt of a server's body that is stored (characters)
EXCERPT_CHARS = 2000
#: a registered secret shorter than this is not searched for in texts (it would blank out ordinary words);
#: shapes (Bearer, Authorization, URL credentials) are removed whatever their length
_MIN_SECRET = 4
#: the longest API key accepted (characters): OpenAI's are ~160, a JWT a few hundred
MAX_KEY_CHARS = 4096

#: what stands in for a whole text that holds a registered secret in a form :func:`scrub` cannot cut out
WITHHELD = "[text withheld: it holds a secret in some form]"
#: the length of the pieces of a secret looked for by :func:`holds_secret` (a shorter secret: whole only)
_WINDOW = 8

_lock = threading.Lock()
_secrets: set[str] = set()
_pattern: re.Pattern[str] | None = None


class _Needle(NamedTuple):
    """A short run of a secret's form, and the pieces of that form a text is searched for where it is found."""
    block: str
    width: int
    pieces: frozenset[str]
    folded: bool


# what :func:`holds_secret` looks for
_all_needles: tuple[_Needle, ...] = ()

# a credential as a header value carries it: "Bearer" then token68 text; "Basic" then base64 (with a digit,
# + / or =, so that "basic authentication" stays as it is)
_BEARER = re.compile(r"(?i)\b(bearer)(?:\s+|%20|\+)[A-Za-z0-9._~+/=:%-]+"
                     r"|\b(basic)\s+(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{4,}=*")
# an Authorization (or X-Api-Key...) header, as "Authorization: value" or "'authorization': 'value'" in a dump
_HEADER = re.compile(r"(?i)\b((?:proxy-)?authorization|x-api-key|api-key|openai[-_]api[-_]key)"
                     r"(['\"]?\s*[:=]\s*['\"]?|['\"]?,\s*b?['\"])([^'\"\r\n,}]*)")
# the credentials of a URL: scheme://user[:password]@
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@'\"<>]*@")
# an OpenAI-style secret key, registered or not
_KEY_SHAPE = re.compile(r"\bsk-[A-Za-z0-9_-]{20,}")


def _forms(secret: str) -> set[str]:
    """The forms ``secret`` is commonly echoed in: as is, stripped, JSON- and ``repr``-escaped, percent-encoded,
    UTF-8 bytes' ``repr``, base64 (alone, and as a Basic credential with an empty user)."""
    forms = {secret, secret.strip(), json.dumps(secret, ensure_ascii=True)[1:-1],
             json.dumps(secret, ensure_ascii=False)[1:-1], repr(secret)[1:-1], quote(secret, safe=""),
             quote(secret), repr(secret.encode("utf-8", "backslashreplace"))[2:-1]}
    raw = secret.encode("utf-8", "backslashreplace")
    for value in (raw, b":" + raw, b"Bearer " + raw):
        forms.add(base64.b64encode(value).decode("ascii"))
    return {form for form in forms if len(form) >= _MIN_SECRET}


def _sources(secret: str) -> list[tuple[str, int, bool]]:
    """The texts :func:`holds_secret` looks for pieces of, each with the piece's length and whether it is looked
    for case-folded: the secret, the secret reversed and its rot13 (8 characters), its hex (16 digits: 8 bytes);
    as is, its base64 at each of the three alignments (the characters that depend on the secret's bytes alone,
    8 at a time). A secret shorter than 8 characters: whole only."""
    if len(secret) < _WINDOW:
        return [(form.casefold(), len(form), True) for form in (secret, secret[::-1], codecs.encode(secret, "rot13"))]
    raw = secret.encode("utf-8", "backslashreplace")
    sources = [(form.casefold(), _WINDOW, True) for form in (secret, secret[::-1], codecs.encode(secret, "rot13"))]
    sources.append((raw.hex(), 2 * _WINDOW, True))
    for shift in (0, 1, 2):
        encoded = base64.b64encode(b"\0" * shift + raw).decode("ascii")
        stable = encoded[4 if shift else 0: 4 * ((shift + len(raw)) // 3)]
        if len(stable) >= _WINDOW:
            sources.append((stable, _WINDOW, False))
    return sources


def _needles(source: str, width: int, folded: bool) -> list[_Needle]:
    """What finds a piece of ``width`` characters of ``source``: every such piece holds one of the pieces of
    ``width // 2`` characters that start at a multiple of ``width // 2`` (found by ``str.find``, then the
    pieces around it are checked)."""
    pieces = frozenset(source[i:i + width] for i in range(len(source) - width + 1))
    step = max(1, width // 2)
    blocks = {source[i:i + step] for i in range(0, len(source) - step + 1, step)}
    return [_Needle(block, width, pieces, folded) for block in sorted(blocks)]


_ZERO_WIDTH = re.compile("[\\s\u00ad\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]+")
_U_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})")


def _normalised(text: str) -> str:
    """``text`` as a secret hidden in it would read: HTML entities, ``\\uXXXX`` escapes and percent-encoding
    decoded, NFKC-normalised, without white space and zero-width characters (case kept)."""
    if "&" in text:
        text = html.unescape(text)
    if "\\" in text:
        text = _U_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)
    if "%" in text:
        text = unquote(text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return _ZERO_WIDTH.sub("", text)


def _found(text: str, needle: _Needle) -> bool:
    block, width, pieces = needle.block, needle.width, needle.pieces
    at = text.find(block)
    while at != -1:
        for start in range(max(0, at - (width - len(block))), at + 1):
            if text[start:start + width] in pieces:
                return True
        at = text.find(block, at + 1)
    return False


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds a registered secret in some form: split by white space or zero-width characters,
    upper-case, HTML entities, ``\\uXXXX`` escapes, percent-encoded, hex, base64 at any alignment, reversed,
    rot13, or a piece of 8 characters of it (a secret shorter than that: whole only)."""
    needles = _all_needles
    if not text or not needles:
        return False
    normal = _normalised(text)
    folded = normal.casefold()
    return any(_found(folded if needle.folded else normal, needle) for needle in needles)


def register_secret(secret: str | None) -> None:
    """Remove ``secret`` (and its common encodings) from every text :func:`scrub` sees from now on in this
    process. None, empty and very short values are ignored."""
    global _pattern, _all_needles
    if not secret or len(secret.strip()) < _MIN_SECRET:
        return
    with _lock:
        needles = [needle for source in _sources(secret) for needle in _needles(*source)]
        _all_needles = tuple(dict.fromkeys(_all_needles + tuple(needles)))
        new = _forms(secret) - _secrets
        if not new:
            return
        _secrets.update(new)
        ordered = sorted(_secrets, key=len, reverse=True)  # the longest first: a form never leaves a piece
        _pattern = re.compile("|".join(re.escape(form) for form in ordered))


def _header_value(match: re.Match[str]) -> str:
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


def _scrub_shapes(text: str) -> str:
    """``text`` without the registered secrets' common forms and the shapes of credentials."""
    if not text:
        return text
    pattern = _pattern
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
    if "://" in text:
        text = _URL_CREDENTIALS.sub(lambda m: m.group(1) + REDACTED + "@", text)
    lowered = text.lower()
    if any(word in lowered for word in ("bearer", "basic", "key", "authorization")):
        text = _HEADER.sub(_header_value, text)
        text = _BEARER.sub(lambda m: f"{m.group(1) or m.group(2)} {REDACTED}", text)
    if "sk-" in text:
        text = _KEY_SHAPE.sub(REDACTED, text)
    return text


def scrub(text: str) -> str:
    """``text`` without any registered secret, Bearer (or Basic) token, ``Authorization`` value, OpenAI-style
    key or URL credentials (each replaced by :data:`REDACTED`); when what is left still holds a registered
    secret in some other form (:func:`holds_secret`), :data:`WITHHELD` in its place, whole. Cheap on text that
    holds none."""
    if not text:
        return text
    text = _scrub_shapes(text)
    return WITHHELD if holds_secret(text) else text


def _map_strings(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {change(k) if isinstance(k, str) else k: _map_strings(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_strings(v, change) for v in value]
    return value


def scrub_json(value: Any) -> Any:
    """``value`` (parsed JSON) with every string, keys included, scrubbed (as :func:`scrub` does; the search
    for a secret's other forms runs once on the whole, then on each string only when the whole holds one)."""
    strings: list[str] = []

    def shapes(text: str) -> str:
        strings.append(text := _scrub_shapes(text))
        return text

    value = _map_strings(value, shapes)
    if _all_needles and holds_secret("\n".join(strings)):
        value = _map_strings(value, lambda text: WITHHELD if holds_secret(text) else text)
    return value


def excerpt(body: bytes | str, limit: int = EXCERPT_CHARS) -> str:
    """A server's body as it may be stored: decoded (undecodable bytes replaced), scrubbed, on one line (runs of
    whitespace as one space), at most ``limit`` characters (``…`` marks a cut). Scrubbed before it is cut, so
    a secret at the cut cannot leave a piece."""
    if isinstance(body, bytes):
        body = body[: 4 * (limit + MAX_KEY_CHARS)].decode("utf-8", "replace")
    head = body[: limit + MAX_KEY_CHARS]
    text = " ".join(scrub(head).split())
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    if len(text) > limit or len(body) > len(head):
        return text[: limit - 1] + "…"
    return text


def check_api_key(key: str | None, *, source: str = "the API key") -> str | None:
    """``key`` when it can be sent as a Bearer token: one line of printable ASCII (no newline, no space at its
    ends), at most :data:`MAX_KEY_CHARS` characters. Registered as a secret either way; a bad key is an
    :class:`InputError` naming ``source`` and never showing the key. None or empty: no key."""
    if not key:
        return None
    register_secret(key)
    problem = None
    if len(key) > MAX_KEY_CHARS:
        problem = f"is longer than {MAX_KEY_CHARS} characters"
    elif any(ch in "\r\n" for ch in key):
        problem = "holds a line break (as a key read from a file with its newline does)"
    elif not key.isascii():
        problem = "holds a character that is not ASCII"
    elif not key.isprintable():
        problem = "holds a control character"
    elif key != key.strip() or " " in key:
        problem = "holds a space"
    if problem is not None:
        raise InputError(f"{source} {problem}: an API key is one line of printable ASCII; nothing was sent "
                         "(the key is not shown)", hint=f"set {source} to the key alone")
    return key


def api_key_from_env(variable: str) -> str | None:
    """The API key in the environment variable ``variable``, checked by :func:`check_api_key` (unset or empty:
    None, no key)."""
    return check_api_key(os.environ.get(variable) or None, source=variable)


def shown_address(text: str) -> str:
    """How an address the user gave (an URL, a Dask scheduler address) may be shown in a message: quoted when
    it is short printable text without white space, ``@`` (credentials), ``?`` (a query) or ``#`` (a
    fragment); else a note saying it is not shown (a password may hold ``/``, ``@``, ``?``, ``#`` or a space,
    and then no parse of the address can tell where it ends)."""
    if len(text) <= 200 and text.isprintable() and not any(ch.isspace() or ch in "@?#" for ch in text):
        return repr(scrub(text))
    return "(not shown: it holds credentials, a query, a fragment, a space or a control character)"


def safe_url(url: str, *, what: str = "the endpoint", schemes: tuple[str, ...] = ("http", "https"),
             example: str = "http://127.0.0.1:8000/v1") -> str:
    """``url`` when it is an URL chemref can use: one of ``schemes``, a host, a port from 1 to 65535 when given,
    no credentials (a key goes in its environment variable, never in an URL that could be shown), no query or
    fragment. Else an :class:`InputError` that shows the URL only when :func:`shown_address` allows (never its
    credentials, query or fragment)."""
    shown = shown_address(url)
    hint = f"for example {example}"
    if len(url) > 2048 or not url.isprintable() or any(ch.isspace() for ch in url):
        raise InputError(f"{what} must be one URL without spaces or control characters, got {shown}", hint=hint)
    if "@" in url:
        raise InputError(f"{what} must not hold credentials (user:password@), got {shown}",
                         hint="give the API key in its environment variable (OPENAI_API_KEY, or --api-key-env)")
    if "?" in url or "#" in url:
        raise InputError(f"{what} must not have a query or fragment (a key or token in it would be sent and "
                         f"logged), got {shown}", hint=hint)
    try:
        parts = urlsplit(url)
        port = parts.port
        host = parts.hostname
    except ValueError as exc:  # neither the URL nor the parser's message (it may quote a piece) is shown
        reason = ("its port is not from 1 to 65535" if str(exc).startswith("Port out of range")
                  else "its host or port cannot be read")
        raise InputError(f"{what} is not a valid URL: {reason} (the URL is not shown: it may hold a piece of a "
                         "password)", hint=hint) from None
    if parts.scheme.lower() not in schemes:
        raise InputError(f"{what} must be a {' or '.join(s + '://' for s in schemes)} URL, got {shown}", hint=hint)
    if not host:
        raise InputError(f"{what} has no host, got {shown}", hint=hint)
    if port is not None and not 0 < port < 65536:
        raise InputError(f"{what} has port {port}, not from 1 to 65535: {shown}", hint=hint)
    if parts.netloc.endswith(":"):
        raise InputError(f"{what} has an empty port: {shown}", hint=hint)
    return urlunsplit(parts)


def finite_json(raw: bytes | str) -> Any:
    """``raw`` parsed as JSON with finite numbers only: ``NaN``, ``Infinity`` and ``1e999`` are a
    ``ValueError``, as any other text that is not JSON (so what is stored stays valid JSON)."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(f"{text[:20]} is not a finite number")
        return value

    return json.loads(raw, parse_constant=constant, parse_float=number)
