"""Article metadata from ``front``: PMCID, PMID, DOI, title, journal, publication year, authors, keywords,
subjects, every publication and history date, and funding.

``article-meta`` is read in one pass over its children (it is small, but it is read for every article).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chemref.doi import normalize_doi
from chemref.errors import printable
from chemref.jats.authors import read_authors
from chemref.jats.model import ArticleDate, Author, Award, Diagnostic, Funding
from chemref.jats.text import first_child, plain_text, text_of

if TYPE_CHECKING:  # annotations only: lxml is imported where XML is parsed
    from lxml import etree

__all__ = ["Metadata", "read_metadata", "read_meta", "format_date"]

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
    authors: tuple[Author, ...] = ()
    keywords: tuple[str, ...] = ()
    subjects: tuple[str, ...] = ()
    dates: tuple[ArticleDate, ...] = ()
    funding: Funding = Funding()


_MONTHS = {name: i for i, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
     ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")], 1) for name in names}
_ISO_DATE = re.compile(r"^\s*(1[5-9]\d\d|20\d\d)(?:-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?)?(?:T|\s*$)")
_FUNDING_NOTES = frozenset({"financial-disclosure", "funding", "funding-information", "supported-by"})


def _number(element, low: int, high: int) -> int | None:
    if element is None:
        return None
    text = (element.text if not len(element) else text_of(element)) or ""
    text = text.strip().rstrip(".").lower()
    if text.isdigit():
        value = int(text)
        return value if low <= value <= high else None
    return _MONTHS.get(text) if high == 12 else None


def format_date(element) -> str | None:
    """``YYYY[-MM[-DD]]`` of a JATS date element (``pub-date``, ``date``): its ``iso-8601-date`` attribute when
    well formed, else its ``year``, ``month`` (a number or an English name) and ``day``, else a year in its
    ``string-date``; None when it gives no year."""
    iso = element.get("iso-8601-date")
    if iso:
        match = _ISO_DATE.match(iso)
        if match:
            return "-".join(g for g in match.groups() if g)
    year_el = first_child(element, "year")
    if year_el is None:
        string_date = first_child(element, "string-date")
        match = _YEAR.search(plain_text(string_date)) if string_date is not None else None
        return match.group(1) if match else None
    match = _YEAR.search(year_el.text or "" if not len(year_el) else text_of(year_el))
    if match is None:
        return None
    date = match.group(1)
    month = _number(first_child(element, "month"), 1, 12)
    if month is None:
        return date
    day = _number(first_child(element, "day"), 1, 31)
    return f"{date}-{month:02d}" + (f"-{day:02d}" if day is not None else "")


def _date(element, kind: str, out: list[ArticleDate], diagnostics: list[Diagnostic]) -> None:
    date = format_date(element)
    if date is None:
        if len(element):
            shown = printable(" ".join(text_of(element).split())[:40])
            diagnostics.append(Diagnostic("date-unparseable", f"<{element.tag}> {shown!r} gives no year: left out",
                                          element.sourceline))
        return
    for part, length in (("month", 7), ("day", 10)):
        found = first_child(element, part)
        if found is not None and len(date) == length - 3 and not element.get("iso-8601-date"):
            shown = printable(" ".join(text_of(found).split())[:20])
            diagnostics.append(Diagnostic("date-part-unparseable", f"<{element.tag}> {part} {shown!r} is not a "
                                          f"{part}: the date is read as {date}", found.sourceline))
            break
    out.append(ArticleDate(kind, date, element.get("pub-type") or element.get("date-type"),
                           element.get("publication-format")))


def _unique(values) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for v in values if v))


def _keywords(group) -> list[str]:
    out = []
    for kwd in group:
        tag = kwd.tag
        if tag == "kwd":
            out.append(plain_text(kwd))
        elif tag == "compound-kwd":
            out.append(" ".join(plain_text(part) for part in kwd if part.tag == "compound-kwd-part"))
        elif tag == "nested-kwd":
            out.extend(_keywords(kwd))
    return out


def _funder(source) -> str:
    """The name of a ``funding-source``: its institution (without its ids), else its text."""
    names = [plain_text(i) for i in source.iter("institution")]
    names = [n for n in names if n]
    if names:
        return ", ".join(names)
    if len(source):
        pieces = [source.text or ""]
        for child in source:
            if child.tag != "institution-id":
                pieces.append(text_of(child))
            pieces.append(child.tail or "")
        return " ".join("".join(pieces).split())
    return " ".join((source.text or "").split())


def _funding(groups, notes) -> Funding:
    statements: list[str] = []
    awards: list[Award] = []
    for group in groups:
        for child in group:
            tag = child.tag
            if tag == "funding-statement":
                statements.append(plain_text(child))
            elif tag == "award-group":
                funders = [_funder(s) for s in child.iter("funding-source")]
                ids = [plain_text(a) for a in child.iter("award-id")]
                if any(funders) or any(ids):
                    awards.append(Award(_unique(funders), _unique(ids)))
    for note in notes:
        statements.append(" ".join(plain_text(p) for p in note if p.tag == "p") or plain_text(note))
    return Funding(_unique(statements), tuple(awards))


def _year(meta, diagnostics: list[Diagnostic]) -> int | None:
    dates = [d for d in meta if d.tag == "pub-date"]
    if not dates:
        return None
    ranked = sorted(dates, key=lambda d: min(
        (_DATE_PREFERENCE.index(t) for t in (d.get("pub-type"), d.get("date-type")) if t in _DATE_PREFERENCE),
        default=len(_DATE_PREFERENCE)))
    for date in ranked:
        year = first_child(date, "year")
        if year is None:
            continue
        raw = text_of(year).strip()
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
    meta = first_child(front, "article-meta") if front is not None else None
    journal_meta = first_child(front, "journal-meta") if front is not None else None
    return read_meta(meta, journal_meta, diagnostics)


def read_meta(meta: etree._Element | None, journal_meta: etree._Element | None,
              diagnostics: list[Diagnostic]) -> Metadata:
    """Read an ``<article-meta>`` (or a sub-article's ``<front-stub>``) and a ``<journal-meta>`` (either None)."""
    lists = _MetaLists()
    pmcid = pmid = doi = title = None
    year = None
    authors: tuple[Author, ...] = ()
    if meta is not None:
        lists.read(meta, diagnostics)
        authors = read_authors(meta, diagnostics)
        pmcid, pmid, doi = _article_ids(meta, diagnostics)
        group = first_child(meta, "title-group")
        title_el = first_child(group, "article-title") if group is not None else None
        title = plain_text(title_el) or None if title_el is not None else None
        year = _year(meta, diagnostics)
    return Metadata(pmcid, pmid, doi, title, _journal(journal_meta), year, authors, _unique(lists.keywords),
                    _unique(lists.subjects), tuple(lists.dates), _funding(lists.funding_groups, lists.funding_notes))


class _MetaLists:
    """What ``article-meta`` lists, gathered in one pass over its children: dates, keywords, subjects, funding."""

    __slots__ = ("dates", "keywords", "subjects", "funding_groups", "funding_notes")

    def __init__(self) -> None:
        self.dates: list[ArticleDate] = []
        self.keywords: list[str] = []
        self.subjects: list[str] = []
        self.funding_groups: list = []
        self.funding_notes: list = []

    def read(self, meta: etree._Element, diagnostics: list[Diagnostic]) -> None:
        for child in meta:
            tag = child.tag
            if tag == "pub-date":
                _date(child, "publication", self.dates, diagnostics)
            elif tag == "history" or tag == "pub-history":
                for date in child.iter("date"):
                    _date(date, "history", self.dates, diagnostics)
            elif tag == "kwd-group":
                self.keywords.extend(_keywords(child))
            elif tag == "article-categories":
                self.subjects.extend(plain_text(s) for s in child.iter("subject"))
            elif tag == "funding-group":
                self.funding_groups.append(child)
            elif tag == "support-group":  # JATS 1.4 wraps funding-group in it
                self.funding_groups.extend(child.iter("funding-group"))
            elif tag == "author-notes":
                self.funding_notes.extend(fn for fn in child.iter("fn") if fn.get("fn-type") in _FUNDING_NOTES)


def _article_ids(meta: etree._Element, diagnostics: list[Diagnostic]) -> tuple[str | None, str | None, str | None]:
    """The PMCID, PMID and DOI of the ``<article-id>`` elements (the first well-formed one of each kind)."""
    pmcid = pmid = doi = None
    for article_id in meta:
        if article_id.tag != "article-id":
            continue
        kind = (article_id.get("pub-id-type") or "").lower()
        value = text_of(article_id).strip()
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
    return pmcid, pmid, doi


def _journal(journal_meta: etree._Element | None) -> str | None:
    """The journal's title, else its NLM title abbreviation, else its first ``<journal-id>``."""
    if journal_meta is None:
        return None
    journal = None
    title_el = next(journal_meta.iter("journal-title"), None)
    if title_el is not None:
        journal = plain_text(title_el) or None
    if journal is None:
        ids = [j for j in journal_meta if j.tag == "journal-id"]
        preferred = [j for j in ids if j.get("journal-id-type") == "nlm-ta"] or ids
        if preferred:
            journal = plain_text(preferred[0]) or None
    return journal
