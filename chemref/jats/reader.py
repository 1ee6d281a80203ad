"""``read`` one JATS article into an :class:`Article`; ``read_many`` streams many, optionally in processes.

One article is one pure task (bytes in, Article out). Nothing is lost: every body ``<p>``, every
``<ref>`` and every citation ``<xref>`` ends up in the Article or is named in its diagnostics.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import replace
from html.entities import name2codepoint
from typing import Any, Callable, Iterable, Iterator, Literal, TypeVar

from lxml import etree

from chemref._io.limits import read_limited
from chemref.errors import UNEXPECTED, InputError, JatsError
from chemref.inputs.source import Source
from chemref.inputs.sources import iter_sources
from chemref.jats.citations import RangeBudget, resolve_anchors
from chemref.jats.license import read_license
from chemref.jats.metadata import read_meta, read_metadata
from chemref.jats.model import Article, Diagnostic, FormatRange, Paragraph, Section
from chemref.jats.parser import parse_articles
from chemref.jats.references import ReferenceList, read_references
from chemref.jats.sections import section_kind
from chemref.jats.text import BLOCK_TAGS, TextBuilder, first_child, plain_text
from chemref.pool import ordered_map

__all__ = ["read", "read_articles", "read_many", "map_articles"]

_CITATION_TYPES = frozenset({"bibr", "ref"})
_SECTION_TAGS = frozenset({"sec", "app", "ack", "notes", "bio"})
# Container -> the context its paragraphs get (inside a figure or table the caption context wins).
_CONTEXTS = {
    "list": "list", "boxed-text": "boxed-text", "disp-quote": "disp-quote", "fn-group": "footnote",
    "fn": "footnote", "statement": "statement", "def-list": "def-list", "table-wrap-foot": "table-foot",
    "glossary": "def-list", "speech": "other", "verse-group": "other", "question-wrap": "other",
}
_FLOATS = frozenset({"fig", "fig-group", "table-wrap", "table-wrap-group", "chem-struct-wrap",
                     "supplementary-material", "media", "table", "array"})
# Block-level elements with nothing to read as paragraphs (a title is read as one only when it holds a citation).
_IGNORED = frozenset({"label", "sec-meta", "object-id", "alt-text", "long-desc", "graphic",
                      "ref-list", "permissions", "kwd-group", "subtitle"})
_MATHML = "{http://www.w3.org/1998/Math/MathML}"
# Foreign-namespace containers read as sections (TaxPub's treatment sections); other foreign elements that
# hold JATS markup (TaxPub's taxon treatments, nomenclature) are read through.
_FOREIGN_SECTIONS = frozenset({"{http://www.plazi.org/taxpub}treatment-sec"})


def _children(element, path: str) -> list[tuple[Any, str]]:
    """The element children of ``element`` with their XPaths (``p[2]``; no index when the tag is unique),
    the same strings lxml's ``getpath`` gives, without its per-call walk up the tree."""
    tags: dict[str, int] = {}
    kids = []
    foreign = False
    for child in element:
        tag = child.tag
        if tag.__class__ is str:
            if tag[0] == "{":
                if tag.startswith(_MATHML):
                    continue
                foreign = True
            tags[tag] = tags.get(tag, 0) + 1
            kids.append(child)
    if len(tags) == len(kids) and not foreign:
        return [(child, f"{path}/{child.tag}") for child in kids]
    seen: dict[str, int] = {}
    out = []
    for child in kids:
        tag = child.tag
        name = tag if tag[0] != "{" or not child.prefix else f"{child.prefix}:{tag.partition('}')[2]}"
        if tag[0] == "{" and not child.prefix:
            out.append((child, child.getroottree().getpath(child)))
        elif tags[tag] == 1:
            out.append((child, f"{path}/{name}"))
        else:
            n = seen[tag] = seen.get(tag, 0) + 1
            out.append((child, f"{path}/{name}[{n}]"))
    return out


def _no_path(element: Any) -> str:
    """The placeholder of :attr:`_ArticleReader.getpath` until an article's path function is set."""
    raise RuntimeError("the article's path function is not set")


