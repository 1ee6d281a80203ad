"""The CC BY rule of the chemref corpora, in one place (pure Python: no XML, no I/O).

A source counts as CC BY only for Creative Commons Attribution without NonCommercial, NoDerivs or
ShareAlike: a CC BY URL (a CC0 URL beside it only as a data waiver), a "Creative Commons Attribution License"
text with no URL, the ACS AuthorChoice CC-BY policy URL (:func:`cc_by_decision`, for a JATS article's
permissions), or a PMC file-list licence name such as ``CC BY 4.0`` (:func:`is_cc_by_name`). The dataset card
names the licences with :func:`short_name` and :func:`is_cc_by_4`.
"""

from __future__ import annotations

import re
from typing import Sequence

__all__ = ["cc_kind", "cc_by_decision", "is_cc_by_name", "is_cc_by_4", "short_name"]

_CC_URL = re.compile(r"creativecommons\.org/(licenses|publicdomain)/([a-z][a-z0-9\-]*)", re.I)
_URL_IN_TEXT = re.compile(r"https?://creativecommons\.org/[^\s\"<>)]+", re.I)
_RESTRICTED = re.compile(
    r"non-?\s?commercial|no-?\s?deriv|share-?\s?alike|\bby-nc\b|\bby-nd\b|\bby-sa\b|\bcc[\s-]by[\s-](?:nc|nd|sa)\b",
    re.I)
_ATTRIBUTION_TEXT = re.compile(r"creative\s+commons\s+attribution|\bcc[\s-]by\b", re.I)
_WAIVER = re.compile(r"waiver|applies to the data", re.I)
_ACS_CCBY = "authorchoice_ccby_termsofuse"
#: the ``license-type`` values that say CC BY
_CC_BY_TYPES = ("cc by", "cc-by", "ccby")
#: a Creative Commons licence URL with its version, for naming it ("CC BY 4.0")
_CC_URL_VERSION = re.compile(r"creativecommons\.org/licenses/(by(?:-[a-z-]+)?)/(\d\.\d)", re.IGNORECASE)


def cc_kind(url: str) -> str | None:
    """The Creative Commons kind of ``url`` (``by``, ``by-nc``, ``by-nd``, ``by-sa``, ``by-nc-nd``, ``zero``,
    ``mark`` ...), or None for a URL that is not Creative Commons."""
    match = _CC_URL.search(url)
    if not match:
        return None
    kind = match.group(2).lower()
    if kind.startswith("cc-"):
        kind = kind[3:]
    return kind


def cc_by_decision(urls: Sequence[str], types: Sequence[str], all_text: str) -> tuple[str | None, bool]:
    """``(url, cc_by)`` for a licence given by its ``urls`` (hrefs and licence references), the
    ``license-type`` values ``types`` (lower case) and ``all_text`` (the licence texts and copyright
    statements): whether it is CC BY, and the URL that says so (else the first Creative Commons URL, else
    the first URL). URLs written in the text count too."""
    urls = [*urls, *(match.group(0).rstrip(".,;") for match in _URL_IN_TEXT.finditer(all_text))]
    kinds = {kind for kind in map(cc_kind, urls) if kind}
    restricted = bool(_RESTRICTED.search(all_text)) or any(k != "by" and k.startswith("by") for k in kinds)
    if not restricted:
        cc_by, url = (_cc_by_by_url(urls, kinds, all_text) if kinds else
                      _cc_by_without_cc_url(urls, types, all_text))
        if cc_by:
            return url, True
    cc_urls = [u for u in urls if cc_kind(u)]
    return next(iter(cc_urls or urls), None), False


def _cc_by_by_url(urls: Sequence[str], kinds: set[str], all_text: str) -> tuple[bool, str | None]:
    """An unrestricted licence with Creative Commons URLs is CC BY when they are CC BY (a CC0 URL beside them
    only as a data waiver)."""
    cc_by = kinds == {"by"} or (kinds == {"by", "zero"} and bool(_WAIVER.search(all_text)))
    return cc_by, next((u for u in urls if cc_kind(u) == "by"), None)


def _cc_by_without_cc_url(urls: Sequence[str], types: Sequence[str], all_text: str) -> tuple[bool, str | None]:
    """An unrestricted licence without a Creative Commons URL is CC BY by the ACS AuthorChoice CC-BY policy URL
    with an attribution text, or (without another AuthorChoice URL) by an attribution text or type."""
    attribution = bool(_ATTRIBUTION_TEXT.search(all_text))
    acs = next((u for u in urls if _ACS_CCBY in u.lower()), None)
    if acs and attribution:
        return True, acs
    other_acs = any("authorchoice" in u.lower() for u in urls)
    typed_by = any(t in _CC_BY_TYPES for t in types)
    return not other_acs and (attribution or typed_by), (urls[0] if urls else None)


def is_cc_by_name(licence: str) -> bool:
    """A file-list licence name such as ``CC BY`` or ``CC BY 4.0`` (not NC/ND/SA, not CC0)."""
    words = licence.upper().replace("-", " ").split()
    return words[:2] == ["CC", "BY"] and all(w[:1].isdigit() for w in words[2:])


def is_cc_by_4(licence: str) -> bool:
    """Whether a source licence (URL or text) is CC BY 4.0 itself, so a dataset of such sources is ``cc-by-4.0``."""
    return "/by/4.0" in licence


def short_name(text: str | None) -> str:
    """"CC BY 4.0" for a Creative Commons URL, "CC BY (licence text)" for a licence sentence, else the text."""
    if not text:
        return ""
    match = _CC_URL_VERSION.search(text)
    if match:
        return f"CC {match.group(1).upper()} {match.group(2)}"
    if "creative commons attribution" in text.lower():
        return "CC BY (licence text in `source_license`)"
    return text.replace("|", "/")[:80]
