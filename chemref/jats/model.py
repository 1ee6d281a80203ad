"""The typed result of reading one JATS article: frozen value objects, offsets into paragraph text.

Every recoverable oddity met while reading is a :class:`Diagnostic` on the article, so a user
can see what was not resolved instead of losing it silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator

__all__ = [
    "SECTION_KINDS", "Diagnostic", "License", "CitationAnchor", "FormatRange", "Paragraph",
    "Section", "Reference", "Author", "ArticleDate", "Award", "Funding", "Article",
]

#: Normalised section kinds; nested sections inherit their parent's kind unless their own title is specific.
SECTION_KINDS = ("abstract", "introduction", "results", "discussion", "conclusions", "methods",
                 "materials", "protocol", "other")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something the reader met and could not use as is (code is a stable machine-readable name)."""

    code: str
    message: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class License:
    """The article's licence as found in ``article-meta/permissions``."""

    url: str | None
    text: str | None
    cc_by: bool


@dataclass(frozen=True, slots=True)
class CitationAnchor:
    """One in-text citation: ``text[start:end]`` of its paragraph and the reference ids it points to.

    A range ("[3–7]") or multi-rid citation is one anchor with several ``ref_ids`` (in reference-list
    order); an author-year citation whose year alone is linked spans the author names too.
    """

    start: int
    end: int
    text: str
    ref_ids: tuple[str, ...]
    #: The ids in ``ref_ids`` reached only by expanding a range ("3–5" -> the id of 4); empty otherwise.
    expanded: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FormatRange:
    """A rendered style over ``text[start:end]``: ``sub``, ``sup``, ``italic``, ``bold``, or ``display_formula``
    (a ``<disp-formula>`` inside the paragraph, kept as text)."""

    start: int
    end: int
    style: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Plain text of one ``<p>`` (or caption), with its citation anchors and formatting ranges."""

    text: str
    citations: tuple[CitationAnchor, ...] = ()
    formatting: tuple[FormatRange, ...] = ()
    is_caption: bool = False
    line: int | None = None
    #: Where the paragraph sits: ``p`` (running text), ``caption``, ``table`` (a table cell), ``table-foot``,
    #: ``list``, ``boxed-text``, ``disp-quote``, ``footnote``, ``statement``, ``def-list``, ``title`` (a section,
    #: appendix or box title that cites), ``attrib`` (the source line of a quote, figure or table) or ``other``.
    #: ``is_caption`` is true for everything in a figure or table (caption, cell, table footnote).
    context: str = "p"
    #: XPath of the source element (``/article/body/sec[2]/p[3]``): locates it even in one-line files.
    path: str | None = None


@dataclass(frozen=True, slots=True)
class Section:
    """A ``<sec>`` (or the body's loose paragraphs): title, normalised kind, paragraphs, subsections."""

    title: str
    kind: str
    paragraphs: tuple[Paragraph, ...] = ()
    sections: tuple["Section", ...] = ()

    def walk(self) -> Iterator[tuple["Section", Paragraph]]:
        """Yield ``(section, paragraph)`` for this section and every nested one, in document order."""
        for paragraph in self.paragraphs:
            yield self, paragraph
        for child in self.sections:
            yield from child.walk()


@dataclass(frozen=True, slots=True)
class Reference:
    """One entry of the reference list; ``doi`` is normalised (see :func:`chemref.doi.normalize_doi`).

    ``doi_source`` says where the DOI was found: ``pub-id``, ``ext-link``, ``comment`` or ``text``.
    ``ambiguous`` marks a reference that bundles several works (its ``doi`` is then None).
    """

    id: str
    doi: str | None = None
    doi_source: str | None = None
    pmid: str | None = None
    title: str | None = None
    authors: tuple[str, ...] = ()
    year: int | None = None
    ambiguous: bool = False
    #: Every DOI found, one per bundled work (for an ambiguous reference, each work's DOI).
    dois: tuple[str, ...] = ()
    #: The printed label ("12", "5a") and the source line of the ``<ref>``.
    label: str | None = None
    line: int | None = None
    #: The journal or book the work appeared in (``<source>``) and its JATS ``publication-type``
    #: (journal, book, web, data, software, patent, ...).
    container_title: str | None = None
    publication_type: str | None = None
    #: The given names of each of ``authors``, in the same order (None where the reference gives none:
    #: a group author, a name read from unstructured text).
    given_names: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Author:
    """One author of the article (``contrib-group/contrib``): a person or, with ``collab``, a group.

    ``affiliations`` are the texts of the ``<aff>`` elements the author points to through
    ``xref ref-type="aff"`` (or holds), without their labels; ``orcid`` is the bare
    ``0000-0000-0000-000X`` form.
    """

    surname: str | None = None
    given_names: str | None = None
    orcid: str | None = None
    affiliations: tuple[str, ...] = ()
    equal_contribution: bool = False
    corresponding: bool = False
    #: A group author's name (``<collab>``); None for a person.
    collab: str | None = None
    #: True when the name is written family name first (``name-style="eastern"``).
    eastern: bool = False

    @property
    def name(self) -> str:
        """The name as it is printed: given names then surname (surname first for an eastern name)."""
        if self.collab:
            return self.collab
        parts = (self.surname, self.given_names) if self.eastern else (self.given_names, self.surname)
        return " ".join(p for p in parts if p)


@dataclass(frozen=True, slots=True)
class ArticleDate:
    """One date of the article: a ``pub-date`` (``kind`` "publication") or a ``history`` date ("history").

    ``date`` is ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``; ``type`` is the ``pub-type`` or ``date-type``
    (epub, ppub, collection, received, accepted, ...) and ``publication_format`` the JATS 1.1+
    ``publication-format`` (print, electronic).
    """

    kind: str
    date: str
    type: str | None = None
    publication_format: str | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """One ``award-group`` of ``funding-group``: who funds it and its grant numbers."""

    funders: tuple[str, ...] = ()
    award_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Funding:
    """The article's funding: ``funding-statement`` texts (and funding footnotes) and award groups."""

    statements: tuple[str, ...] = ()
    awards: tuple[Award, ...] = ()


@dataclass(frozen=True)
class Article:
    """One JATS article as read by :func:`chemref.read_jats`."""

    file: str | None
    pmcid: str | None
    pmid: str | None
    doi: str | None
    title: str | None
    journal: str | None
    year: int | None
    license: License
    sections: tuple[Section, ...]
    references: tuple[Reference, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    abstracts: tuple[Section, ...] = field(default=())
    #: Back matter and floating material outside ``<body>``: appendices, acknowledgements, notes and
    #: figures/tables in ``<floats-group>``; not part of :meth:`paragraphs` unless asked for.
    back: tuple[Section, ...] = field(default=())
    #: Where the article sits in its file when it is not the file's only one: the XPath of its element
    #: (``/articles/article[2]`` in a PMC ``<articles>`` file, ``/article/sub-article[1]`` for a sub-article
    #: read as an article of its own); None for the file's only article.
    part: str | None = None
    #: The ``@article-type`` of the ``<article>`` (research-article, review-article, ...).
    article_type: str | None = None
    authors: tuple[Author, ...] = ()
    #: Every ``kwd`` of the article's keyword groups, in order, each once.
    keywords: tuple[str, ...] = ()
    #: Every ``subject`` of ``article-categories`` (headings and nested groups), in order, each once.
    subjects: tuple[str, ...] = ()
    #: Every publication and history date, in document order.
    dates: tuple[ArticleDate, ...] = ()
    funding: Funding = field(default=Funding())
    #: The main abstract as one string: its paragraphs joined by spaces (None without an abstract).
    abstract_text: str | None = None

    @cached_property
    def references_by_id(self) -> dict[str, Reference]:
        """Reference id -> reference, for resolving anchors."""
        return {ref.id: ref for ref in self.references}

    def paragraphs(self, *, include_abstracts: bool = False,
                   include_back: bool = False) -> Iterator[tuple[Section, Paragraph]]:
        """Yield ``(section, paragraph)`` over the body (and abstracts / back matter if asked) in document order."""
        if include_abstracts:
            for section in self.abstracts:
                yield from section.walk()
        for section in self.sections:
            yield from section.walk()
        if include_back:
            for section in self.back:
                yield from section.walk()

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``chemref jats --json`` (one object per article): every field, so that
        :meth:`from_dict` gives the same Article back."""
        return {
            "file": self.file,
            "pmcid": self.pmcid,
            "pmid": self.pmid,
            "doi": self.doi,
            "title": self.title,
            "journal": self.journal,
            "year": self.year,
            "license": {"url": self.license.url, "text": self.license.text, "cc_by": self.license.cc_by},
            "abstracts": [_section_dict(s) for s in self.abstracts],
            "sections": [_section_dict(s) for s in self.sections],
            "back": [_section_dict(s) for s in self.back],
            "references": [
                {"id": r.id, "doi": r.doi, "doi_source": r.doi_source, "pmid": r.pmid, "title": r.title,
                 "authors": list(r.authors), "year": r.year, "ambiguous": r.ambiguous,
                 "container_title": r.container_title, "publication_type": r.publication_type,
                 "dois": list(r.dois), "label": r.label, "line": r.line, "given_names": list(r.given_names)}
                for r in self.references
            ],
            "diagnostics": [{"code": d.code, "message": d.message, "line": d.line} for d in self.diagnostics],
            "part": self.part,
            "article_type": self.article_type,
            "authors": [{"given_names": a.given_names, "surname": a.surname, "orcid": a.orcid,
                         "affiliations": list(a.affiliations), "equal_contribution": a.equal_contribution,
                         "corresponding": a.corresponding, "collab": a.collab, "eastern": a.eastern}
                        for a in self.authors],
            "keywords": list(self.keywords),
            "subjects": list(self.subjects),
            "dates": [{"kind": d.kind, "date": d.date, "type": d.type, "publication_format": d.publication_format}
                      for d in self.dates],
            "funding": {"statements": list(self.funding.statements),
                        "awards": [{"funders": list(a.funders), "award_ids": list(a.award_ids)}
                                   for a in self.funding.awards]},
            "abstract_text": self.abstract_text,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Article":
        """The Article of a :meth:`to_dict` object (a ``chemref jats --json`` line); keys that a record
        written before a field existed lacks take that field's default."""
        lic = data.get("license") or {}
        funding = data.get("funding") or {}
        return cls(
            file=data.get("file"), pmcid=data.get("pmcid"), pmid=data.get("pmid"), doi=data.get("doi"),
            title=data.get("title"), journal=data.get("journal"), year=data.get("year"),
            license=License(lic.get("url"), lic.get("text"), bool(lic.get("cc_by"))),
            sections=tuple(_section_from(s) for s in data.get("sections", ())),
            references=tuple(
                Reference(r["id"], r.get("doi"), r.get("doi_source"), r.get("pmid"), r.get("title"),
                          tuple(r.get("authors", ())), r.get("year"), bool(r.get("ambiguous")),
                          tuple(r.get("dois", ())), r.get("label"), r.get("line"), r.get("container_title"),
                          r.get("publication_type"), tuple(r.get("given_names", ())))
                for r in data.get("references", ())),
            diagnostics=tuple(Diagnostic(d["code"], d["message"], d.get("line")) for d in data.get("diagnostics", ())),
            abstracts=tuple(_section_from(s) for s in data.get("abstracts", ())),
            back=tuple(_section_from(s) for s in data.get("back", ())),
            part=data.get("part"),
            article_type=data.get("article_type"),
            authors=tuple(Author(a.get("surname"), a.get("given_names"), a.get("orcid"),
                                 tuple(a.get("affiliations", ())), bool(a.get("equal_contribution")),
                                 bool(a.get("corresponding")), a.get("collab"), bool(a.get("eastern")))
                          for a in data.get("authors", ())),
            keywords=tuple(data.get("keywords", ())),
            subjects=tuple(data.get("subjects", ())),
            dates=tuple(ArticleDate(d["kind"], d["date"], d.get("type"), d.get("publication_format"))
                        for d in data.get("dates", ())),
            funding=Funding(tuple(funding.get("statements", ())),
                            tuple(Award(tuple(a.get("funders", ())), tuple(a.get("award_ids", ())))
                                  for a in funding.get("awards", ()))),
            abstract_text=data.get("abstract_text"),
        )


def _section_dict(sec: Section) -> dict[str, Any]:
    return {
        "title": sec.title,
        "kind": sec.kind,
        "paragraphs": [
            {
                "text": p.text,
                "is_caption": p.is_caption,
                "citations": [
                    {"start": c.start, "end": c.end, "text": c.text, "ref_ids": list(c.ref_ids),
                     "expanded": list(c.expanded)}
                    for c in p.citations
                ],
                "formatting": [{"start": f.start, "end": f.end, "style": f.style} for f in p.formatting],
                "line": p.line,
                "context": p.context,
                "path": p.path,
            }
            for p in sec.paragraphs
        ],
        "sections": [_section_dict(s) for s in sec.sections],
    }


def _section_from(data: dict[str, Any]) -> Section:
    return Section(
        data.get("title", ""), data.get("kind", "other"),
        tuple(Paragraph(p["text"],
                        tuple(CitationAnchor(c["start"], c["end"], c["text"], tuple(c.get("ref_ids", ())),
                                             tuple(c.get("expanded", ()))) for c in p.get("citations", ())),
                        tuple(FormatRange(f["start"], f["end"], f["style"]) for f in p.get("formatting", ())),
                        bool(p.get("is_caption")), p.get("line"), p.get("context", "p"), p.get("path"))
              for p in data.get("paragraphs", ())),
        tuple(_section_from(s) for s in data.get("sections", ())),
    )


def _reduce_positional(self: Any) -> tuple[type, tuple[Any, ...]]:
    """Pickle as ``cls(*fields)``: several times faster than the dataclass default for frozen slots
    classes, which matters when ``read_many`` ships articles back from worker processes."""
    return type(self), tuple([getattr(self, name) for name in self.__slots__])


for _cls in (Diagnostic, License, CitationAnchor, FormatRange, Paragraph, Section, Reference, Author, ArticleDate,
             Award, Funding):
    _cls.__reduce__ = _reduce_positional  # type: ignore[method-assign]
del _cls
