"""The reference list: id, DOI (with where it was found), PMID, title, authors, year, ambiguity.

DOI priority within one work: ``<pub-id pub-id-type="doi">``, then ``<ext-link>``/``<uri>`` (its
text before its href), then plain text. A DOI inside ``<comment>`` (PLOS: ``doi: <ext-link>``) is
recorded with source ``comment``. A ``<ref>`` that bundles several works is ``ambiguous`` and gets
no single DOI; a trailing citation with no authors and no title (Angewandte's German edition)
continues the previous work rather than starting a new one.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from lxml import etree

from chemref.doi import find_dois, normalize_doi
from chemref.jats.model import Diagnostic, Reference
from chemref.jats.text import first_child, plain_text, text_of
from chemref.names import particle_pattern

__all__ = ["ReferenceList", "read_references"]

_XLINK = "{http://www.w3.org/1999/xlink}href"
CITATION_TAGS = frozenset({"mixed-citation", "element-citation", "citation", "nlm-citation"})
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_DIGITS = re.compile(r"\d+")
# a DOI in plain text that stops at a period, hyphen or slash before a space and a further DOI-like chunk
_BROKEN_DOI = re.compile(r"(?<![0-9])10\.\d{3,9}/\S*[./\-] (?=[\w.\-]*\d)[\w.\-/]+")


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


def _in_comment(element) -> bool:
    parent = element.getparent()
    while parent is not None and parent.tag not in CITATION_TAGS:
        if parent.tag == "comment":
            return True
        parent = parent.getparent()
    return False


_FIELD_TAGS = ("pub-id", "ext-link", "uri", "comment", "surname", "collab", "string-name", "article-title",
               "chapter-title", "data-title", "source", "year")
_TITLE_TAGS = ("article-title", "chapter-title", "data-title")
_RANK = {"pub-id": 0, "ext-link": 1, "comment": 2, "text": 3}


def _by_author(element) -> bool:
    """False for names in an editor / translator / inventor ``person-group``."""
    parent = element.getparent()
    if parent is not None and parent.tag == "person-group":
        role = parent.get("person-group-type")
        return not role or role == "author"
    return True


def _field_text(element) -> str:
    """The text of a name part: its stripped text when plain, else read through its markup."""
    text = element.text
    if len(element) or not text or "\n" in text or "  " in text:
        return plain_text(element)
    return text.strip()


class _Work:
    """The fields of one citation element (or of the elements of one ``citation-alternatives``)."""

    __slots__ = ("elements", "doi", "source", "pmid", "names", "given", "titles", "book_source", "container",
                 "year", "has_comment", "conflicts", "text_title", "notes",
                 "_link", "_any_surname", "_group", "_by_author", "_book")

    def __init__(self, elements: list) -> None:
        self.elements = elements
        self.doi: str | None = None
        self.source: str | None = None
        self.pmid: str | None = None
        self.names: list[str] = []
        self.given: list[str | None] = []          # the given names of each of ``names`` (None: none given)
        self.titles: dict[str, object] = {}
        self.book_source = None
        self.container = None
        self.year = None
        self.has_comment = False
        self.conflicts: list[str] = []
        self.notes: list[tuple[str, str]] = []     # (diagnostic code, message)
        self.text_title: str | None = None
        # while reading: the first linked DOI and where it sits, whether a marked-up surname was met, the
        # person-group of the last surname and whether it names authors, whether the element is not a journal's
        self._link: tuple[str | None, str | None] = (None, None)
        self._any_surname = False
        self._group: Any = None
        self._by_author: bool | None = None
        for element in elements:
            self._book = (element.get("publication-type") or "journal") != "journal"
            for field in element.iter(*_FIELD_TAGS):
                _FIELD_READERS[field.tag](self, field)
        if not self.titles and (not self.names or not self._any_surname):
            self._unstructured()
        if self.doi is None and self._link[0]:
            self.doi, self.source = self._link
        if self.doi is None:
            self._text_doi()

    def _pub_id(self, field) -> None:
        """A ``<pub-id>``: the DOI (white space inside it joined, with a note) or the PMID."""
        kind = (field.get("pub-id-type") or "").lower()
        if kind == "doi" and self.doi is None:
            raw = text_of(field).strip()
            if (" " in raw or not raw.isprintable()) and any(c.isspace() for c in raw):
                # a DOI never holds white space: a line break or space inside the element's value
                # is a typesetting break ("10.1371/journal.pbio. 1001425"), joined rather than cut
                joined = "".join(raw.split())
                self.notes.append(("ref-doi-whitespace", f"DOI {' '.join(raw.split())!r} holds white "
                                   f"space; read as {normalize_doi(joined)!r}"))
                raw = joined
            doi = normalize_doi(raw)
            if doi:
                self.doi, self.source = doi, "comment" if _in_comment(field) else "pub-id"
        elif kind == "pmid" and self.pmid is None:
            match = _DIGITS.search(text_of(field))
            if match:
                self.pmid = match.group(0)

    def _surname(self, field) -> None:
        """A ``<surname>`` of an author's ``<name>`` / ``<string-name>``, with the given names beside it."""
        name = field.getparent()
        if name is None or (name.tag != "name" and name.tag != "string-name"):
            return
        parent = name.getparent()
        if parent is not self._group:
            self._group, self._by_author = parent, _by_author(name)
        if not self._by_author:
            return
        text = _field_text(field)
        if text:
            self.names.append(text)
            given = field.getnext()
            if given is None or given.tag != "given-names":
                given = first_child(name, "given-names")
            self.given.append((_field_text(given) or None) if given is not None else None)
            self._any_surname = True

    def _year(self, field) -> None:
        if self.year is None:
            self.year = field

    def _ext_link(self, field) -> None:
        """An ``<ext-link>`` / ``<uri>``: the first linked DOI (its text before its href; a disagreement noted)."""
        if self._link[0] is not None:
            return
        shown = text_of(field)
        href = field.get(_XLINK) or ""
        from_text = normalize_doi(shown) if "10." in shown else None
        from_href = normalize_doi(href) if "10." in href else None
        if from_text and from_href and from_text != from_href:
            self.conflicts.append(f"link text {from_text} vs href {from_href}")
        link_doi = from_text or from_href
        if link_doi:
            self._link = (link_doi, "comment" if _in_comment(field) else "ext-link")

    def _title(self, field) -> None:
        self.titles.setdefault(field.tag, field)

    def _collab(self, field) -> None:
        if _by_author(field):
            self._whole_name(field)

    def _string_name(self, field) -> None:
        """A ``<string-name>`` without a ``<surname>``: the whole name (with one, its surname is read)."""
        if first_child(field, "surname") is None and _by_author(field):
            self._whole_name(field)

    def _whole_name(self, field) -> None:
        text = plain_text(field)
        if text:
            self.names.append(text)
            self.given.append(None)

    def _source(self, field) -> None:
        if self.container is None:
            self.container = field
        if self._book and self.book_source is None:
            self.book_source = field

    def _comment(self, field) -> None:
        self.has_comment = True

    def _text_doi(self) -> None:
        if self.has_comment:
            for element in self.elements:
                for comment in element.iter("comment"):
                    text = text_of(comment)
                    if "10." in text:
                        found = find_dois(text)
                        if found:
                            self.doi, self.source = found[0], "comment"
                            return
        for element in self.elements:
            text = text_of(element)
            if "10." in text:
                pieces = list(element.itertext())
                # as printed ("DOI <fpage>10</fpage>.1021/x"), but a text node that opens with a capitalised word
                # or a URL starts a new token ("10.1/x" + "Available from" is not "10.1/xavailable"); then with
                # element edges as spaces ("<bold>145</bold>10.1242/x" must not read as "14510.1242/x")
                found = find_dois(_edges_apart(pieces)) or find_dois(" ".join(pieces))
                if found:
                    self.doi, self.source = found[0], "text"
                    broken = _BROKEN_DOI.search(" ".join(text.split()))
                    if broken:
                        self.notes.append(("ref-doi-maybe-truncated", f"the DOI in {broken.group(0)!r} may go on "
                                           f"after a space; {found[0]!r} is used as printed"))
                    return

    def title_text(self) -> str | None:
        """The work's title as text (marked up, else read from an unstructured citation)."""
        for tag in _TITLE_TAGS:
            found = self.titles.get(tag)
            if found is not None:
                return plain_text(found) or None
        if self.book_source is not None:
            return plain_text(self.book_source) or None
        return self.text_title

    def year_text(self) -> str | None:
        if self.year is not None:
            match = _YEAR.search(text_of(self.year))
            return match.group(1) if match else None
        match = _YEAR.search(" ".join(text_of(e) for e in self.elements))
        return match.group(1) if match else None

    def _unstructured(self) -> None:
        """Surnames and title from the text of a citation without ``<surname>`` and title markup (an
        unstructured ``mixed-citation``, with or without ``<string-name>``)."""
        element = self.elements[0]
        if element.tag not in CITATION_TAGS or any(
                g.tag == "person-group" and first_child(g, "name") is not None for g in element):
            return
        names, title = parse_unstructured_citation(plain_text(element))
        if names:
            self.names = names  # surnames, also in place of whole "<string-name>" texts
            self.given = [None] * len(names)
        self.text_title = title

    @property
    def is_continuation(self) -> bool:
        """No person names and no title: another edition of the previous work (Angewandte's German one)."""
        return not self.names and not self.titles and not self.text_title


