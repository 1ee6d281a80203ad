"""The reference list: id, DOI (with where it was found), PMID, title, authors, year, ambiguity.

Each citation element is read as a :class:`~chemref.jats.works.Work` (DOI priority and sources there).
A ``<ref>`` that bundles several works is ``ambiguous`` and gets no single DOI; a trailing citation with no authors and no title (Angewandte's German edition)
continues the previous work rather than starting a new one.
"""

from __future__ import annotations

import re

from lxml import etree

from chemref.doi import find_dois, normalize_doi
from chemref.jats.model import Diagnostic, Reference
from chemref.jats.text import first_child, plain_text, text_of
from chemref.jats.works import CITATION_TAGS, TITLE_TAGS, XLINK, YEAR, Work

__all__ = ["ReferenceList", "read_references"]



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

    def add(self, element, reference: Reference, label: str | None) -> None:
        """Append the reference read from ``element`` (its label, when printed, names it too)."""
        ref_id = reference.id
        self.position[ref_id] = len(self.order)
        self.order.append(ref_id)
        self._elements.append(element)
        if label:
            self.label_to_id.setdefault(label.strip("[]().: "), ref_id)
        self.references.append(reference)


_IDS = etree.XPath("descendant-or-self::*/@id")

_RANK = {"pub-id": 0, "ext-link": 1, "comment": 2, "text": 3}


def _title(works: list[Work]) -> str | None:
    for tag in TITLE_TAGS:
        for work in works:
            found = work.titles.get(tag)
            if found is not None:
                text = plain_text(found)
                if text:
                    return text
    for work in works:
        if work.book_source is not None:
            return plain_text(work.book_source) or None
    for work in works:
        if work.text_title:
            return work.text_title
    return None


def _publication_type(work: Work) -> str | None:
    """The first non-empty ``publication-type`` of the work's citation elements."""
    for element in work.elements:
        kind = element.get("publication-type")
        if kind:
            return kind
    return None


def _container(works: list[Work]) -> tuple[str | None, str | None]:
    """The journal or book title (``<source>``) and the ``publication-type`` of the first work (the first
    description of it that gives them)."""
    first = works[0] if works else None
    if first is None:
        return None, None
    kind = _publication_type(first)
    container = plain_text(first.container) if first.container is not None else None
    for other in works[1:]:  # a second description of the same work (not a continuation: it has a title)
        if other.is_continuation:
            continue
        if kind is None:
            kind = _publication_type(other)
        if not container and other.container is not None:
            container = plain_text(other.container)
    return container or None, kind


def _year(works: list[Work], ref_id: str, diagnostics: list[Diagnostic]) -> int | None:
    for work in works:
        found = work.year
        if found is not None:
            raw = text_of(found).strip()
            match = YEAR.search(raw)
            if match:
                return int(match.group(1))
            diagnostics.append(Diagnostic("ref-year-unparseable",
                                          f"reference {ref_id}: year {raw[:40]!r} is not a year", found.sourceline))
            return None
    match = YEAR.search(" ".join(text_of(e) for work in works for e in work.elements))
    return int(match.group(1)) if match else None


def _words(text: str | None) -> str:
    return " ".join(re.findall(r"\w+", text.lower())) if text else ""


def _same_work(a: Work, b: Work) -> bool:
    """True when two citation elements of one ``<ref>`` describe the same work (SciELO writes a
    ``<mixed-citation>`` and an ``<element-citation>`` of it): their DOIs agree, or with no two DOIs, their
    titles agree (one title found in the other's text), or with no title, the first author and the year."""
    if a.doi and b.doi:
        return a.doi == b.doi
    ta, tb = _words(a.title_text()), _words(b.title_text())
    if ta and tb:
        return ta == tb or (min(len(ta), len(tb)) >= 12 and (ta in tb or tb in ta))
    title, other = (ta, b) if ta else (tb, a)
    if len(title) >= 12:
        return title in _words(" ".join(text_of(e) for e in other.elements))
    year = a.year_text()
    return bool(a.names and b.names and a.names[0] == b.names[0] and year and year == b.year_text())


def _richest(group: list[Work]) -> Work:
    """The description with the most structure (marked-up names and title) among those of one work."""
    return max(group, key=lambda w: (bool(w.titles), len(w.names)))


def _works(ref) -> list[list[Work]]:
    """The works of a ``<ref>``: citation elements (alternatives grouped), continuations and second
    descriptions of the same work merged."""
    works: list[Work] = []
    for child in ref:
        tag = child.tag
        if tag in CITATION_TAGS:
            works.append(Work([child]))
        elif tag == "citation-alternatives":
            group = [c for c in child if c.tag in CITATION_TAGS]
            if group:
                works.append(Work(group))
    if not works:
        nested = next(ref.iter(*CITATION_TAGS), None)
        works = [Work([nested if nested is not None else ref])]
    merged = [[works[0]]]
    for work in works[1:]:
        if work.is_continuation or (len(merged) == 1 and len(merged[0]) == 1 and _same_work(merged[0][0], work)):
            merged[-1].append(work)
        else:
            merged.append([work])
    return merged


