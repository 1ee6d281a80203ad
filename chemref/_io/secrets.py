"""Secrets kept out of every output: the API key, Bearer tokens, ``Authorization`` values and URL credentials.

Every text that could hold one (a server's body, an exception's message, an endpoint or scheduler address) goes
through :func:`scrub` before it is written to a file, a log line or the terminal; a server's body is stored only
as :func:`excerpt` makes it (scrubbed, one line, bounded). The secrets this process was given are registered
(:func:`register_secret`, done by :func:`api_key_from_env` and :func:`check_api_key`) so that they are removed
whatever surrounds them, in the forms they are commonly echoed in (as is, JSON- or ``repr``-escaped,
percent-encoded, base64 in a Basic header); Bearer tokens, ``Authorization`` header values and the
``user:password@`` of any URL are removed by their shape, registered or not. A text that still holds a
registered secret in another form (:func:`holds_secret`: pieces of it, encoded, split by any separators) is
withheld whole; the search is linear in the text.
"""

from __future__ import annotations

import base64
import codecs
import html
import json
import math
import os
import re
import sys
import threading
import unicodedata
from typing import Any, Callable, NamedTuple
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from chemref._io.limits import json_depth_problem
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
#: a text is searched through its aligned runs of this many bytes (each piece of a secret holds one)
_GRAM = 4
#: every byte but an ASCII letter or digit (what the alphanumeric form of a text is without)
_NOT_ALNUM = bytes(b for b in range(256) if not (48 <= b <= 57 or 97 <= b <= 122))
#: ASCII white space, the information separators included (as ``str.isspace`` counts them)
_ASCII_SPACE = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


class _Forms(NamedTuple):
    """What :func:`holds_secret` looks for: the pieces of the secrets' forms (of each width), every run of
    :data:`_GRAM` bytes of those pieces (as native integers: a text's aligned runs are compared to them as
    one C array), and the case-folded forms of the secrets too short for pieces (looked for whole, in the
    case-folded text without white space)."""
    widths: tuple[int, ...] = ()
    pieces: frozenset[bytes] = frozenset()
    grams: frozenset[int] = frozenset()
    whole: tuple[bytes, ...] = ()

    def add(self, source: bytes, width: int) -> _Forms:
        pieces = {source[i:i + width] for i in range(len(source) - width + 1)}
        grams = {int.from_bytes(source[i:i + _GRAM], sys.byteorder) for i in range(len(source) - _GRAM + 1)}
        return _Forms(tuple(sorted({*self.widths, width})), self.pieces | pieces, self.grams | grams, self.whole)

    def add_whole(self, form: bytes) -> _Forms:
        return self._replace(whole=tuple(dict.fromkeys((*self.whole, form))))


class _Index(NamedTuple):
    """What :func:`holds_secret` looks for in a text's letters and digits (:func:`_index_with`), and in the
    text case-folded without white space (8 characters of the secrets that hold other characters too, and
    the short secrets whole)."""
    alnum: _Forms = _Forms()
    folded: _Forms = _Forms()


_lock = threading.Lock()
_secrets: set[str] = set()
_pattern: re.Pattern[str] | None = None
_index: _Index | None = None

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


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _stable(encode: Callable[[bytes], bytes], raw: bytes, group: int, chars: int) -> list[bytes]:
    """The runs of ``encode(pad + raw)`` (base64: 3 bytes to 4 characters; base32: 5 to 8) that depend on
    ``raw``'s bytes alone, for each padding ``pad`` of 0 to ``group - 1`` bytes: ``raw`` at any alignment."""
    runs = []
    for shift in range(group):
        encoded = encode(b"\0" * shift + raw)
        runs.append(encoded[chars if shift else 0: chars * ((shift + len(raw)) // group)])
    return runs


def _index_with(index: _Index, secret: str) -> _Index:
    """``index`` that also finds ``secret``: in a text's ASCII letters and digits, case-folded, 8 characters of
    the letters and digits of the secret, of the secret reversed, of its rot13 and of its base64 and base32
    at each alignment, and 16 digits (8 bytes) of its hex; in the text case-folded, 8 characters of the
    secret, reversed and rot13, as they are (with their other characters). A secret shorter than 8 characters
    or with fewer than 8 letters and digits: those three forms whole, in the case-folded text."""
    plain = (secret, secret[::-1], codecs.encode(secret, "rot13"))
    folded = [_utf8(form.casefold()) for form in plain]
    letters = [form.translate(None, _NOT_ALNUM) for form in folded]
    alnum, folded_forms = index
    if len(secret) < _WINDOW or len(letters[0]) < _WINDOW:
        for form in folded:
            folded_forms = folded_forms.add_whole(form)
        return _Index(alnum, folded_forms)
    if letters[0] != folded[0]:  # other characters too: their pieces as they are
        for form in folded:
            folded_forms = folded_forms.add(form, _WINDOW)
    raw = secret.encode("utf-8", "backslashreplace")
    sources = [*letters, *_stable(base64.b32encode, raw, 5, 8), *_stable(base64.b64encode, raw, 3, 4)]
    for source in sources:
        source = source.lower().translate(None, _NOT_ALNUM)
        if len(source) >= _WINDOW:
            alnum = alnum.add(source, _WINDOW)
    return _Index(alnum.add(raw.hex().encode("ascii"), 2 * _WINDOW), folded_forms)


_INVISIBLE = re.compile("[\u0085\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]+")
_U_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})")
_PERCENT = re.compile("%[0-9A-Fa-f]{2}")


def _normalised(text: str) -> str:
    """``text`` as a secret hidden in it would read: HTML entities, ``\\uXXXX`` escapes and percent-encoding
    decoded, NFKC-normalised, without white space and zero-width characters outside ASCII (case kept; ASCII
    white space is dropped from the bytes)."""
    if "&" in text:
        text = html.unescape(text)
    if "\\" in text:
        text = _U_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)
    if "%" in text and _PERCENT.search(text):
        text = unquote(text)
    if not text.isascii():
        text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    return text