#: The reader of each field tag met inside a citation element (every tag of ``_FIELD_TAGS``).
_FIELD_READERS: dict[str, Callable[[_Work, Any], None]] = {
    "pub-id": _Work._pub_id, "ext-link": _Work._ext_link, "uri": _Work._ext_link, "comment": _Work._comment,
    "surname": _Work._surname, "collab": _Work._collab, "string-name": _Work._string_name,
    "article-title": _Work._title, "chapter-title": _Work._title, "data-title": _Work._title,
    "source": _Work._source, "year": _Work._year,
}


# Unstructured ``mixed-citation`` text: an author list, then (maybe) a bracketed year, then the title up to the
# next sentence end. Author shapes: "Smith JA", "Smith, J. A.", "J. A. Smith", "van der Berg, K.", "Smith J-P".
_SURNAME = rf"(?:{particle_pattern(capitalised=False)}\s)*[A-Z][\w'\u2019\-]+"
_INITIALS = r"(?:[A-Z]\.?\s?-?){1,3}"
_AUTHOR = re.compile(
    rf"(?P<a>{_SURNAME}),?\s(?:{_INITIALS})(?![\w'])(?<!\s)(?!\s+[a-z])"  # Smith JA / Smith, J. A.
    rf"|(?:[A-Z]\.\s?-?){{1,3}}\s?(?P<b>{_SURNAME})(?![\w'])"      # J. A. Smith
)
_AUTHOR_SEPARATOR = re.compile(r"\s*(?:,|;|&|\band\b)\s*(?:and\s+|&\s*)?")
_ET_AL = re.compile(r",?\s*et\s+al\.?")
_AFTER_AUTHORS = re.compile(r"[\s.,:;]*(?:\(\s*(?:1[5-9]\d\d|20\d\d)[a-z]?\s*\)[\s.,:;]*)?")
# the title ends at a period before a space (not after an initial)
# (a question mark ends it only before an abbreviated journal word: "Why blue? Chem. Teach." but "Why? A survey")
_TITLE_END = re.compile(r"(?<![A-Z])\.(?=\s|$)|(?<=[A-Z]{2})\.(?=\s|$)|[?!](?=\s+[A-Z][a-z]{0,11}\.|$)")


