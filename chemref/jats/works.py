"""One citation element (or the elements of one ``citation-alternatives``) read into a :class:`Work`: DOI and
where it was found, PMID, authors' surnames and given names, titles, container, year, notes.

DOI priority within one work: ``<pub-id pub-id-type="doi">``, then ``<ext-link>``/``<uri>`` (its text before
its href), then plain text. A DOI inside ``<comment>`` (PLOS: ``doi: <ext-link>``) is recorded with source
``comment``.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from chemref.doi import find_dois, normalize_doi
from chemref.jats.text import first_child, plain_text, text_of
from chemref.jats.unstructured import parse_unstructured_citation

__all__ = ["Work", "CITATION_TAGS", "TITLE_TAGS", "XLINK", "YEAR"]

XLINK = "{http://www.w3.org/1999/xlink}href"
CITATION_TAGS = frozenset({"mixed-citation", "element-citation", "citation", "nlm-citation"})
YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_DIGITS = re.compile(r"\d+")
# a DOI in plain text that stops at a period, hyphen or slash before a space and a further DOI-like chunk
_BROKEN_DOI = re.compile(r"(?<![0-9])10\.\d{3,9}/\S*[./\-] (?=[\w.\-]*\d)[\w.\-/]+")


def _in_comment(element) -> bool:
    parent = element.getparent()
    while parent is not None and parent.tag not in CITATION_TAGS:
        if parent.tag == "comment":
            return True
        parent = parent.getparent()
    return False


_FIELD_TAGS = ("pub-id", "ext-link", "uri", "comment", "surname", "collab", "string-name", "article-title",
               "chapter-title", "data-title", "source", "year")
TITLE_TAGS = ("article-title", "chapter-title", "data-title")


def _by_author(element) -> bool:
    """False for names in an editor / translator / inventor ``person-group``."""
    parent = element.getparent()
    if parent is not None and parent.tag == "person-group":
        role = parent.get("person-group-type")
        return not role or role == "author"
    return True


class Work:
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
        text = field.text   # plain text stripped (most names), else read through its markup
        text = plain_text(field) if len(field) or not text or "\n" in text or "  " in text else text.strip()
        if text:
            self.names.append(text)
            given = field.getnext()
            if given is None or given.tag != "given-names":
                given = first_child(name, "given-names")
            if given is None:
                self.given.append(None)
            else:
                text = given.text
                text = plain_text(given) if len(given) or not text or "\n" in text or "  " in text else text.strip()
                self.given.append(text or None)
            self._any_surname = True

    def _year(self, field) -> None:
        if self.year is None:
            self.year = field

    def _ext_link(self, field) -> None:
        """An ``<ext-link>`` / ``<uri>``: the first linked DOI (its text before its href; a disagreement noted)."""
        if self._link[0] is not None:
            return
        shown = text_of(field)
        href = field.get(XLINK) or ""
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
        for tag in TITLE_TAGS:
            found = self.titles.get(tag)
            if found is not None:
                return plain_text(found) or None
        if self.book_source is not None:
            return plain_text(self.book_source) or None
        return self.text_title

    def year_text(self) -> str | None:
        if self.year is not None:
            match = YEAR.search(text_of(self.year))
            return match.group(1) if match else None
        match = YEAR.search(" ".join(text_of(e) for e in self.elements))
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
_FIELD_READERS: dict[str, Callable[[Work, Any], None]] = {
    "pub-id": Work._pub_id, "ext-link": Work._ext_link, "uri": Work._ext_link, "comment": Work._comment,
    "surname": Work._surname, "collab": Work._collab, "string-name": Work._string_name,
    "article-title": Work._title, "chapter-title": Work._title, "data-title": Work._title,
    "source": Work._source, "year": Work._year,
}



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

