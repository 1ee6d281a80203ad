"""The walk over an article's block-level elements: sections, paragraphs, captions, table rows, and what the
walk did not reach (named in diagnostics).

Each ``<p>`` (and each title that cites, caption, attribution, table row and cell) becomes one
:class:`Paragraph`; blocks nested in a paragraph (lists, figures, tables) become paragraphs of their own.
"""

from __future__ import annotations

from typing import Any, Callable

from chemref.jats.citations import RangeBudget, resolve_anchors
from chemref.jats.model import Diagnostic, FormatRange, Paragraph, Section
from chemref.jats.paths import child_paths, prefixed_name
from chemref.jats.references import ReferenceList
from chemref.jats.sections import section_kind
from chemref.jats.text import BLOCK_TAGS, TextBuilder, first_child, plain_text

__all__ = ["BlockWalker", "Place", "SECTION_TAGS"]

_CITATION_TYPES = frozenset({"bibr", "ref"})
SECTION_TAGS = frozenset({"sec", "app", "ack", "notes", "bio"})
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


def _no_path(element: Any) -> str:
    """The placeholder of :attr:`BlockWalker.getpath` until an article's path function is set."""
    raise RuntimeError("the article's path function is not set")


class Place:
    """Where the blocks being read put their paragraphs: the section's kind, its lists of paragraphs and of
    subsections, the context its paragraphs get (``p``, ``caption``, ``table``, ``list``...) and whether they
    are captions (inside a figure or table)."""

    __slots__ = ("kind", "paragraphs", "sections", "context", "is_caption")

    def __init__(self, kind: str, paragraphs: list[Paragraph], sections: list[Section], context: str = "p",
                 is_caption: bool = False) -> None:
        self.kind = kind
        self.paragraphs = paragraphs
        self.sections = sections
        self.context = context
        self.is_caption = is_caption

    def within(self, context: str, is_caption: bool) -> Place:
        """The same section's place with another paragraph context (itself when nothing changes)."""
        if context == self.context and is_caption == self.is_caption:
            return self
        return Place(self.kind, self.paragraphs, self.sections, context, is_caption)