def parse_unstructured_citation(text: str) -> tuple[list[str], str | None]:
    """Surnames and title of a citation given as plain text ("Smith JA, Lee K (2019) A title. J Chem 4:1").

    Returns ``([], None)`` when the text does not open with an author list; the title is None when what
    follows the authors is no title (an abbreviated journal name, as in "Smith, J. J. Am. Chem. Soc. 2019")."""
    text = " ".join(text.split())
    names: list[str] = []
    pos = 0
    while True:
        m = _AUTHOR.match(text, pos)
        if m is None:
            break
        names.append((m.group("a") or m.group("b")).strip())
        pos = m.end()
        sep = _AUTHOR_SEPARATOR.match(text, pos)
        if sep is None or sep.end() == pos:
            break
        if _AUTHOR.match(text, sep.end()) is None:
            break
        pos = sep.end()
    if not names:
        return [], None
    etal = _ET_AL.match(text, pos)
    if etal:
        pos = etal.end()
    after = _AFTER_AUTHORS.match(text, pos)
    return names, _title_after(text, after.end() if after else pos)


_JOURNAL_TAIL = re.compile(r",\s+[A-Z][a-z]{0,11}\Z")


def _title_after(text: str, pos: int) -> str | None:
    end = _TITLE_END.search(text, pos)
    title = text[pos:end.start() + (1 if end and text[end.start()] in "?!" else 0) if end else len(text)].strip()
    if end is not None and text[end.start()] == ".":
        title = _JOURNAL_TAIL.sub("", title)  # "A title, Chem. Sci." (the journal follows a comma)
    words = title.split()
    if len(words) < 3 or words[0].endswith(".") or not words[0][:1].isalpha():
        return None
    return title


