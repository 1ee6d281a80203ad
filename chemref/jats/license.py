"""The article licence from ``article-meta/permissions``, decided by the CC BY rule of the chemref corpora
(:func:`chemref.licence.cc_by_decision`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chemref.jats.model import License
from chemref.jats.text import plain_text
from chemref.licence import cc_by_decision

if TYPE_CHECKING:  # annotations only: lxml is imported where XML is parsed
    from lxml import etree

__all__ = ["read_license"]

_XLINK = "{http://www.w3.org/1999/xlink}href"
_ALI_REF = "{http://www.niso.org/schemas/ali/1.0/}license_ref"
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
    url, cc_by = cc_by_decision(urls, types, " ".join(texts + statements))
    return License(url=url, text=licence_text or (" ".join(statements) or None), cc_by=cc_by)