class _ArticleReader:
    """The state of reading one article: its references, diagnostics and what was consumed."""

    def __init__(self, refs: ReferenceList, diagnostics: list[Diagnostic]) -> None:
        self.refs = refs
        self.diagnostics = diagnostics
        self.consumed: list = []        # citation xref elements placed in paragraphs
        self.visited_p: list = []       # the <p> elements read as paragraphs
        self.getpath: Callable[[Any], str] = _no_path
        self.ranges = RangeBudget()     # what the article's citation ranges may still add

    def is_citation(self, xref) -> bool:
        kind = xref.get("ref-type")
        if kind in _CITATION_TYPES:
            return True
        if kind:
            return False
        rids = (xref.get("rid") or "").split()
        return bool(rids) and all(self.refs.resolve(r) is not None for r in rids)

    def paragraph(self, element, context: str, is_caption: bool, out: list[Paragraph], path: str) -> list:
        builder = TextBuilder(self.is_citation)
        builder.walk(element)
        if element.tag == "p":
            self.visited_p.append(element)
        return self._finish(builder, element, context, is_caption, out, path)

    def _finish(self, builder: TextBuilder, element, context: str, is_caption: bool, out: list[Paragraph],
                path: str) -> list:
        text = builder.text()
        if builder.xrefs:
            self.consumed.extend(event.element for event in builder.xrefs)
            anchors = resolve_anchors(text, builder.xrefs, self.refs, self.diagnostics, self.ranges)
        else:
            anchors = ()
        if text or anchors:
            formatting = tuple(FormatRange(s, e, style) for s, e, style in sorted(builder.formatting))
            out.append(Paragraph(text, anchors, formatting, is_caption, element.sourceline, context, path))
        return builder.blocks

    def row(self, row, out: list[Paragraph], path: str) -> list:
        """One table row as one paragraph: its non-empty cells joined by " | " (context ``table``)."""
        builder = TextBuilder(self.is_citation)
        for cell in row:
            if cell.tag not in ("td", "th"):
                continue
            mark, pos, n_xrefs, space = len(builder.parts), builder.pos, len(builder.xrefs), builder.space
            if pos:
                builder.add(" | ")
            builder.walk(cell)
            if len(builder.xrefs) == n_xrefs and not "".join(builder.parts[mark + (1 if pos else 0):]).strip():
                del builder.parts[mark:]   # an empty cell leaves no separator behind
                builder.pos = pos
                builder.space = space
                builder.formatting = [f for f in builder.formatting if f[0] < pos]
        return self._finish(builder, row, "table", True, out, path)

    def has_citation(self, element) -> bool:
        """True when a citation xref sits anywhere inside ``element``."""
        return len(element) > 0 and any(self.is_citation(x) for x in element.iter("xref"))

    def block(self, element, kind: str, paragraphs: list[Paragraph], sections: list[Section],
              context: str, is_caption: bool, path: str) -> None:
        tag = element.tag
        if tag.__class__ is not str or tag in _IGNORED:
            return
        if tag[0] == "{":
            self.foreign(element, kind, paragraphs, sections, context, is_caption, path)
            return
        if tag == "title":  # a title is text of its own only when it cites (section and appendix titles)
            if self.has_citation(element):
                for nested in self.paragraph(element, "title", is_caption, paragraphs, path):
                    self.block(nested, kind, paragraphs, sections, "title", is_caption, self.getpath(nested))
            return
        if tag == "attrib":  # the source line of a quote, figure or table
            for nested in self.paragraph(element, "attrib", is_caption, paragraphs, path):
                self.block(nested, kind, paragraphs, sections, "attrib", is_caption, self.getpath(nested))
            return
        if tag == "p":
            for nested in self.paragraph(element, context, is_caption, paragraphs, path):
                self.block(nested, kind, paragraphs, sections, _CONTEXTS.get(nested.tag, context), is_caption,
                           self.getpath(nested))
            return
        if tag in _SECTION_TAGS:
            sections.append(self.section(element, kind, path))
            return
        if tag == "caption":
            for child, child_path in _children(element, path):
                if child.tag in ("title", "p"):
                    for nested in self.paragraph(child, "caption", True, paragraphs, child_path):
                        self.block(nested, kind, paragraphs, sections, "caption", True, self.getpath(nested))
                else:
                    self.block(child, kind, paragraphs, sections, "caption", True, child_path)
            return
        if tag == "tr":
            for nested in self.row(element, paragraphs, path):
                self.block(nested, kind, paragraphs, sections, "table", True, self.getpath(nested))
            return
        if tag in ("td", "th"):  # a cell outside any row
            for nested in self.paragraph(element, "table", True, paragraphs, path):
                self.block(nested, kind, paragraphs, sections, "table", True, self.getpath(nested))
            return
        if tag in _FLOATS:
            is_caption = True
            context = "table" if tag in ("table", "array") else context
        elif tag in _CONTEXTS:
            context = _CONTEXTS[tag] if not is_caption or tag == "table-wrap-foot" else context
        for child, child_path in _children(element, path):
            self.block(child, kind, paragraphs, sections, context, is_caption, child_path)

    def foreign(self, element, kind: str, paragraphs: list[Paragraph], sections: list[Section],
                context: str, is_caption: bool, path: str) -> None:
        """A foreign-namespace element among blocks (TaxPub): a section, a container read through, or, when it
        holds only inline content with a citation, a paragraph of its own (context ``other``)."""
        tag = element.tag
        if tag.startswith(_MATHML):
            return
        if tag in _FOREIGN_SECTIONS:
            sections.append(self.section(element, kind, path))
            return
        children = [c for c in element if c.tag.__class__ is str]
        if any(c.tag in BLOCK_TAGS or c.tag == "title" or (c.tag[0] == "{" and not c.tag.startswith(_MATHML))
               for c in children):
            for child, child_path in _children(element, path):
                self.block(child, kind, paragraphs, sections, context, is_caption, child_path)
        elif self.has_citation(element):
            for nested in self.paragraph(element, "other", is_caption, paragraphs, path):
                self.block(nested, kind, paragraphs, sections, "other", is_caption, self.getpath(nested))

    def section(self, element, parent_kind: str | None, path: str) -> Section:
        title_el = first_child(element, "title")
        title = plain_text(title_el) if title_el is not None else ""
        if parent_kind == "abstract":
            kind = "abstract"
        else:
            kind = section_kind(title, element.get("sec-type"), parent_kind)
        paragraphs: list[Paragraph] = []
        sections: list[Section] = []
        for child, child_path in _children(element, path):
            self.block(child, kind, paragraphs, sections, "p", False, child_path)
        return Section(title, kind, tuple(paragraphs), tuple(sections))

    def body(self, body) -> tuple[Section, ...]:
        out: list[Section] = []
        loose: list[Paragraph] = []
        loose_sections: list[Section] = []
        seen_section = False

        def flush(leading: bool) -> None:
            if loose or loose_sections:
                kind = "introduction" if leading else "other"
                out.append(Section("", kind, tuple(loose), tuple(loose_sections)))
                loose.clear()
                loose_sections.clear()

        for child, path in _children(body, self.getpath(body)):
            if child.tag == "sec":
                flush(leading=not seen_section)
                seen_section = True
                out.append(self.section(child, None, path))
            else:
                self.block(child, "other", loose, loose_sections, "p", False, path)
        flush(leading=False)  # trailing (or the only) untitled text is not called an introduction
        return tuple(out)

    def check_body(self, body) -> int:
        """Name in diagnostics every citation xref and <p> of the body that is not in a paragraph;
        returns the number of citation xrefs in the body."""
        xrefs = [x for x in body.iter("xref") if self.is_citation(x)]
        if len(xrefs) != len(self.consumed):
            consumed = set(self.consumed)
            for xref in xrefs:
                if xref not in consumed:
                    parent = xref.getparent()
                    self.diagnostics.append(Diagnostic(
                        "citation-outside-paragraph",
                        f"citation xref rid={xref.get('rid')!r} inside <{parent.tag}> is not in any paragraph",
                        xref.sourceline))
        n_p = int(_COUNT_P(body))
        if n_p != len(self.visited_p):
            visited = set(self.visited_p)
            skipped = [p for p in body.iter("p") if p not in visited]
            where: dict[str, int] = {}
            for p in skipped:
                parent = p.getparent()
                name = _prefixed(parent) if parent is not None else "?"
                where[name] = where.get(name, 0) + 1
            shown = ", ".join(f"<{name}> ({n})" for name, n in sorted(where.items(), key=lambda kv: -kv[1])[:4])
            self.diagnostics.append(Diagnostic(
                "paragraph-skipped", f"{len(skipped)} <p> element(s) of the body sit where no paragraph is read: "
                f"inside {shown}", skipped[0].sourceline if skipped else body.sourceline))
        return len(xrefs)


