"""The article licence from ``article-meta/permissions`` and the CC BY rule of the chemref corpora.

``cc_by`` is true only for Creative Commons Attribution without NonCommercial, NoDerivs or
ShareAlike: a CC BY URL (a CC0 URL beside it only as a data waiver), a "Creative Commons
Attribution License" text with no URL, or the ACS AuthorChoice CC-BY policy URL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from chemref.jats.model import License
from chemref.jats.text import plain_text

if TYPE_CHECKING:  # annotations only: lxml is imported where XML is parsed
    from lxml import etree

__all__ = ["read_license"]

_XLINK = "{http://www.w3.org/1999/xlink}href"
_ALI_REF = "{http://www.niso.org/schemas/ali/1.0/}license_ref"
_CC_URL = re.compile(r"creativecommons\.org/(licenses|publicdomain)/([a-z][a-z0-9\-]*)", re.I)
_URL_IN_TEXT = re.compile(r"https?://creativecommons\.org/[^\s\"<>)]+", re.I)
_RESTRICTED = re.compile(
    r"non-?\s?commercial|no-?\s?deriv|share-?\s?alike|\bby-nc\b|\bby-nd\b|\bby-sa\b|\bcc[\s-]by[\s-](?:nc|nd|sa)\b",
    re.I)
_ATTRIBUTION_TEXT = re.compile(r"creative\s+commons\s+attribution|\bcc[\s-]by\b", re.I)
_WAIVER = re.compile(r"waiver|applies to the data", re.I)
_ACS_CCBY = "authorchoice_ccby_termsofuse"


def _kind(url: str) -> str | None:
    match = _CC_URL.search(url)
    if not match:
        return None
    kind = match.group(2).lower()
    if kind.startswith("cc-"):
        kind = kind[3:]
    return kind  # by, by-nc, by-nd, by-sa, by-nc-nd, zero, mark, ...


def _license_text(element: etree._Element) -> str:
    """The words of a ``<license>``: its parts (``ali:license_ref``, each ``license-p``) each as a block, so a
    URL and the sentence after it stay apart ("…/by/4.0/ This is an Open Access article")."""
    parts = [" ".join(element.text.split())] if element.text and element.text.strip() else []
    for child in element:
        if isinstance(child.tag, str):
            parts.append(plain_text(child))
        if child.tail and child.tail.strip():
            parts.append(" ".join(child.tail.split()))
    return " ".join(part for part in parts if part)


def read_license(meta: etree._Element | None) -> License:
    """Classify the licence of an ``<article-meta>`` element (None gives an empty, non-CC-BY licence)."""
    if meta is None:
        return License(url=None, text=None, cc_by=False)
    urls: list[str] = []
    types: list[str] = []
    texts: list[str] = []
    statements: list[str] = []
    for permissions in meta.iter("permissions"):
        for element in permissions.iter():
            tag = element.tag
            if tag == "license":
                href = element.get(_XLINK)
                if href:
                    urls.append(href.strip())
                types.append((element.get("license-type") or "").strip().lower())
                text = _license_text(element)
                if text:
                    texts.append(text)
            elif tag == _ALI_REF:
                text = "".join(element.itertext()).strip()
                if text:
                    urls.append(text)
            elif tag in ("ext-link", "uri"):
                href = element.get(_XLINK) or "".join(element.itertext())
                if href and href.strip():
                    urls.append(href.strip())
            elif tag == "copyright-statement":
                text = plain_text(element)
                if text:
                    statements.append(text)
    if not statements:
        for element in meta.iter("copyright-statement"):
            text = plain_text(element)
            if text:
                statements.append(text)
    licence_text = " ".join(texts) or None
    all_text = " ".join(texts + statements)
    for match in _URL_IN_TEXT.finditer(all_text):
        urls.append(match.group(0).rstrip(".,;"))
    kinds = {kind for kind in map(_kind, urls) if kind}
    restricted = bool(_RESTRICTED.search(all_text)) or any(k != "by" and k.startswith("by") for k in kinds)
    cc_urls = [u for u in urls if _kind(u)]
    by_url = next((u for u in urls if _kind(u) == "by"), None)
    acs = next((u for u in urls if _ACS_CCBY in u.lower()), None)
    text_or_statement = licence_text or (" ".join(statements) or None)

    if kinds == {"by"} and not restricted:
        return License(url=by_url, text=text_or_statement, cc_by=True)
    if kinds == {"by", "zero"} and not restricted and _WAIVER.search(all_text):
        return License(url=by_url, text=text_or_statement, cc_by=True)
    if acs and not kinds and not restricted and _ATTRIBUTION_TEXT.search(all_text):
        return License(url=acs, text=text_or_statement, cc_by=True)
    other_acs = any("authorchoice" in u.lower() for u in urls)
    typed_by = any(t in ("cc by", "cc-by", "ccby") for t in types)
    if not kinds and not restricted and not other_acs and (_ATTRIBUTION_TEXT.search(all_text) or typed_by):
        return License(url=urls[0] if urls else None, text=text_or_statement, cc_by=True)
    url = (cc_urls or urls or [None])[0]
    return License(url=url, text=text_or_statement, cc_by=False)