def _holds(data: bytes, forms: _Forms) -> bool:
    """Whether ``data`` holds one of the pieces of ``forms``. Every piece of ``w >= 7`` bytes
    holds an aligned run of :data:`_GRAM` bytes of ``data``, so only the runs that are runs of some piece are
    looked at, each once for each text around it."""
    usable = len(data) - len(data) % _GRAM
    if not forms.grams or not usable:
        return False
    hits = forms.grams.intersection(memoryview(data)[:usable].cast("I"))
    if not hits:
        return False
    widest = forms.widths[-1]
    seen: set[tuple[bytes, int]] = set()
    for hit in hits:
        gram = hit.to_bytes(_GRAM, sys.byteorder)
        at = data.find(gram)
        while at != -1:
            low = max(0, at - widest + _GRAM)
            around = (data[low: at + widest], at - low)
            if around not in seen:
                seen.add(around)
                for width in forms.widths:
                    for start in range(max(0, at - width + _GRAM), at + 1):
                        if data[start:start + width] in forms.pieces:
                            return True
            at = data.find(gram, at + 1)
    return False


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds a registered secret in some form: split by white space, zero-width characters or
    any other characters that are not letters or digits, upper-case, HTML entities, ``\\uXXXX`` escapes,
    percent-encoded, hex (with separators or not), base64 or base32 at any alignment, reversed, rot13, or a
    piece of 8 characters, or of 8 letters and digits, of it (a shorter secret: whole only). Linear in the
    length of ``text``."""
    index = _index
    if not text or index is None:
        return False
    normal = _normalised(text)
    folded = _utf8(normal.lower() if normal.isascii() else normal.casefold())
    if index.folded.whole or index.folded.grams:
        spaceless = folded.translate(None, _ASCII_SPACE)
        if any(form in spaceless for form in index.folded.whole) or _holds(spaceless, index.folded):
            return True
    return _holds(folded.translate(None, _NOT_ALNUM), index.alnum)


def register_secret(secret: str | None) -> None:
    """Remove ``secret`` (and its common encodings) from every text :func:`scrub` sees from now on in this
    process. None, empty and very short values are ignored."""
    global _pattern, _index
    if not secret or len(secret.strip()) < _MIN_SECRET:
        return
    with _lock:
        _index = _index_with(_index or _Index(), secret)
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


def _number_text(value: Any) -> str | None:
    """The JSON text of ``value`` when it is a number (``True``/``False`` are not), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return repr(value)
    except ValueError:  # an int too long to show (json.loads refuses those first)
        return ""


def _on_number(change: Callable[[str, bool], str]) -> Callable[[Any, bool], Any]:
    """``change`` applied to a string, and to a number's JSON text: the number stays as it is when its text
    is unchanged, else it becomes the changed text (a number holding a secret is scrubbed as its digits)."""

    def apply(value: Any, is_key: bool) -> Any:
        if isinstance(value, str):
            return change(value, is_key)
        text = _number_text(value)
        changed = change(text, is_key) if text else text
        return value if changed == text else changed

    return apply