_COUNT_P = etree.XPath("count(.//p)")


def _prefixed(element) -> str:
    """``tp:nomenclature`` for a namespaced element, its tag otherwise."""
    tag = element.tag
    if tag.__class__ is not str:
        return "?"
    if tag[0] == "{":
        return f"{element.prefix}:{tag.partition('}')[2]}" if element.prefix else tag.partition("}")[2]
    return tag


def _abstracts(reader: _ArticleReader, meta) -> tuple[tuple[Section, ...], str | None]:
    """The abstracts (translated ones too) as sections, and the main abstract's text (the first ``<abstract>``
    without an ``abstract-type``, else the first ``<abstract>``): its paragraphs joined by spaces."""
    if meta is None:
        return (), None
    out: list[Section] = []
    main: Section | None = None
    main_typed = True
    for element in meta:
        tag = element.tag
        if tag != "abstract" and tag != "trans-abstract":
            continue
        section = reader.section(element, "abstract", reader.getpath(element))
        kind = element.get("abstract-type")
        title = section.title or (kind or "Abstract").replace("-", " ").capitalize()
        out.append(Section(title, "abstract", section.paragraphs, section.sections))
        if tag == "abstract" and (main is None or (main_typed and not kind)):
            main, main_typed = section, bool(kind)
    text = " ".join(p.text for _, p in main.walk()) if main is not None else None
    return tuple(out), text or None


