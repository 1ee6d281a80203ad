"""DOI normalisation, the one definition shared by the JATS reader and the scorers.

Two DOIs are the same when their normalised forms are equal: lower case, no resolver URL or
``doi:`` prefix, URL-decoded, no surrounding whitespace and no trailing punctuation that
belongs to the surrounding prose rather than to the DOI.
"""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

__all__ = ["normalize_doi", "find_dois", "DOI_PATTERN"]

# A DOI is "10." + registrant code + "/" + suffix; the suffix may hold almost anything but white space
# (SICI-style DOIs hold "<", ">", ";", "#" and balanced parentheses). Not preceded by a digit, so
# "110.1000/x" is not read as "10.1000/x".
DOI_PATTERN = re.compile(r"(?<![0-9])10\.\d{3,9}(?:\.\d+)*/\S+")
# Invisible characters that PDF and HTML extraction leave inside DOIs (zero-width space/joiners, BOM, soft hyphen).
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_PREFIX = re.compile(
    r"^(?:(?:https?://)?(?:(?:dx\.|www\.)?doi\.org|doi\.[a-z]+\.[a-z]+)/|doi\s*[:=]?\s*)",
    re.IGNORECASE,
)
_TRAILING = ".,;:'\"!?*\u2019\u201d"
_PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}


# a URL's query string or fragment after the DOI ("?locatt=mode:legacy", "#sec1"); a SICI DOI's check
# character "#" ends the DOI and is kept
_URL_TAIL = re.compile(r"\?(?:[\w.\-]+=|$)|#[A-Za-z]")
# markup around the DOI: "<doi>10.1/x</doi>", "<pub-id ...>10.1/x</pub-id>"
_OPEN_TAG = re.compile(r"^<[A-Za-z][\w:\-]*(?:\s[^<>]*)?>")
_CLOSE_TAG = re.compile(r"</[A-Za-z][\w:\-]*>")


def _cut_unbalanced(doi: str) -> str:
    """Cut at the first closing bracket that no bracket inside the DOI opened ("10.1/x)/S/URI,": PDF link
    debris), keeping balanced ones ("10.1016/S0140-6736(20)30183-5", SICI "(SICI)... <...>")."""
    if ")" not in doi and "]" not in doi and "}" not in doi:
        return doi
    depth = {")": 0, "]": 0, "}": 0}
    for i, c in enumerate(doi):
        if c in "([{":
            depth[{"(": ")", "[": "]", "{": "}"}[c]] += 1
        elif c in depth:
            if depth[c] == 0:
                return doi[:i]
            depth[c] -= 1
    return doi


def _strip_trailing(doi: str) -> str:
    """Drop closing punctuation that is prose, not DOI: final periods, unbalanced brackets, quotes.

    A closing bracket stays when it balances an opening one inside the DOI, so
    ``10.1016/S0140-6736(20)30183-5`` and SICI DOIs ending in ``>`` keep their last character.
    """
    while doi:
        last = doi[-1]
        if last in _TRAILING:
            doi = doi[:-1]
        elif last in _PAIRS and doi.count(last) > doi.count(_PAIRS[last]):
            doi = doi[:-1]
        else:
            break
    return doi


def normalize_doi(text: str | None) -> str | None:
    """Return the canonical form of the DOI in ``text`` (``10.x/...`` in lower case), or None.

    Accepts bare DOIs, ``doi:`` prefixes, ``https://doi.org/`` and ``dx.doi.org`` URLs and publisher
    ``/doi/`` URLs (a query string or fragment after the DOI is dropped), URL-encoded and HTML-escaped
    forms, DOIs wrapped in markup (``<doi>...</doi>``) and DOIs followed by prose punctuation or PDF link
    debris (``)/S/URI``); the first DOI in
    ``text`` is returned. Lower case is canonical because DOIs are case-insensitive (ASCII).
    """
    return _normalize(text, decode=True)


def _normalize(text: str | None, *, decode: bool) -> str | None:
    """:func:`normalize_doi`; ``decode=False`` for text whose percent escapes are already decoded (an escape is
    decoded once: ``10.1000/a%2541b`` is ``10.1000/a%41b``)."""
    if not text:
        return None
    candidate = _INVISIBLE.sub("", text).strip()
    if decode and "%" in candidate:
        candidate = unquote(candidate)
    if "&" in candidate:  # HTML-escaped SICI DOIs: "&lt;231::AID-JBM12&gt;"
        candidate = html.unescape(candidate)
    candidate = _OPEN_TAG.sub("", _PREFIX.sub("", candidate, count=1).strip(), count=1)
    match = DOI_PATTERN.search(candidate)
    if match is None:
        return None
    doi = match.group(0)
    if "<" in doi:
        close = _CLOSE_TAG.search(doi)
        if close:
            doi = doi[:close.start()]
    if "?" in doi or "#" in doi:
        tail = _URL_TAIL.search(doi)
        if tail:
            doi = doi[:tail.start()]
    doi = _strip_trailing(_cut_unbalanced(doi))
    if "/" not in doi or doi.endswith("/"):
        return None
    return doi.lower()


def find_dois(text: str) -> list[str]:
    """Every distinct normalised DOI in free text, in order of first appearance."""
    seen: dict[str, None] = {}
    text = _INVISIBLE.sub("", text)
    for match in DOI_PATTERN.finditer(unquote(text) if "%" in text else text):
        doi = _normalize(match.group(0), decode=False)
        if doi:
            seen.setdefault(doi, None)
    return list(seen)