class BlockWalker:
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

    def paragraph(self, element, place: Place, path: str) -> list:
        """Read ``element`` as one paragraph of ``place``; returns the blocks nested in it."""
        builder = TextBuilder(self.is_citation)
        builder.walk(element)
        if element.tag == "p":
            self.visited_p.append(element)
        return self._finish(builder, element, place, path)

    def _finish(self, builder: TextBuilder, element, place: Place, path: str) -> list:
        text = builder.text()
        if builder.xrefs:
            self.consumed.extend(event.element for event in builder.xrefs)
            anchors = resolve_anchors(text, builder.xrefs, self.refs, self.diagnostics, self.ranges)
        else:
            anchors = ()
        if text or anchors:
            formatting = (tuple(FormatRange(s, e, style) for s, e, style in sorted(builder.formatting))
                          if builder.formatting else ())
            place.paragraphs.append(Paragraph(text, anchors, formatting, place.is_caption, element.sourceline,
                                              place.context, path))
        return builder.blocks

    def row(self, row, place: Place, path: str) -> list:
        """One table row as one paragraph: its non-empty cells joined by " | " (``place``: a table caption)."""
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
        return self._finish(builder, row, place, path)

    def has_citation(self, element) -> bool:
        """True when a citation xref sits anywhere inside ``element``."""
        return len(element) > 0 and any(self.is_citation(x) for x in element.iter("xref"))

    def block(self, element, place: Place, path: str) -> None:
        """Read one block-level element into ``place``: by the handler of its tag, else as a container."""
        tag = element.tag
        if tag.__class__ is not str or tag in _IGNORED:
            return
        if tag[0] == "{":
            self.foreign(element, place, path)
            return
        if tag in _BLOCK_HANDLERS:
            _BLOCK_HANDLERS[tag](self, element, place, path)
        else:
            self.container(element, place, path)

    def text_block(self, element, place: Place, path: str) -> None:
        """``element`` as one paragraph of ``place``, then the blocks nested in it, in the same place."""
        for nested in self.paragraph(element, place, path):
            self.block(nested, place, self.getpath(nested))

    def _p(self, element, place: Place, path: str) -> None:
        """A ``<p>``; a block nested in it (a list, a quote) gives its paragraphs its own context."""
        for nested in self.paragraph(element, place, path):
            self.block(nested, place.within(_CONTEXTS.get(nested.tag, place.context), place.is_caption),
                       self.getpath(nested))

    def _title(self, element, place: Place, path: str) -> None:
        """A title outside a section's head: text of its own only when it cites (appendix titles)."""
        if self.has_citation(element):
            self.text_block(element, place.within("title", place.is_caption), path)

    def _attrib(self, element, place: Place, path: str) -> None:
        """The source line of a quote, figure or table."""
        self.text_block(element, place.within("attrib", place.is_caption), path)

    def _section(self, element, place: Place, path: str) -> None:
        place.sections.append(self.section(element, place.kind, path))

    def _caption(self, element, place: Place, path: str) -> None:
        """A caption: its title and paragraphs are caption paragraphs, other blocks are read inside it."""
        inside = place.within("caption", True)
        for child, child_path in child_paths(element, path):
            if child.tag in ("title", "p"):
                self.text_block(child, inside, child_path)
            else:
                self.block(child, inside, child_path)

    def _row(self, element, place: Place, path: str) -> None:
        inside = place.within("table", True)
        for nested in self.row(element, inside, path):
            self.block(nested, inside, self.getpath(nested))

    def _cell(self, element, place: Place, path: str) -> None:
        """A cell outside any row."""
        self.text_block(element, place.within("table", True), path)

    def container(self, element, place: Place, path: str) -> None:
        """Any other block: its children read in turn; a float makes them captions, a list, quote or footnote
        gives them its context (inside a figure or table the caption context wins)."""
        tag = element.tag
        if tag in _FLOATS:
            place = place.within("table" if tag in ("table", "array") else place.context, True)
        elif tag in _CONTEXTS and (not place.is_caption or tag == "table-wrap-foot"):
            place = place.within(_CONTEXTS[tag], place.is_caption)
        for child, child_path in child_paths(element, path):
            self.block(child, place, child_path)

    def foreign(self, element, place: Place, path: str) -> None:
        """A foreign-namespace element among blocks (TaxPub): a section, a container read through, or, when it
        holds only inline content with a citation, a paragraph of its own (context ``other``)."""
        tag = element.tag
        if tag.startswith(_MATHML):
            return
        if tag in _FOREIGN_SECTIONS:
            place.sections.append(self.section(element, place.kind, path))
            return
        children = [c for c in element if c.tag.__class__ is str]
        if any(c.tag in BLOCK_TAGS or c.tag == "title" or (c.tag[0] == "{" and not c.tag.startswith(_MATHML))
               for c in children):
            for child, child_path in child_paths(element, path):
                self.block(child, place, child_path)
        elif self.has_citation(element):
            self.text_block(element, place.within("other", place.is_caption), path)

    def title(self, title_el) -> tuple[str, TextBuilder | None]:
        """A section's title as text and, when the title holds markup, the builder that walked it: one walk
        gives the title and, when the title cites, its paragraph."""
        if title_el is None:
            return "", None
        if not len(title_el):
            return plain_text(title_el), None
        builder = TextBuilder(self.is_citation)
        builder.walk(title_el)
        # blocks inside a title: plain_text keeps their words in the title (a paragraph defers them)
        return (builder.text() if not builder.blocks else plain_text(title_el)), builder

    def section(self, element, parent_kind: str | None, path: str) -> Section:
        title_el = first_child(element, "title")
        title, title_builder = self.title(title_el)
        if parent_kind == "abstract":
            kind = "abstract"
        else:
            kind = section_kind(title, element.get("sec-type"), parent_kind)
        place = Place(kind, [], [])
        for child, child_path in child_paths(element, path):
            if child is title_el and title_builder is not None:
                if title_builder.xrefs or self.has_citation(child):
                    heading = place.within("title", False)
                    for nested in self._finish(title_builder, child, heading, path=child_path):
                        self.block(nested, heading, self.getpath(nested))
            else:
                self.block(child, place, child_path)
        return Section(title, kind, tuple(place.paragraphs), tuple(place.sections))

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

        place = Place("other", loose, loose_sections)
        for child, path in child_paths(body, self.getpath(body)):
            if child.tag == "sec":
                flush(leading=not seen_section)
                seen_section = True
                out.append(self.section(child, None, path))
            else:
                self.block(child, place, path)
        flush(leading=False)  # trailing (or the only) untitled text is not called an introduction
        return tuple(out)

    def check_body(self, body) -> int:
        """Name in diagnostics every citation xref and <p> of the body that is not in a paragraph;
        returns the number of citation xrefs in the body."""
        # one pass counts both (the <p> and consumed xrefs met are mostly the elements already held in
        # visited_p and consumed, so lxml hands back their proxies); the elements are listed only on a miss
        n_p = n_citations = 0
        for element in body.iter("p", "xref"):
            if element.tag == "p":
                n_p += 1
            else:
                kind = element.get("ref-type")
                if kind in _CITATION_TYPES or (not kind and self.is_citation(element)):
                    n_citations += 1
        if n_citations != len(self.consumed):
            xrefs = [x for x in body.iter("xref") if self.is_citation(x)]
            consumed = set(self.consumed)
            for xref in xrefs:
                if xref not in consumed:
                    parent = xref.getparent()
                    self.diagnostics.append(Diagnostic(
                        "citation-outside-paragraph",
                        f"citation xref rid={xref.get('rid')!r} inside <{parent.tag}> is not in any paragraph",
                        xref.sourceline))
        if n_p != len(self.visited_p):
            visited = set(self.visited_p)
            skipped = [p for p in body.iter("p") if p not in visited]
            where: dict[str, int] = {}
            for p in skipped:
                parent = p.getparent()
                name = prefixed_name(parent) if parent is not None else "?"
                where[name] = where.get(name, 0) + 1
            shown = ", ".join(f"<{name}> ({n})" for name, n in sorted(where.items(), key=lambda kv: -kv[1])[:4])
            self.diagnostics.append(Diagnostic(
                "paragraph-skipped", f"{len(skipped)} <p> element(s) of the body sit where no paragraph is read: "
                f"inside {shown}", skipped[0].sourceline if skipped else body.sourceline))
        return n_citations


#: The handler of each block tag :meth:`BlockWalker.block` does not read as a container.
_BLOCK_HANDLERS: dict[str, Callable[[BlockWalker, Any, Place, str], None]] = {
    "p": BlockWalker._p, "title": BlockWalker._title, "attrib": BlockWalker._attrib,
    "caption": BlockWalker._caption, "tr": BlockWalker._row, "td": BlockWalker._cell, "th": BlockWalker._cell,
    **{tag: BlockWalker._section for tag in SECTION_TAGS},
}
