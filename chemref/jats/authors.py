"""The article's authors from ``contrib-group``: names, ORCID, affiliations, equal contribution, corresponding.

* a person's name is ``<name>`` (the first of ``<name-alternatives>``) or ``<string-name>`` (its parts, or its
  text split: "Smith, John A.", "Smith JA", "John A. Smith"); ``name-style="eastern"`` is kept;
* a group author is ``<collab>`` (its members, in a nested ``contrib-group``, are not authors of their own);
* affiliations are resolved through ``xref ref-type="aff"`` (rids naming an ``<aff>`` or ``<aff-alternatives>``
  anywhere in the front matter), or held inside the contrib; with no aff xref in the whole article, every
  author gets the affiliations of their contrib-group (or of the article-meta). An affiliation is the text of
  its ``<aff>`` without label and ``institution-id``, its parts joined by ", " where the markup gives no
  separator;
* ORCID from ``contrib-id`` or an ``ext-link``/``uri``, normalised to ``0000-0000-0000-000X`` and checked
  (ISO 7064 check digit); a malformed one is left out with an ``orcid-invalid`` diagnostic;
* corresponding author: ``@corresp="yes"`` or an xref to a ``<corresp>`` (``ref-type="corresp"`` or any
  xref whose rid names one); equal contribution: ``@equal-contrib="yes"`` or an xref to a footnote of
  ``fn-type="equal"`` or one that says so ("contributed equally", "equal contribution", "co-first").
"""

from __future__ import annotations

import re
from typing import Any, Callable

from chemref.errors import printable
from chemref.jats.model import Author, Diagnostic
from chemref.jats.text import first_child, plain_text, text_of

__all__ = ["read_authors", "normalize_orcid", "split_string_name", "affiliation_text"]

_XLINK = "{http://www.w3.org/1999/xlink}href"
_ORCID = re.compile(r"(\d{4})[-\s]?(\d{4})[-\s]?(\d{4})[-\s]?(\d{3}[\dXx])(?![\dXx])")
_EQUAL = re.compile(r"contributed\s+equally|equal(?:ly)?\s+contribut|equal\s+first|joint\s+first|co-?first|"
                    r"shared\s+first|these\s+authors\s+(?:have\s+)?contributed\s+equally", re.I)
_AUTHOR_TYPES = (None, "author", "Author", "AUTHOR")
_SKIP_IN_AFF = frozenset({"label", "institution-id"})
_LABEL_LIKE = frozenset({"sup", "bold", "italic"})
_SEPARATED = re.compile(r"[,;:]\s*$")
# the parts of an address: side by side with no separator, they are joined by ", "
_AFF_PARTS = frozenset({"institution", "institution-wrap", "addr-line", "country", "city", "state", "postal-code",
                        "named-content", "email"})
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;.:)])")
# "Smith JA", "Smith J-P": a surname and initials
_INITIALS = re.compile(r"^(?P<surname>.+?)\s+(?P<given>(?:[A-Z]\.?-?){1,4})$")


def normalize_orcid(value: str) -> str | None:
    """The ``0000-0000-0000-000X`` form of an ORCID iD written as a bare id or a URL, or None when ``value``
    holds none or its check digit is wrong."""
    match = _ORCID.search(value)
    if match is None:
        return None
    digits = "".join(match.groups()).upper()
    total = 0
    for ch in digits[:-1]:
        total = (total + int(ch)) * 2
    check = (12 - total % 11) % 11
    if digits[-1] != ("X" if check == 10 else str(check)):
        return None
    return "-".join(match.groups()).upper()


def split_string_name(text: str) -> tuple[str | None, str | None]:
    """``(surname, given names)`` of a name written as one string: "Smith, John A.", "Smith JA", "John A. Smith"
    (the last word is the surname); one word is a surname."""
    text = " ".join(text.split()).strip(" ,;")
    if not text:
        return None, None
    if "," in text:
        surname, _, given = text.partition(",")
        return surname.strip() or None, given.strip() or None
    match = _INITIALS.match(text)
    if match:
        return match.group("surname"), match.group("given")
    head, _, last = text.rpartition(" ")
    return last, head or None


def affiliation_text(aff) -> str:
    """The text of an ``<aff>`` without its label or institution ids; parts the markup puts side by side with
    no separator are joined by ", "."""
    parts: list[str] = []
    _aff_parts(aff, parts, top=True)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join(" ".join(parts).split()))
    return text.strip(" ,;.") if text else ""