def _is_leaf(value: Any) -> bool:
    return isinstance(value, str) or _number_text(value) is not None


def _map_strings(value: Any, change: Callable[[str, bool], str]) -> Any:
    """``value`` (parsed JSON) with ``change(text, is_key)`` applied to every string, keys included, and to the
    text of every number (:func:`_on_number`), in the order they are written; without recursion, so any depth
    is fine."""
    change = _on_number(change)
    if not isinstance(value, (dict, list)):
        return change(value, False) if _is_leaf(value) else value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(iter(value.items()) if isinstance(value, dict) else iter(value), root)]
    while stack:
        items, target = stack[-1]
        for item in items:
            if isinstance(target, dict):
                key, item = item
                key = change(key, True) if isinstance(key, str) else key
            if _is_leaf(item):
                item = change(item, False)
            elif isinstance(item, (dict, list)):
                child: Any = {} if isinstance(item, dict) else []
                stack.append((iter(item.items()) if isinstance(item, dict) else iter(item), child))
            if isinstance(target, dict):
                target[key] = child if isinstance(item, (dict, list)) else item
            else:
                target.append(child if isinstance(item, (dict, list)) else item)
            if isinstance(item, (dict, list)):
                break
        else:
            stack.pop()
    return root


#: a JSON value with more strings than this that holds a secret is withheld whole, without looking for the
#: strings that hold it (bounded work on a body crafted to be slow to scrub)
_MAX_STRINGS_SEARCHED = 10_000


def _joined_holds_secret(value: Any, change: Callable[[str], str]) -> tuple[Any, bool, int]:
    """``value`` with ``change`` applied to every string, whether its strings joined hold a registered
    secret (all of them in the order they are written, the values alone, the keys alone: so a secret split
    into pieces across strings, or across keys, is found), and how many strings it holds."""
    every: list[str] = []
    values: list[str] = []
    keys: list[str] = []

    def collect(text: str, is_key: bool) -> str:
        text = change(text)
        every.append(text)
        (keys if is_key else values).append(text)
        return text

    value = _map_strings(value, collect)
    found = _index is not None and any(holds_secret("\n".join(part)) for part in (every, values, keys) if part)
    return value, found, len(every)


def scrub_json(value: Any) -> Any:
    """``value`` (parsed JSON) with every string, keys included, scrubbed (as :func:`scrub` does), and every
    number as its JSON text (a number whose digits hold a secret, or a piece of one, becomes the scrubbed or
    withheld text; any other stays a number). The search
    for a secret's other forms runs on the strings joined (:func:`_joined_holds_secret`), and only when that
    finds one, on each string: a string that holds one is withheld; when the strings that are left still
    hold one joined (a secret split into pieces across strings), or when ``value`` holds more than
    :data:`_MAX_STRINGS_SEARCHED` strings, every string of ``value`` is withheld, keys included."""
    value, found, count = _joined_holds_secret(value, _scrub_shapes)
    if not found:
        return value
    if count <= _MAX_STRINGS_SEARCHED:
        value, found, _ = _joined_holds_secret(value, lambda text: WITHHELD if holds_secret(text) else text)
    return _map_strings(value, lambda text, is_key: WITHHELD) if found else value


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
    """``key`` when it can be sent as a Bearer token and kept out of every output: one line of printable ASCII
    (no newline, no space at its ends), at least 4 characters (a shorter one would be sent, but is too short
    to look for in texts) and at most :data:`MAX_KEY_CHARS`. Registered as a secret either way; a bad key is an
    :class:`InputError` naming ``source`` and never showing the key. None or empty: no key."""
    if not key:
        return None
    register_secret(key)
    problem = None
    if len(key) > MAX_KEY_CHARS:
        problem = f"is longer than {MAX_KEY_CHARS} characters"
    elif len(key) < _MIN_SECRET:
        problem = (f"is shorter than {_MIN_SECRET} characters (too short to be kept out of what a server sends "
                   "back)")
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
    """``raw`` parsed as JSON with finite numbers only and arrays and objects nested at most
    :data:`~chemref._io.limits.MAX_JSON_DEPTH` deep: ``NaN``, ``Infinity``, ``1e999`` and a deeper value are
    a ``ValueError``, as any other text that is not JSON (so what is stored stays valid JSON, and can be
    walked)."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(f"{text[:20]} is not a finite number")
        return value

    problem = json_depth_problem(raw)
    if problem is not None:
        raise ValueError(problem)
    return json.loads(raw, parse_constant=constant, parse_float=number)
