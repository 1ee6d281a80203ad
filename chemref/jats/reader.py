"""``read`` one JATS article into an :class:`Article`; ``read_many`` streams many, optionally in processes.

One article is one pure task (bytes in, Article out). Nothing is lost: every body ``<p>``, every
``<ref>`` and every citation ``<xref>`` ends up in the Article or is named in its diagnostics.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Callable, Iterable, Iterator, Literal, TypeVar

from chemref._io import read_limited
from chemref.errors import InputError, JatsError
from chemref.jats.citations import resolve_anchors
from chemref.jats.license import read_license
from chemref.jats.metadata import read_metadata
from chemref.jats.model import Article, Diagnostic, FormatRange, Paragraph, Section
from chemref.jats.parser import parse_article
from chemref.jats.references import ReferenceList, read_references
from chemref.jats.sections import section_kind
from chemref.jats.text import TextBuilder, plain_text

__all__ = ["read", "read_many", "map_articles"]

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
# Block-level elements with nothing to read as paragraphs (their titles are read with the section).
_IGNORED = frozenset({"title", "label", "sec-meta", "object-id", "alt-text", "long-desc", "graphic",
                      "ref-list", "permissions", "attrib", "kwd-group", "subtitle"})


def _children(element, path: str) -> list[tuple[object, str]]:
    """The element children of ``element`` with their XPaths (``p[2]``; no index when the tag is unique),
    the same strings lxml's ``getpath`` gives, without its per-call walk up the tree."""
    tags: dict[str, int] = {}
    kids = []
    for child in element:
        tag = child.tag
        if tag.__class__ is str and tag[0] != "{":
            tags[tag] = tags.get(tag, 0) + 1
            kids.append(child)
    if len(tags) == len(kids):
        return [(child, f"{path}/{child.tag}") for child in kids]
    seen: dict[str, int] = {}
    out = []
    for child in kids:
        tag = child.tag
        if tags[tag] == 1:
            out.append((child, f"{path}/{tag}"))
        else:
            n = seen[tag] = seen.get(tag, 0) + 1
            out.append((child, f"{path}/{tag}[{n}]"))
    return out


class _ArticleReader:
    """The state of reading one article: its references, diagnostics and what was consumed."""

    def __init__(self, refs: ReferenceList, diagnostics: list[Diagnostic]) -> None:
        self.refs = refs
        self.diagnostics = diagnostics
        self.consumed: list = []        # citation xref elements placed in paragraphs
        self.visited_p = 0
        self.getpath = None

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
            self.visited_p += 1
        return self._finish(builder, element, context, is_caption, out, path)

    def _finish(self, builder: TextBuilder, element, context: str, is_caption: bool, out: list[Paragraph],
                path: str) -> list:
        text = builder.text()
        if builder.xrefs:
            self.consumed.extend(event.element for event in builder.xrefs)
            anchors = resolve_anchors(text, builder.xrefs, self.refs, self.diagnostics)
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
            mark, pos, n_xrefs = len(builder.parts), builder.pos, len(builder.xrefs)
            if pos:
                builder.add(" | ")
            builder.walk(cell)
            if len(builder.xrefs) == n_xrefs and not "".join(builder.parts[mark + (1 if pos else 0):]).strip():
                del builder.parts[mark:]   # an empty cell leaves no separator behind
                builder.pos = pos
                builder.formatting = [f for f in builder.formatting if f[0] < pos]
        return self._finish(builder, row, "table", True, out, path)

    def block(self, element, kind: str, paragraphs: list[Paragraph], sections: list[Section],
              context: str, is_caption: bool, path: str) -> None:
        tag = element.tag
        if tag.__class__ is not str or tag[0] == "{" or tag in _IGNORED:
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

    def section(self, element, parent_kind: str | None, path: str) -> Section:
        title_el = element.find("title")
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
        n_p = sum(1 for _ in body.iter("p"))
        if n_p != self.visited_p:
            self.diagnostics.append(Diagnostic(
                "paragraph-skipped", f"{n_p - self.visited_p} <p> element(s) of the body sit where no "
                "paragraph is read (e.g. inside a title or label)", body.sourceline))
        return len(xrefs)


def _abstracts(reader: _ArticleReader, meta) -> tuple[Section, ...]:
    if meta is None:
        return ()
    out: list[Section] = []
    for element in meta:
        if element.tag not in ("abstract", "trans-abstract"):
            continue
        section = reader.section(element, "abstract", reader.getpath(element))
        title = section.title or (element.get("abstract-type") or "Abstract").replace("-", " ").capitalize()
        out.append(Section(title, "abstract", section.paragraphs, section.sections))
    return tuple(out)


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
    from html.entities import name2codepoint

    from lxml import etree

    unexpanded = [e for e in article.iter(etree.Entity) if e.name not in name2codepoint]
    if unexpanded:
        names = sorted({f"&{e.name};" for e in unexpanded})
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        diagnostics.append(Diagnostic(
            "entity-unexpanded", f"{len(unexpanded)} reference(s) to entities that are not expanded ({shown}) "
            "are left in the text as written (entities declared in a DTD are never expanded)",
            unexpanded[0].sourceline))