def _back(reader: _ArticleReader, back, floats) -> tuple[Section, ...]:
    out: list[Section] = []
    for container in (back, floats):
        if container is None:
            continue
        loose: list[Paragraph] = []
        for child, path in _children(container, reader.getpath(container)):
            tag = child.tag
            if tag in ("ref-list", "label", "title"):
                continue
            if tag in _SECTION_TAGS or tag in ("app-group", "fn-group", "glossary"):
                section = reader.section(child, None, path)
                if not section.title:
                    default = {"ack": "Acknowledgements", "fn-group": "Footnotes", "app-group": "Appendices",
                               "glossary": "Glossary", "notes": "Notes"}.get(tag, "")
                    section = Section(default, section.kind, section.paragraphs, section.sections)
                if section.paragraphs or section.sections:
                    out.append(section)
            else:
                extra: list[Section] = []
                reader.block(child, "other", loose, extra, "p", False, path)
                out.extend(extra)
        if loose:
            out.append(Section("Floating figures and tables" if container is floats else "", "other",
                               tuple(loose)))
    return tuple(out)


def _check_entities(article, diagnostics: list[Diagnostic]) -> None:
    """A diagnostic for entity references left unexpanded (internal DTD entities are never expanded; HTML
    names such as ``&alpha;`` are read as their characters): the text keeps them as written."""
    unexpanded = [e for e in article.iter(etree.Entity) if e.name not in name2codepoint]
    if unexpanded:
        names = sorted({f"&{e.name};" for e in unexpanded})
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        diagnostics.append(Diagnostic(
            "entity-unexpanded", f"{len(unexpanded)} reference(s) to entities that are not expanded ({shown}) "
            "are left in the text as written (entities declared in a DTD are never expanded)",
            unexpanded[0].sourceline))


def _sub_articles(article) -> list:
    """Every ``<sub-article>`` / ``<response>`` inside ``article`` (nested ones too), in document order."""
    return [e for e in article.iter("sub-article", "response") if e is not article]


def _read_body(reader: _ArticleReader, body, refs: ReferenceList, diagnostics: list[Diagnostic],
               where) -> tuple[Section, ...]:
    if body is None:
        diagnostics.append(Diagnostic("no-body", "the article has no <body> (metadata or abstract only)",
                                      where.sourceline))
        return ()
    reader.consumed = []
    reader.visited_p = []
    sections = reader.body(body)
    n_citations = reader.check_body(body)
    if refs.references and not n_citations:
        diagnostics.append(Diagnostic(
            "no-citation-markup", f"{len(refs.references)} references but no citation <xref> in the body; "
            "the citations are probably plain text (e.g. '(Gibson et al., 2009)') and are not resolved",
            body.sourceline))
    return sections


