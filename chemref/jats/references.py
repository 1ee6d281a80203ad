"""The reference list: id, DOI (with where it was found), PMID, title, authors, year, ambiguity.

DOI priority within one work: ``<pub-id pub-id-type="doi">``, then ``<ext-link>``/``<uri>`` (its
text before its href), then plain text. A DOI inside ``<comment>`` (PLOS: ``doi: <ext-link>``) is
recorded with source ``comment``. A ``<ref>`` that bundles several works is ``ambiguous`` and gets
no single DOI; a trailing citation with no authors and no title (Angewandte's German edition)
continues the previous work rather than starting a new one.
"""

from __future__ import annotations

import re

from lxml import etree

from chemref.doi import find_dois, normalize_doi
from chemref.jats.model import Diagnostic, Reference
from chemref.jats.text import plain_text

__all__ = ["ReferenceList", "read_references"]

_XLINK = "{http://www.w3.org/1999/xlink}href"
CITATION_TAGS = frozenset({"mixed-citation", "element-citation", "citation", "nlm-citation"})
_NAME_TAGS = ("name", "string-name", "collab")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_DIGITS = re.compile(r"\d+")


class ReferenceList:
    """The references of one article plus the lookups citation resolution needs."""

    __slots__ = ("references", "position", "label_to_id", "order", "_elements", "_nested")

    def __init__(self) -> None:
        self.references: list[Reference] = []
        self.order: list[str] = []                 # reference ids in list order
        self.position: dict[str, int] = {}         # reference id -> index in ``order``
        self.label_to_id: dict[str, str] = {}      # printed label ("12", "5a") -> ref id
        self._elements: list = []                  # the <ref> elements, for the nested-id lookup
        self._nested: dict[str, str] | None = None

    def resolve(self, rid: str) -> str | None:
        """The reference id an xref ``rid`` points to: a ref's own id or any id inside a ref."""
        if rid in self.position:
            return rid
        if self._nested is None:   # built on the first miss only: most files cite ref ids directly
            self._nested = {}
            for ref_id, element in zip(self.order, self._elements):
                for ident in _IDS(element):
                    self._nested.setdefault(ident, ref_id)
        return self._nested.get(rid)


_IDS = etree.XPath("descendant-or-self::*/@id")


def _in_comment(element) -> bool:
    parent = element.getparent()
    while parent is not None and parent.tag not in CITATION_TAGS:
        if parent.tag == "comment":
            return True
        parent = parent.getparent()
    return False


def _work_doi(work: list, conflicts: list[str]) -> tuple[str | None, str | None]:
    """The DOI of one work and where it was found (see the module docstring for the priority)."""
    for element in work:
        for pub_id in element.iter("pub-id"):
            if (pub_id.get("pub-id-type") or "").lower() == "doi":
                doi = normalize_doi("".join(pub_id.itertext()))
                if doi:
                    return doi, "comment" if _in_comment(pub_id) else "pub-id"
    for element in work:
        for link in element.iter("ext-link", "uri"):
            shown = "".join(link.itertext())
            href = link.get(_XLINK) or ""
            from_text = normalize_doi(shown) if "10." in shown else None
            from_href = normalize_doi(href) if "10." in href else None
            if from_text and from_href and from_text != from_href:
                conflicts.append(f"link text {from_text} vs href {from_href}")
            doi = from_text or from_href
            if doi:
                return doi, "comment" if _in_comment(link) else "ext-link"
    for element in work:
        for comment in element.iter("comment"):
            text = "".join(comment.itertext())
            if "10." in text:
                found = find_dois(text)
                if found:
                    return found[0], "comment"
    for element in work:
        pieces = list(element.itertext())
        text = "".join(pieces)
        if "10." in text:
            # as printed ("DOI <fpage>10</fpage>.1021/x"), then with element edges as spaces
            # ("<bold>145</bold>10.1242/x" must not read as "14510.1242/x")
            found = find_dois(text) or find_dois(" ".join(pieces))
            if found:
                return found[0], "text"
    return None, None


def _pmid(work: list) -> str | None:
    for element in work:
        for pub_id in element.iter("pub-id"):
            if (pub_id.get("pub-id-type") or "").lower() == "pmid":
                match = _DIGITS.search("".join(pub_id.itertext()))
                if match:
                    return match.group(0)
    return None


def _is_continuation(work: list) -> bool:
    """A citation with no person names and no title continues the previous one (another edition)."""
    for element in work:
        for _ in element.iter(*_NAME_TAGS, "article-title", "chapter-title", "person-group"):
            return False
    return True