def _aff_parts(element, parts: list[str], top: bool) -> None:
    def add(text: str | None) -> None:
        if text and text.strip():
            parts.append(text.strip())

    add(element.text)
    first = top and not (element.text or "").strip()
    for child in element:
        tag = child.tag
        if tag.__class__ is str:
            if tag in _SKIP_IN_AFF or (first and tag in _LABEL_LIKE and len(plain_text(child)) <= 4):
                pass  # a label, or a short leading <sup>/<bold> standing for one ("1", "a", "*")
            else:
                if tag in _AFF_PARTS and parts and not _SEPARATED.search(parts[-1]):
                    parts[-1] += ","
                if tag in ("institution-wrap", "addr-line") and len(child):
                    _aff_parts(child, parts, top=False)
                else:
                    add(plain_text(child))
            first = False
        add(child.tail)
        if child.tail and child.tail.strip():
            first = False


def _collab_text(collab) -> str:
    """A ``<collab>``'s name, without the member list (a nested contrib-group) some publishers put inside."""
    if not len(collab):
        return " ".join((collab.text or "").split())
    pieces = [collab.text or ""]
    for child in collab:
        if child.tag not in ("contrib-group", "contrib", "xref", "sup"):
            pieces.append(plain_text(child))
        pieces.append(child.tail or "")
    return " ".join("".join(pieces).split())


class _Front:
    """Lookups over the front matter, built once per article: affiliations and notes by id."""

    __slots__ = ("affs", "notes", "corresp", "any_aff_xref")

    def __init__(self, meta) -> None:
        self.affs: dict[str, str] = {}
        self.notes: dict[str, Any] = {}        # fn id -> fn element, or whether it marks equal contribution
        self.corresp: set[str] = set()
        self.any_aff_xref = False
        for element in meta.iter("aff", "aff-alternatives", "fn", "corresp", "xref"):
            tag = element.tag
            if tag == "xref":
                if element.get("ref-type") == "aff":
                    self.any_aff_xref = True
                continue
            ident = element.get("id")
            if tag == "aff":
                if ident and ident not in self.affs:
                    self.affs[ident] = affiliation_text(element)
            elif tag == "aff-alternatives":
                first = first_child(element, "aff")
                if ident and first is not None:
                    self.affs[ident] = affiliation_text(first)
            elif tag == "fn":
                if ident:
                    self.notes[ident] = element
            elif ident:
                self.corresp.add(ident)

    def equal_note(self, rid: str) -> bool:
        """Whether the footnote ``rid`` says its authors contributed equally (read once per footnote)."""
        note = self.notes.get(rid)
        if note is None or note.__class__ is bool:
            return bool(note)
        equal = note.get("fn-type") == "equal" or _EQUAL.search(text_of(note)) is not None
        self.notes[rid] = equal
        return equal


def _group_affs(group, meta, front: _Front) -> tuple[str, ...]:
    """The affiliations that apply to every author of ``group`` when the article links none."""
    own = [front.affs.get(a.get("id")) or affiliation_text(a) for a in group if a.tag == "aff"]
    if not own:
        own = [front.affs.get(a.get("id")) or affiliation_text(a) for a in meta if a.tag == "aff"]
    return tuple(dict.fromkeys(a for a in own if a))


def read_authors(meta, diagnostics: list[Diagnostic]) -> tuple[Author, ...]:
    """The authors of an ``<article-meta>`` (or ``<front-stub>``), in order; None gives none."""
    if meta is None:
        return ()
    groups = [g for g in meta if g.tag == "contrib-group"]
    if not groups:
        return ()
    front = _Front(meta)
    out: list[Author] = []
    for group in groups:
        shared: tuple[str, ...] | None = None
        for contrib in group:
            if contrib.tag != "contrib" or contrib.get("contrib-type") not in _AUTHOR_TYPES:
                continue
            author = _author(contrib, front, diagnostics)
            if author is None:
                continue
            if not author.affiliations and not front.any_aff_xref:
                if shared is None:
                    shared = _group_affs(group, meta, front)
                if shared:
                    author = Author(author.surname, author.given_names, author.orcid, shared,
                                    author.equal_contribution, author.corresponding, author.collab, author.eastern)
            out.append(author)
    return tuple(out)


def _author(contrib, front: _Front, diagnostics: list[Diagnostic]) -> Author | None:
    """The author of one ``<contrib>``, each child read by the reader of its tag; None without a name."""
    fields = _Contributor(contrib, front, diagnostics)
    for child in contrib:
        reader = _CONTRIB_READERS.get(child.tag)
        if reader is not None:
            reader(fields, child)
    return fields.author()