def _read_tree(article, file: str | None) -> Article:
    diagnostics: list[Diagnostic] = []
    front = article.find("front")
    back = article.find("back")
    body = article.find("body")
    metadata = read_metadata(front, diagnostics)
    meta = front.find("article-meta") if front is not None else None
    refs = read_references((body, back), diagnostics)
    reader = _ArticleReader(refs, diagnostics)
    reader.getpath = article.getroottree().getpath
    abstracts = _abstracts(reader, meta)
    sections: tuple[Section, ...] = ()
    if body is not None:
        reader.consumed = []
        reader.visited_p = 0
        sections = reader.body(body)
        n_citations = reader.check_body(body)
        if refs.references and not n_citations:
            diagnostics.append(Diagnostic(
                "no-citation-markup", f"{len(refs.references)} references but no citation <xref> in the body; "
                "the citations are probably plain text (e.g. '(Gibson et al., 2009)') and are not resolved",
                body.sourceline))
    else:
        diagnostics.append(Diagnostic("no-body", "the article has no <body> (metadata or abstract only)",
                                      article.sourceline))
    _check_entities(article, diagnostics)
    back_sections = _back(reader, back, article.find("floats-group"))
    sub_articles = article.findall("sub-article") + article.findall("response")
    if sub_articles:
        diagnostics.append(Diagnostic("sub-article-ignored", f"{len(sub_articles)} <sub-article>/<response> "
                                      "element(s) (e.g. decision letters) are not read", sub_articles[0].sourceline))
    return Article(
        file=file, pmcid=metadata.pmcid, pmid=metadata.pmid, doi=metadata.doi, title=metadata.title,
        journal=metadata.journal, year=metadata.year, license=read_license(meta), sections=sections,
        references=tuple(refs.references), diagnostics=tuple(diagnostics), abstracts=abstracts,
        back=back_sections,
    )


def read(source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Article:
    """Read one JATS article from a path or from its bytes (``name`` labels bytes in errors and ``Article.file``).

    Raises :class:`~chemref.errors.JatsError` when the file cannot be read or is not well-formed XML;
    everything recoverable is an entry of ``Article.diagnostics``.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        file = name
    else:
        file = name or str(source)
        try:
            data = read_limited(source, error=JatsError)
        except InputError as exc:  # missing, a folder, not a regular file, too large: one JatsError
            raise JatsError(exc.message, path=file, hint=exc.hint) from None
    article = parse_article(data, file)
    try:
        return _read_tree(article, file)
    except RecursionError:
        raise JatsError("XML nested too deeply to read", path=file) from None


T = TypeVar("T")


class _Task:
    """A picklable per-file task: ``(convert(read(path)), None)``, or ``(None, JatsError)`` on failure."""

    def __init__(self, convert: Callable[[Article], T] | None = None) -> None:
        self.convert = convert

    def __call__(self, path: str) -> tuple[object, JatsError | None]:
        try:
            article = read(path)
        except JatsError as exc:
            return None, exc
        return (article if self.convert is None else self.convert(article)), None


def map_articles(paths: Iterable[str | os.PathLike[str]], convert: Callable[[Article], T] | None = None, *,
                 workers: int = 1, on_error: Literal["raise", "skip"] = "raise",
                 errors: list[JatsError] | None = None) -> Iterator[T]:
    """Yield ``convert(article)`` for each path in input order (the Article itself when ``convert`` is
    None); with ``workers > 1`` both reading and ``convert`` run in worker processes
    (:func:`chemref.pool.ordered_map`), so only the converted value (a JSON line, a summary) crosses the
    process boundary. ``convert`` must be picklable (a module-level function). Errors are handled as in
    :func:`read_many`."""
    from chemref.pool import ordered_map

    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
    names = (os.fspath(p) for p in paths)
    for value, exc in ordered_map(_Task(convert), names, workers=workers):
        if exc is None:
            yield value
        elif on_error == "raise":
            raise exc
        elif errors is not None:
            errors.append(exc)
        else:
            warnings.warn(f"skipped {exc}", UserWarning, stacklevel=2)


def read_many(paths: Iterable[str | os.PathLike[str]], *, workers: int = 1,
              on_error: Literal["raise", "skip"] = "raise",
              errors: list[JatsError] | None = None) -> Iterator[Article]:
    """Yield one Article per path, in input order; ``workers > 1`` reads in that many processes.

    ``on_error="raise"`` raises the first file's :class:`JatsError` when its turn comes;
    ``on_error="skip"`` yields nothing for a bad file and appends its error to ``errors``
    (or, with no list given, issues a :class:`UserWarning` naming it), so no file is dropped silently.
    """
    return map_articles(paths, None, workers=workers, on_error=on_error, errors=errors)