_NOT_EDITOR = "not({}parent::person-group[@person-group-type!='author'])"
_AUTHOR_XP = etree.XPath(
    "descendant::surname[parent::name or parent::string-name][not(../parent::person-group"
    "[@person-group-type!='author'])]"
    " | descendant::collab[" + _NOT_EDITOR.format("") + "]"
    " | descendant::string-name[not(surname)][" + _NOT_EDITOR.format("") + "]")


def _authors(work: list) -> list[str]:
    """Surnames and collaboration names of the authors (editors and translators left out)."""
    names: list[str] = []
    for element in work:
        for found in _AUTHOR_XP(element):
            text = plain_text(found)
            if text:
                names.append(text)
    return names


def _title(work: list) -> str | None:
    for tag in ("article-title", "chapter-title", "data-title"):
        for element in work:
            found = next(element.iter(tag), None)
            if found is not None:
                text = plain_text(found)
                if text:
                    return text
    for element in work:
        if (element.get("publication-type") or "journal") != "journal":
            found = next(element.iter("source"), None)
            if found is not None:
                return plain_text(found) or None
    return None


def _year(work: list, ref_id: str, diagnostics: list[Diagnostic]) -> int | None:
    for element in work:
        found = next(element.iter("year"), None)
        if found is not None:
            raw = "".join(found.itertext()).strip()
            match = _YEAR.search(raw)
            if match:
                return int(match.group(1))
            diagnostics.append(Diagnostic("ref-year-unparseable",
                                          f"reference {ref_id}: year {raw[:40]!r} is not a year", found.sourceline))
            return None
    match = _YEAR.search(" ".join("".join(element.itertext()) for element in work))
    return int(match.group(1)) if match else None


def _works(ref) -> list[list]:
    """The citation elements of a ``<ref>``, alternatives grouped, continuations merged."""
    works: list[list] = []
    for child in ref:
        tag = child.tag
        if tag in CITATION_TAGS:
            works.append([child])
        elif tag == "citation-alternatives":
            group = [c for c in child if c.tag in CITATION_TAGS]
            if group:
                works.append(group)
    if not works:
        nested = [c for c in ref.iter(*CITATION_TAGS)]
        works = [[nested[0]]] if nested else [[ref]]
    merged = [works[0]]
    for work in works[1:]:
        if _is_continuation(work):
            merged[-1] = merged[-1] + work
        else:
            merged.append(work)
    return merged


def read_references(back, diagnostics: list[Diagnostic]) -> ReferenceList:
    """Read every ``<ref>`` under ``back`` (None gives an empty list)."""
    result = ReferenceList()
    if back is None:
        return result
    for ref in back.iter("ref"):
        line = ref.sourceline
        ref_id = (ref.get("id") or "").strip()
        label_el = ref.find("label")
        label = plain_text(label_el) if label_el is not None else None
        if not ref_id:
            diagnostics.append(Diagnostic(
                "ref-missing-id", f"reference {label or ''} has no id and cannot be cited: "
                f"{plain_text(ref)[:80]!r}".replace("  ", " "), line))
            continue
        if ref_id in result.position:
            diagnostics.append(Diagnostic("ref-duplicate-id",
                                          f"reference id {ref_id!r} used twice; the first one is kept", line))
            continue
        works = _works(ref)
        dois: list[tuple[str, str]] = []
        pmid = None
        for work in works:
            conflicts: list[str] = []
            doi, source = _work_doi(work, conflicts)
            if doi:
                dois.append((doi, source))
            pmid = pmid or _pmid(work)
            for conflict in conflicts:
                diagnostics.append(Diagnostic("ref-doi-conflict", f"reference {ref_id}: {conflict}; "
                                              "the link text is used", line))
        ambiguous = len(works) > 1
        flat = [element for work in works for element in work]
        distinct = tuple(dict.fromkeys(d for d, _ in dois))
        if ambiguous:
            diagnostics.append(Diagnostic("ref-ambiguous", f"reference {ref_id} bundles {len(works)} works; "
                                          f"no single DOI is given (found: {', '.join(distinct) or 'none'})", line))
        doi, source = (None, None) if ambiguous or not dois else dois[0]
        year = _year(flat, ref_id, diagnostics)
        reference = Reference(
            id=ref_id, doi=doi, doi_source=source, pmid=pmid, title=_title(flat),
            authors=tuple(_authors(flat)), year=year, ambiguous=ambiguous,
            dois=distinct, label=label or None, line=line,
        )
        result.position[ref_id] = len(result.order)
        result.order.append(ref_id)
        result._elements.append(ref)
        if label:
            result.label_to_id.setdefault(label.strip("[]().: "), ref_id)
        result.references.append(reference)
    return result