class _Contributor:
    """The fields of one ``<contrib>`` while its children are read."""

    __slots__ = ("front", "diagnostics", "surname", "given", "orcid", "collab", "eastern", "affs",
                 "corresponding", "equal")

    def __init__(self, contrib, front: _Front, diagnostics: list[Diagnostic]) -> None:
        self.front = front
        self.diagnostics = diagnostics
        self.surname: str | None = None
        self.given: str | None = None
        self.orcid: str | None = None
        self.collab: str | None = None
        self.eastern = False
        self.affs: list[str] = []
        self.corresponding = contrib.get("corresp") == "yes"
        self.equal = contrib.get("equal-contrib") == "yes"

    def author(self) -> Author | None:
        if self.surname is None and self.given is None and self.collab is None:
            return None
        return Author(self.surname, self.given, self.orcid, tuple(dict.fromkeys(self.affs)), self.equal,
                      self.corresponding, self.collab, self.eastern)

    def name(self, child) -> None:
        """``<name>``, ``<string-name>`` or the first of ``<name-alternatives>`` (the first name given wins)."""
        if self.surname is not None or self.given is not None:
            return
        if child.tag == "name-alternatives":
            child = next((n for n in child if n.tag in ("name", "string-name")), None)
            if child is None:
                return
        self.eastern = child.get("name-style") == "eastern"
        surname_el = first_child(child, "surname")
        given_el = first_child(child, "given-names")
        if surname_el is not None or given_el is not None:
            self.surname = plain_text(surname_el) or None if surname_el is not None else None
            self.given = plain_text(given_el) or None if given_el is not None else None
        elif child.tag == "string-name":
            self.surname, self.given = split_string_name(plain_text(child))

    def group_name(self, child) -> None:
        """``<collab>`` or the first ``<collab>`` of ``<collab-alternatives>``."""
        if child.tag == "collab-alternatives":
            child = first_child(child, "collab")
        if child is not None and self.collab is None:
            self.collab = _collab_text(child) or None

    def xref(self, child) -> None:
        """An xref to an affiliation, a correspondence note or an equal-contribution footnote."""
        kind = child.get("ref-type")
        front = self.front
        for rid in (child.get("rid") or "").split():
            if kind == "aff":
                text = front.affs.get(rid)
                if text:
                    self.affs.append(text)
                elif text is None:
                    self.diagnostics.append(Diagnostic("aff-unknown-rid", f"author affiliation xref points to "
                                                       f"{printable(rid[:40])!r}, which names no <aff>",
                                                       child.sourceline))
            elif kind == "corresp" or rid in front.corresp:
                self.corresponding = True
            elif front.equal_note(rid):
                self.equal = True

    def aff(self, child) -> None:
        text = affiliation_text(child)
        if text:
            self.affs.append(text)

    def contrib_id(self, child) -> None:
        if self.orcid is None and ((child.get("contrib-id-type") or "").lower() == "orcid"
                                   or "orcid" in (child.text or "")):
            self.orcid = _orcid(plain_text(child), child, self.diagnostics)

    def link(self, child) -> None:
        """An ``<ext-link>`` / ``<uri>`` to an ORCID iD."""
        href = child.get(_XLINK) or ""
        kind = (child.get("ext-link-type") or child.get("content-type") or "").lower()
        if self.orcid is None and (kind == "orcid" or "orcid.org" in href):
            self.orcid = _orcid(href or plain_text(child), child, self.diagnostics)


#: The reader of each child tag of a ``<contrib>`` (other children say nothing about the author).
_CONTRIB_READERS: dict[Any, Callable[[_Contributor, Any], None]] = {
    "name": _Contributor.name, "name-alternatives": _Contributor.name, "string-name": _Contributor.name,
    "collab": _Contributor.group_name, "collab-alternatives": _Contributor.group_name,
    "xref": _Contributor.xref, "aff": _Contributor.aff, "contrib-id": _Contributor.contrib_id,
    "ext-link": _Contributor.link, "uri": _Contributor.link,
}


def _orcid(value: str, element, diagnostics: list[Diagnostic]) -> str | None:
    orcid = normalize_orcid(value)
    if orcid is None and value.strip():
        diagnostics.append(Diagnostic("orcid-invalid", f"ORCID {printable(value.strip()[:60])!r} is not a valid "
                                      "ORCID iD (16 digits with a check digit): left out", element.sourceline))
    return orcid