def _front_fields(article, metadata, abstract_text: str | None) -> dict:
    """The Article fields read from the front matter beyond the identifying ones."""
    return {"article_type": article.get("article-type"), "authors": metadata.authors,
            "keywords": metadata.keywords, "subjects": metadata.subjects, "dates": metadata.dates,
            "funding": metadata.funding, "abstract_text": abstract_text}


def _read_tree(article, file: str | None, *, part: str | None = None, sub_articles: bool = False,
               entities: bool = True) -> list[Article]:
    """The Article of one ``<article>`` element, then (with ``sub_articles``) one per sub-article."""
    diagnostics: list[Diagnostic] = []
    front = first_child(article, "front")
    back = first_child(article, "back")
    body = first_child(article, "body")
    metadata = read_metadata(front, diagnostics)
    meta = first_child(front, "article-meta") if front is not None else None
    refs = read_references((body, back), diagnostics)
    reader = _ArticleReader(refs, diagnostics)
    getpath = reader.getpath = _path_function(article, part)
    abstracts, abstract_text = _abstracts(reader, meta)
    sections = _read_body(reader, body, refs, diagnostics, article)
    if entities:
        _check_entities(article, diagnostics)
    back_sections = _back(reader, back, first_child(article, "floats-group"))
    subs = _sub_articles(article)
    if subs and not sub_articles:
        diagnostics.append(Diagnostic("sub-article-ignored", f"{len(subs)} <sub-article>/<response> "
                                      "element(s) (e.g. decision letters) are not read (read each as an article "
                                      "of its own with sub_articles=True, or --sub-articles)", subs[0].sourceline))
    licence = read_license(meta)
    main = Article(
        file=file, pmcid=metadata.pmcid, pmid=metadata.pmid, doi=metadata.doi, title=metadata.title,
        journal=metadata.journal, year=metadata.year, license=licence, sections=sections,
        references=tuple(refs.references), diagnostics=tuple(diagnostics), abstracts=abstracts,
        back=back_sections, part=part, **_front_fields(article, metadata, abstract_text),
    )
    out = [main]
    if sub_articles:
        out.extend(_read_sub_article(sub, main, refs, getpath) for sub in subs)
    return out


def _path_function(article, part: str | None) -> Callable[[object], str]:
    """lxml's ``getpath`` for elements of ``article``, whose own path is ``part`` (None: the whole tree's
    getpath). Inside a file of many articles the whole tree's getpath counts an article's preceding siblings at
    every call; paths are taken inside the article and put after ``part`` instead."""
    if part is None:
        return article.getroottree().getpath
    local = etree.ElementTree(article).getpath   # "/article/body/sec[2]" for the article's elements

    def getpath(element) -> str:
        if element is article:
            return part
        path = local(element)
        return part + path[path.index("/", 1):]

    return getpath


def _article_paths(elements: list) -> list[str]:
    """The path of each article element, as the tree's ``getpath`` gives it, in time linear in their number."""
    out = []
    siblings: dict = {}   # parent element -> (its path, {article element: its index among same-tag siblings})
    for element in elements:
        parent = element.getparent()
        if parent is None:
            out.append(element.getroottree().getpath(element))
            continue
        entry = siblings.get(parent)
        if entry is None:
            same: dict = {}
            for child in parent:
                if child.tag == element.tag:
                    same[child] = len(same) + 1
            entry = siblings[parent] = (element.getroottree().getpath(parent), same)
        path, same = entry
        index = same.get(element)
        if index is None or len(same) == 1 or element.tag.__class__ is not str or element.tag[0] == "{":
            out.append(element.getroottree().getpath(element))  # not a plain sibling list: lxml's own
        else:
            out.append(f"{path}/{element.tag}[{index}]")
    return out


