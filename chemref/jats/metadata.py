"""Article metadata from ``front``: PMCID, PMID, DOI, title, journal and publication year."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chemref.doi import normalize_doi
from chemref.errors import printable
from chemref.jats.model import Diagnostic
from chemref.jats.text import plain_text

if TYPE_CHECKING:  # annotations only: lxml is imported where XML is parsed
    from lxml import etree

__all__ = ["Metadata", "read_metadata", "read_meta"]

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
# what a PMCID and a PMID are: PMC's and PubMed's accession numbers (a PMCID with or without its "PMC")
_PMCID = re.compile(r"(?:PMC)?[0-9]{1,12}", re.IGNORECASE)
_PMID = re.compile(r"[0-9]{1,12}")
_DATE_PREFERENCE = ("epub", "ppub", "collection", "pub", "epub-ppub", "nihms-submitted", "pmc-release")


@dataclass(frozen=True, slots=True)
class Metadata:
    """The identifying fields of an article's ``<front>``: ids, title, journal, year."""

    pmcid: str | None
    pmid: str | None
    doi: str | None
    title: str | None
    journal: str | None
    year: int | None


def _year(meta, diagnostics: list[Diagnostic]) -> int | None:
    dates = meta.findall("pub-date")
    if not dates:
        return None
    ranked = sorted(dates, key=lambda d: min(
        (_DATE_PREFERENCE.index(t) for t in (d.get("pub-type"), d.get("date-type")) if t in _DATE_PREFERENCE),
        default=len(_DATE_PREFERENCE)))
    for date in ranked:
        year = date.find("year")
        if year is None:
            continue
        raw = "".join(year.itertext()).strip()
        match = _YEAR.search(raw)
        if match:
            return int(match.group(1))
        diagnostics.append(Diagnostic("year-unparseable", f"publication year {raw[:40]!r} is not a year",
                                      year.sourceline))
    return None


def _valid_id(value: str, pattern: re.Pattern[str], name: str, form: str, element: etree._Element,
              diagnostics: list[Diagnostic]) -> bool:
    """Whether ``value`` is a well-formed ``name``; if not, an ``id-invalid`` diagnostic (the value escaped
    and cut to 60 characters), and the id is not used: question ids and outputs never hold it."""
    if pattern.fullmatch(value):
        return True
    shown = printable(value[:60]) + ("..." if len(value) > 60 else "")
    diagnostics.append(Diagnostic("id-invalid", f"{name} '{shown}' is not {form}: left out (the article is named "
                                                f"by its file instead)", element.sourceline))
    return False


def read_metadata(front: etree._Element | None, diagnostics: list[Diagnostic]) -> Metadata:
    """Read ``<front>`` (None gives empty metadata)."""
    meta = front.find("article-meta") if front is not None else None
    journal_meta = front.find("journal-meta") if front is not None else None
    return read_meta(meta, journal_meta, diagnostics)


def read_meta(meta: etree._Element | None, journal_meta: etree._Element | None,
              diagnostics: list[Diagnostic]) -> Metadata:
    """Read an ``<article-meta>`` (or a sub-article's ``<front-stub>``) and a ``<journal-meta>`` (either None)."""
    pmcid = pmid = doi = None
    title = journal = None
    year = None
    if meta is not None:
        for article_id in meta.findall("article-id"):
            kind = (article_id.get("pub-id-type") or "").lower()
            value = "".join(article_id.itertext()).strip()
            if not value:
                continue
            if kind in ("pmc", "pmcid") and pmcid is None:
                if _valid_id(value, _PMCID, "PMCID", "PMC followed by digits", article_id, diagnostics):
                    pmcid = "PMC" + value[3:] if value.upper().startswith("PMC") else "PMC" + value
            elif kind == "pmid" and pmid is None:
                if _valid_id(value, _PMID, "PMID", "digits", article_id, diagnostics):
                    pmid = value
            elif kind == "doi" and doi is None:
                doi = normalize_doi(value)
        title_el = meta.find("title-group/article-title")
        title = plain_text(title_el) or None if title_el is not None else None
        year = _year(meta, diagnostics)
    if journal_meta is not None:
        title_el = next(journal_meta.iter("journal-title"), None)
        if title_el is not None:
            journal = plain_text(title_el) or None
        if journal is None:
            ids = journal_meta.findall("journal-id")
            preferred = [j for j in ids if j.get("journal-id-type") == "nlm-ta"] or ids
            if preferred:
                journal = plain_text(preferred[0]) or None
    return Metadata(pmcid, pmid, doi, title, journal, year)
