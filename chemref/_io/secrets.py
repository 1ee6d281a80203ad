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
import json
import math
import os
import re
import threading
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from chemref.errors import InputError

__all__ = ["REDACTED", "EXCERPT_CHARS", "MAX_KEY_CHARS", "register_secret", "scrub", "scrub_json", "excerpt",
           "check_api_key", "api_key_from_env", "safe_url", "finite_json"]

#: what stands in for a removed secret
REDACTED = "[redacted]"
#: the longest excerpt of a server's body that is stored (characters)
EXCERPT_CHARS = 2000
#: a registered secret shorter than this is not searched for in texts (it would blank out ordinary words);
#: shapes (Bearer, Authorization, URL credentials) are removed whatever their length
_MIN_SECRET = 4
#: the longest API key accepted (characters): OpenAI's are ~160, a JWT a few hundred
MAX_KEY_CHARS = 4096

_lock = threading.Lock()
_secrets: set[str] = set()
_pattern: re.Pattern[str] | None = None

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


def register_secret(secret: str | None) -> None:
    """Remove ``secret`` (and its common encodings) from every text :func:`scrub` sees from now on in this
    process. None, empty and very short values are ignored."""
    global _pattern
    if not secret or len(secret.strip()) < _MIN_SECRET:
        return
    with _lock:
        new = _forms(secret) - _secrets
        if not new:
            return
        _secrets.update(new)
        ordered = sorted(_secrets, key=len, reverse=True)  # the longest first: a form never leaves a piece
        _pattern = re.compile("|".join(re.escape(form) for form in ordered))


def _header_value(match: re.Match[str]) -> str:
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


def scrub(text: str) -> str:
    """``text`` without any registered secret, Bearer (or Basic) token, ``Authorization`` value, OpenAI-style
    key or URL credentials (each replaced by :data:`REDACTED`). Cheap on text that holds none."""
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


def scrub_json(value: Any) -> Any:
    """``value`` (parsed JSON) with every string, keys included, scrubbed."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub(k) if isinstance(k, str) else k: scrub_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_json(v) for v in value]
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


def safe_url(url: str, *, what: str = "the endpoint", schemes: tuple[str, ...] = ("http", "https"),
             example: str = "http://127.0.0.1:8000/v1") -> str:
    """``url`` when it is an URL chemref can use: one of ``schemes``, a host, a port from 1 to 65535 when given,
    no credentials (a key goes in its environment variable, never in an URL that could be shown), no query or
    fragment. Else an :class:`InputError` that shows the URL only without its credentials."""
    shown = repr(scrub(url)) if url.isprintable() else "(an URL with control characters)"
    hint = f"for example {example}"
    if len(url) > 2048 or not url.isprintable() or any(ch.isspace() for ch in url):
        raise InputError(f"{what} must be one URL without spaces or control characters, got {shown}", hint=hint)
    try:
        parts = urlsplit(url)
        port = parts.port
        host = parts.hostname
    except ValueError as exc:
        reason = scrub(str(exc))
        raise InputError(f"{what} is not a valid URL ({reason}): {shown}", hint=hint) from None
    if parts.scheme.lower() not in schemes:
        raise InputError(f"{what} must be a {' or '.join(s + '://' for s in schemes)} URL, got {shown}", hint=hint)
    if "@" in parts.netloc:
        raise InputError(f"{what} must not hold credentials (user:password@), got {shown}",
                         hint="give the API key in its environment variable (OPENAI_API_KEY, or --api-key-env)")
    if not host:
        raise InputError(f"{what} has no host, got {shown}", hint=hint)
    if port is not None and not 0 < port < 65536:
        raise InputError(f"{what} has port {port}, not from 1 to 65535: {shown}", hint=hint)
    if parts.netloc.endswith(":"):
        raise InputError(f"{what} has an empty port: {shown}", hint=hint)
    if parts.query or parts.fragment:
        raise InputError(f"{what} must not have a query or fragment, got {shown}", hint=hint)
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