def _doi_beside(ref) -> tuple[str | None, str | None]:
    """A DOI in the ``<ref>`` but outside its citation elements (a link or a note after the citation)."""
    for child in ref:
        tag = child.tag
        if tag in CITATION_TAGS or tag in ("label", "citation-alternatives") or tag.__class__ is not str:
            continue
        if tag in ("ext-link", "uri"):
            for text in (text_of(child), child.get(XLINK) or ""):
                doi = normalize_doi(text) if "10." in text else None
                if doi:
                    return doi, "ext-link"
        elif tag == "pub-id" and (child.get("pub-id-type") or "").lower() == "doi":
            doi = normalize_doi(text_of(child))
            if doi:
                return doi, "pub-id"
        else:
            text = text_of(child)
            found = find_dois(text) if "10." in text else None
            if found:
                return found[0], "text"
    for text in (ref.text, *(c.tail for c in ref)):
        if text and "10." in text:
            found = find_dois(text)
            if found:
                return found[0], "text"
    return None, None


def read_references(containers, diagnostics: list[Diagnostic]) -> ReferenceList:
    """Read every ``<ref>`` of every ``<ref-list>`` wherever JATS allows one under ``containers`` (an element,
    or several in document order such as ``(body, back)``; None entries are skipped): in ``<back>``, in a
    ``<sec>`` of the body or back ("References" as a body section), nested lists and several lists."""
    result = ReferenceList()
    if containers is None:
        return result
    if not isinstance(containers, (list, tuple)):
        containers = (containers,)
    refs = [ref for container in containers if container is not None for ref in container.iter("ref")]
    for ref in refs:
        ref_id, label = _identity(ref, result, diagnostics)
        if ref_id is not None:
            result.add(ref, _reference(ref, ref_id, label, diagnostics), label)
    return result


def _identity(ref, result: ReferenceList, diagnostics: list[Diagnostic]) -> tuple[str | None, str | None]:
    """The id and printed label of a ``<ref>``; no id when it has none or repeats one (a diagnostic says so)."""
    ref_id = (ref.get("id") or "").strip()
    label_el = first_child(ref, "label")
    label = plain_text(label_el) if label_el is not None else None
    if not ref_id:
        diagnostics.append(Diagnostic(
            "ref-missing-id", f"reference {label or ''} has no id and cannot be cited: "
            f"{plain_text(ref)[:80]!r}".replace("  ", " "), ref.sourceline))
        return None, label
    if ref_id in result.position:
        diagnostics.append(Diagnostic("ref-duplicate-id",
                                      f"reference id {ref_id!r} used twice; the first one is kept", ref.sourceline))
        return None, label
    return ref_id, label


class _Cited:
    """What the works of one ``<ref>`` say about its identity: its DOI (and where it was found), the distinct
    DOIs of its works, its PMID and whether it bundles several works."""

    __slots__ = ("doi", "source", "distinct", "pmid", "ambiguous")

    def __init__(self, groups: list[list[Work]], ref_id: str, line: int | None,
                 diagnostics: list[Diagnostic]) -> None:
        if len(groups) == 1 and len(groups[0]) == 1:      # the common case: one citation element
            work = groups[0][0]
            self.doi, self.source, self.pmid = work.doi, work.source, work.pmid
            self.distinct: tuple[str, ...] = (work.doi,) if work.doi else ()
            self.ambiguous = False
            return
        dois: list[tuple[str, str | None]] = []
        self.pmid = None
        for group in groups:
            best = min((w for w in group if w.doi), key=lambda w: _RANK[str(w.source)], default=None)
            if best is not None:
                dois.append((best.doi or "", best.source))
            for work in group:
                self.pmid = self.pmid or work.pmid
        self.ambiguous = len(groups) > 1
        self.distinct = tuple(dict.fromkeys(d for d, _ in dois))
        if self.ambiguous:
            diagnostics.append(Diagnostic(
                "ref-ambiguous", f"reference {ref_id} bundles {len(groups)} works; no single DOI is given "
                f"(found: {', '.join(self.distinct) or 'none'})", line))
        self.doi, self.source = (None, None) if self.ambiguous or not dois else dois[0]


def _reference(ref, ref_id: str, label: str | None, diagnostics: list[Diagnostic]) -> Reference:
    """The :class:`Reference` of one ``<ref>`` with an id."""
    line = ref.sourceline
    groups = _works(ref)
    flat = groups[0] if len(groups) == 1 else [work for group in groups for work in group]
    cited = _Cited(groups, ref_id, line, diagnostics)
    if cited.doi is None and not cited.ambiguous and flat[0].elements[0] is not ref:
        cited.doi, cited.source = _doi_beside(ref)
        cited.distinct = (cited.doi,) if cited.doi else ()
    _note(flat, ref_id, line, diagnostics)
    if len(flat) == 1:
        authors, given_names = tuple(flat[0].names), tuple(flat[0].given)
    else:
        richest = [_richest(group) for group in groups]
        authors = tuple(n for work in richest for n in work.names)
        given_names = tuple(g for work in richest for g in work.given)
    return Reference(ref_id, cited.doi, cited.source, cited.pmid, _title(flat), authors,
                     _year(flat, ref_id, diagnostics), cited.ambiguous, cited.distinct, label or None, line,
                     *_container(groups[0]), given_names)


def _note(works: list[Work], ref_id: str, line: int | None, diagnostics: list[Diagnostic]) -> None:
    """The notes and DOI conflicts met while reading ``works``, as diagnostics of reference ``ref_id``."""
    for work in works:
        for code, message in work.notes:
            diagnostics.append(Diagnostic(code, f"reference {ref_id}: {message}", line))
        for conflict in work.conflicts:
            diagnostics.append(Diagnostic("ref-doi-conflict", f"reference {ref_id}: {conflict}; "
                                          "the link text is used", line))