def _read_sub_article(sub, parent: Article, parent_refs: ReferenceList, getpath) -> Article:
    """A sub-article as an article of its own: its own front (or front-stub), body, back and references
    (the parent's when it has none); the parent's PMCID, journal, year and licence where it gives none."""
    diagnostics: list[Diagnostic] = []
    front = first_child(sub, "front")
    meta = first_child(front, "article-meta") if front is not None else first_child(sub, "front-stub")
    metadata = read_meta(meta, first_child(front, "journal-meta") if front is not None else None, diagnostics)
    body = first_child(sub, "body")
    back = first_child(sub, "back")
    refs = read_references((body, back), diagnostics)
    if not refs.references:
        refs = parent_refs
    reader = _ArticleReader(refs, diagnostics)
    reader.getpath = getpath
    abstracts, abstract_text = _abstracts(reader, meta)
    sections = _read_body(reader, body, refs, diagnostics, sub)
    back_sections = _back(reader, back, first_child(sub, "floats-group"))
    has_licence = meta is not None and first_child(meta, "permissions") is not None
    return Article(
        file=parent.file, pmcid=metadata.pmcid or parent.pmcid, pmid=metadata.pmid, doi=metadata.doi,
        title=metadata.title, journal=metadata.journal or parent.journal, year=metadata.year or parent.year,
        license=read_license(meta) if has_licence else parent.license, sections=sections,
        references=tuple(refs.references), diagnostics=tuple(diagnostics), abstracts=abstracts,
        back=back_sections, part=getpath(sub), **_front_fields(sub, metadata, abstract_text),
    )


# an entity reference other than the five XML ones and character references: only then can one be left unexpanded
_ENTITY_REF = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);|#)")


def _may_hold_entities(data: bytes) -> bool:
    return _ENTITY_REF.search(data) is not None


def _load(source: str | os.PathLike[str] | bytes, name: str | None) -> tuple[bytes, str | None]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name
    file = name or str(source)
    try:
        return read_limited(source, error=JatsError), file
    except InputError as exc:  # missing, a folder, not a regular file, too large: one JatsError
        raise JatsError(exc.message, path=file, hint=exc.hint) from None


def read_articles(source: str | os.PathLike[str] | bytes, *, name: str | None = None,
                  sub_articles: bool = False) -> tuple[Article, ...]:
    """Every article of one JATS file (or its bytes): the ``<article>`` itself, or each ``<article>`` of a
    PMC ``<articles>`` file, in document order; with ``sub_articles`` each ``<sub-article>`` / ``<response>``
    follows its article as an article of its own. ``Article.part`` tells them apart (see :class:`Article`).

    Raises :class:`~chemref.errors.JatsError` as :func:`read` does.
    """
    data, file = _load(source, name)
    elements = parse_articles(data, file)
    out: list[Article] = []
    entities = _may_hold_entities(data)  # once per file: per article it would read the file once per article
    parts = _article_paths(elements) if len(elements) > 1 else [None]
    try:
        for element, part in zip(elements, parts):
            out.extend(_read_tree(element, file, part=part, sub_articles=sub_articles, entities=entities))
    except RecursionError:
        raise JatsError("XML nested too deeply to read", path=file) from None
    return tuple(out)