def _title(works: list[_Work]) -> str | None:
    for tag in _TITLE_TAGS:
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


def _container(works: list[_Work]) -> tuple[str | None, str | None]:
    """The journal or book title (``<source>``) and the ``publication-type`` of the first work (the first
    description of it that gives them)."""
    first = works[0] if works else None
    if first is None:
        return None, None
    kind = next((e.get("publication-type") for e in first.elements if e.get("publication-type")), None)
    container = plain_text(first.container) if first.container is not None else None
    for other in works[1:]:  # a second description of the same work (not a continuation: it has a title)
        if other.is_continuation:
            continue
        if kind is None:
            kind = next((e.get("publication-type") for e in other.elements if e.get("publication-type")), None)
        if not container and other.container is not None:
            container = plain_text(other.container)
    return container or None, kind


def _year(works: list[_Work], ref_id: str, diagnostics: list[Diagnostic]) -> int | None:
    for work in works:
        found = work.year
        if found is not None:
            raw = text_of(found).strip()
            match = _YEAR.search(raw)
            if match:
                return int(match.group(1))
            diagnostics.append(Diagnostic("ref-year-unparseable",
                                          f"reference {ref_id}: year {raw[:40]!r} is not a year", found.sourceline))
            return None
    match = _YEAR.search(" ".join(text_of(e) for work in works for e in work.elements))
    return int(match.group(1)) if match else None


_GLUE = re.compile(r"(?:[A-Z][a-z]|https?:|www\.)")


def _edges_apart(pieces: list[str]) -> str:
    """The text nodes joined, with a space before a node that opens with a capitalised word or a URL right
    after a node that does not end in white space."""
    out = [pieces[0]] if pieces else []
    for previous, piece in zip(pieces, pieces[1:]):
        if piece and previous and not previous[-1].isspace() and _GLUE.match(piece):
            out.append(" ")
        out.append(piece)
    return "".join(out)


def _words(text: str | None) -> str:
    return " ".join(re.findall(r"\w+", text.lower())) if text else ""


def _same_work(a: _Work, b: _Work) -> bool:
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


def _richest(group: list[_Work]) -> _Work:
    """The description with the most structure (marked-up names and title) among those of one work."""
    return max(group, key=lambda w: (bool(w.titles), len(w.names)))


def _works(ref) -> list[list[_Work]]:
    """The works of a ``<ref>``: citation elements (alternatives grouped), continuations and second
    descriptions of the same work merged."""
    works: list[_Work] = []
    for child in ref:
        tag = child.tag
        if tag in CITATION_TAGS:
            works.append(_Work([child]))
        elif tag == "citation-alternatives":
            group = [c for c in child if c.tag in CITATION_TAGS]
            if group:
                works.append(_Work(group))
    if not works:
        nested = next(ref.iter(*CITATION_TAGS), None)
        works = [_Work([nested if nested is not None else ref])]
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
            for text in (text_of(child), child.get(_XLINK) or ""):
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

    def __init__(self, groups: list[list[_Work]], ref_id: str, line: int | None,
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


def _note(works: list[_Work], ref_id: str, line: int | None, diagnostics: list[Diagnostic]) -> None:
    """The notes and DOI conflicts met while reading ``works``, as diagnostics of reference ``ref_id``."""
    for work in works:
        for code, message in work.notes:
            diagnostics.append(Diagnostic(code, f"reference {ref_id}: {message}", line))
        for conflict in work.conflicts:
            diagnostics.append(Diagnostic("ref-doi-conflict", f"reference {ref_id}: {conflict}; "
                                          "the link text is used", line))