def read(source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Article:
    """Read one JATS article from a path or from its bytes (``name`` labels bytes in errors and ``Article.file``).

    Raises :class:`~chemref.errors.JatsError` when the file cannot be read or is not well-formed XML;
    everything recoverable is an entry of ``Article.diagnostics``. A file holding several articles (PMC's
    ``<articles>``) gives its first, with an ``articles-more`` diagnostic: :func:`read_articles` gives each.
    """
    data, file = _load(source, name)
    elements = parse_articles(data, file)
    try:
        article = _read_tree(elements[0], file, part=elements[0].getroottree().getpath(elements[0])
                             if len(elements) > 1 else None, entities=_may_hold_entities(data))[0]
    except RecursionError:
        raise JatsError("XML nested too deeply to read", path=file) from None
    if len(elements) > 1:
        extra = Diagnostic("articles-more", f"the file holds {len(elements)} <article> elements; this is the "
                           "first (read_articles() gives each)", elements[1].sourceline)
        article = replace(article, diagnostics=article.diagnostics + (extra,))
    return article


T = TypeVar("T")


def _unexpected(label: str, exc: BaseException) -> JatsError:
    return JatsError(f"could not be read ({type(exc).__name__}: {exc}); this is a chemref bug, please report it "
                     "with the file", path=label)


def _portable(exc: JatsError) -> JatsError:
    """``exc`` without the exception it was raised while handling, nor its traceback: it crosses a process
    boundary, and picklers that keep ``__context__`` (tblib's, which Dask installs) would try to pickle lxml's
    error log along with it."""
    exc.__context__ = exc.__cause__ = None
    exc.__traceback__ = None
    return exc


class _Task:
    """A picklable per-input task: ``[(convert(article), None), ...]`` for each article of one input file, or
    ``[(None, JatsError)]`` when it cannot be read (an unexpected exception is that file's error too)."""

    def __init__(self, convert: Callable[[Article], T] | None = None, sub_articles: bool = False) -> None:
        self.convert = convert
        self.sub_articles = sub_articles

    def __call__(self, source: Source) -> list[tuple[object, JatsError | None]]:
        if source.error is not None:
            return [(None, JatsError(source.error))]
        try:
            if source.data is not None:
                articles = read_articles(source.data, name=source.label, sub_articles=self.sub_articles)
            else:
                assert source.path is not None  # a source holds its data, its path or its error
                articles = read_articles(source.path, sub_articles=self.sub_articles)
        except JatsError as exc:
            return [(None, _portable(exc))]
        except MemoryError:
            raise  # the CLI names the input that ran out of memory
        except UNEXPECTED as exc:
            return [(None, _portable(_unexpected(source.label, exc)))]
        if self.convert is None:
            return [(article, None) for article in articles]
        out: list[tuple[object, JatsError | None]] = []
        for article in articles:
            try:
                out.append((self.convert(article), None))
            except MemoryError:
                raise
            except UNEXPECTED as exc:
                out.append((None, _portable(_unexpected(source.label, exc))))
        return out


def _checked(inputs: Iterable) -> Iterator:
    """Inputs, with a path that does not exist, or is neither a folder nor a regular file (a FIFO, a device),
    turned into that input's error (reading goes on)."""
    for item in inputs:
        if isinstance(item, (str, os.PathLike)) and not os.path.isdir(item) and not os.path.isfile(item):
            name = os.fspath(item)
            if not os.path.exists(item):
                yield Source(None, name, error=str(JatsError("no such file or folder", path=name)))
                continue
            try:
                _load(item, None)
            except JatsError as exc:
                yield Source(None, name, error=str(exc))
                continue
        yield item


def map_articles(inputs: Iterable[str | os.PathLike[str] | bytes | Source],
                 convert: Callable[[Article], T] | None = None, *,
                 workers: int = 1, on_error: Literal["raise", "skip"] = "raise",
                 errors: list[JatsError] | None = None, sub_articles: bool = False,
                 files_from: str | os.PathLike[str] | None = None, total: int | None = None) -> Iterator[T]:
    """Yield ``convert(article)`` for each article of ``inputs`` in input order (the Article itself when
    ``convert`` is None). Inputs are read by :func:`chemref.inputs.iter_sources`: files, folders (subfolders
    included), PMC ``.tar.gz`` packages (every member, whatever a file list says) and ``files_from``.
    With ``workers > 1`` both reading and ``convert`` run in worker processes
    (:func:`chemref.pool.ordered_map`), so only the converted value (a JSON line, a summary) crosses the
    process boundary (never more processes than ``total``, the number of input files when known). ``convert``
    must be picklable (a module-level function). Errors are handled as in :func:`read_many`."""
    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
    sources = iter_sources(_checked(inputs), files_from=files_from, licences=False)
    for results in ordered_map(_Task(convert, sub_articles), sources, workers=workers, total=total):
        for value, exc in results:
            if exc is None:
                yield value  # type: ignore[misc]  # convert's value (T), or the Article itself without it
            elif on_error == "raise":
                raise exc
            elif errors is not None:
                errors.append(exc)
            else:
                warnings.warn(f"skipped {exc}", UserWarning, stacklevel=2)


def read_many(inputs: Iterable[str | os.PathLike[str] | bytes | Source], *, workers: int = 1,
              on_error: Literal["raise", "skip"] = "raise", errors: list[JatsError] | None = None,
              sub_articles: bool = False) -> Iterator[Article]:
    """Yield every article of ``inputs`` (files, folders, PMC packages, bytes), in input order; ``workers > 1``
    reads in that many processes. A file of several articles gives each (see :func:`read_articles`).

    ``on_error="raise"`` raises the first file's :class:`JatsError` when its turn comes;
    ``on_error="skip"`` yields nothing for a bad file and appends its error to ``errors``
    (or, with no list given, issues a :class:`UserWarning` naming it), so no file is dropped silently.
    """
    return map_articles(inputs, None, workers=workers, on_error=on_error, errors=errors, sub_articles=sub_articles)
