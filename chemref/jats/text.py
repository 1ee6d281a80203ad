"""Paragraph text from JATS inline markup: one pass over the element, offsets into the built text.

``<sub>``/``<sup>`` keep their characters (H<sub>2</sub>O -> "H2O") and are recorded as
formatting ranges; runs of XML white space collapse to one space; block children of a ``<p>``
(lists, figures, tables, boxed text, footnotes) are handed back to the caller to become their
own paragraphs rather than being glued into this one.
"""

from __future__ import annotations

import re
from html.entities import name2codepoint
from typing import Callable

from lxml import etree

__all__ = ["TextBuilder", "XrefEvent", "BLOCK_TAGS", "DISPLAY_FORMULA", "plain_text", "text_of", "first_child"]

#: Elements that are blocks of their own even when they sit inside a ``<p>``.
BLOCK_TAGS = frozenset({
    "p", "sec", "fig", "fig-group", "table-wrap", "table-wrap-group", "list", "boxed-text", "disp-quote",
    "def-list", "statement", "supplementary-material", "media", "chem-struct-wrap", "speech", "verse-group",
    "array", "table", "glossary", "fn-group", "fn", "question-wrap", "ref-list", "app", "app-group", "attrib",
})
#: Inline elements whose content is not running text.
SKIP_TAGS = frozenset({
    "alt-text", "long-desc", "object-id", "inline-graphic", "graphic", "private-char", "processing-meta",
    "permissions", "related-object",
})
#: The formatting style of a ``<disp-formula>`` flattened into a paragraph.
DISPLAY_FORMULA = "display_formula"
_STYLES = {"sub": "sub", "sup": "sup", "italic": "italic", "bold": "bold"}
_MATHML = "{http://www.w3.org/1998/Math/MathML}"
_TEX_DOC = re.compile(r"\\begin\{document\}(.*?)\\end\{document\}", re.S)
_Entity = etree.Entity
_Comment = etree.Comment
_PI = etree.ProcessingInstruction
_tostring = etree.tostring


def _collapse(text: str) -> str:
    """``text`` with each run of XML white space (space, tab, line feed, carriage return) made one space.

    The same string as ``re.sub(r"[ \\t\\n\\r]+", " ", text)``, about six times faster: each white space
    character becomes a space, then ``"  " -> " "`` passes shorten every run (a run of n spaces needs
    log2(n) passes, each in C, so the time stays bounded on hostile input).
    """
    if "\n" in text:
        text = text.replace("\n", " ")
    if "\t" in text:
        text = text.replace("\t", " ")
    if "\r" in text:
        text = text.replace("\r", " ")
    while "  " in text:
        text = text.replace("  ", " ")
    return text


def text_of(element: etree._Element) -> str:
    """``"".join(element.itertext())`` read in C: the text of ``element`` and everything under it (not its tail).

    An element holding an entity reference (never expanded: see :mod:`chemref.jats.parser`) is read by
    ``itertext``, which keeps the reference as written (``&name;``) where libxml2's text output would expand it.
    """
    if not len(element):
        return element.text or ""
    if next(element.iter(_Entity), None) is not None:
        return "".join(element.itertext())
    return _tostring(element, method="text", encoding="unicode", with_tail=False)


def first_child(element: etree._Element, tag: str) -> etree._Element | None:
    """The first child of ``element`` with tag ``tag``, or None (``element.find(tag)`` without ElementPath)."""
    for candidate in element:
        if candidate.tag == tag:
            return candidate
    return None


class XrefEvent:
    """A citation ``<xref>`` met while building a paragraph: its span in the text and its raw rids."""

    __slots__ = ("start", "end", "rids", "line", "element")

    def __init__(self, start: int, end: int, rids: tuple[str, ...], line: int | None, element) -> None:
        self.start = start
        self.end = end
        self.rids = rids
        self.line = line
        self.element = element


def _tex_text(source: str) -> str:
    """The formula part of a ``<tex-math>`` (Springer Nature files wrap it in a whole LaTeX document)."""
    match = _TEX_DOC.search(source)
    body = match.group(1) if match else source
    return body.strip().strip("$").strip()


class TextBuilder:
    """Accumulates the text of one paragraph with formatting ranges, citation xrefs and deferred blocks.

    Text is appended as it is met (one ``list.append`` per text node), its XML white space collapsed on the
    way: a run of white space becomes one space, and a space right after another (or at the start) is not
    appended, so every recorded offset is already an offset into the final text; :meth:`text` only drops a
    trailing space.
    """

    __slots__ = ("parts", "pos", "formatting", "xrefs", "blocks", "is_citation", "space")

    def __init__(self, is_citation: Callable[[object], bool]) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.formatting: list[list] = []
        self.xrefs: list[XrefEvent] = []
        self.blocks: list = []
        self.is_citation = is_citation
        #: True when the text so far is empty or ends with a space (a leading space is then not appended)
        self.space = True

    def add(self, text: str | None) -> None:
        """Append text (white space runs inside it become one space)."""
        if text:
            if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                text = _collapse(text)
            if text[0] == " " and self.space:
                text = text[1:]
            if text:
                self.parts.append(text)
                self.pos += len(text)
                self.space = text[-1] == " "

    def walk(self, element: etree._Element) -> None:
        """Append the content of ``element`` (its text and children with their tails, not its own tail).

        The text and tail of each node are appended inline (they are most of the calls); each child element is
        read by the handler of its tag (:data:`_HANDLERS`), else walked, else (a leaf) its text appended.
        """
        parts = self.parts
        text = element.text
        if text:
            if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                text = _collapse(text)
            if text[0] == " " and self.space:
                text = text[1:]
            if text:
                parts.append(text)
                self.pos += len(text)
                self.space = text[-1] == " "
        for child in element:
            tag = child.tag
            if tag.__class__ is str:
                if tag in _HANDLERS:
                    _HANDLERS[tag](self, child)
                elif tag[0] == "{":
                    self._foreign(child)
                elif len(child):
                    self.walk(child)
                else:
                    self.add(child.text)
            elif tag is _Entity:
                self._entity(child)
            text = child.tail
            if text:
                if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                    text = _collapse(text)
                if text[0] == " " and self.space:
                    text = text[1:]
                if text:
                    parts.append(text)
                    self.pos += len(text)
                    self.space = text[-1] == " "

    def _styled(self, element) -> None:
        """``<sub>``, ``<sup>``, ``<italic>``, ``<bold>``: the content, recorded as a formatting range."""
        start = self.pos
        if len(element):
            self.walk(element)
        else:  # a leaf (most are): its text appended inline, as add() does
            text = element.text
            if text:
                if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                    text = _collapse(text)
                if text[0] == " " and self.space:
                    text = text[1:]
                if text:
                    self.parts.append(text)
                    self.pos += len(text)
                    self.space = text[-1] == " "
        if self.pos > start:
            self.formatting.append([start, self.pos, _STYLES[element.tag]])

    def _xref(self, element) -> None:
        """An ``<xref>``: its content, recorded as a citation event when it cites."""
        start = self.pos
        if len(element):
            self.walk(element)
        else:  # a leaf (most are): its text appended inline, as add() does
            text = element.text
            if text:
                if "\n" in text or "  " in text or "\t" in text or "\r" in text:
                    text = _collapse(text)
                if text[0] == " " and self.space:
                    text = text[1:]
                if text:
                    self.parts.append(text)
                    self.pos += len(text)
                    self.space = text[-1] == " "
        if self.is_citation(element):
            self.xrefs.append(XrefEvent(start, self.pos, tuple((element.get("rid") or "").split()),
                                        element.sourceline, element))

    def _block(self, element) -> None:
        """A block inside the paragraph: handed back to the caller (:attr:`blocks`)."""
        self.blocks.append(element)

    def _display_formula(self, element) -> None:
        """A ``<disp-formula>``: kept in the text, marked so sentences holding it can be told."""
        start = self.pos
        self.walk(element)
        if self.pos > start:
            self.formatting.append([start, self.pos, DISPLAY_FORMULA])

    def _skip(self, element) -> None:
        """Inline content that is not running text (alt text, graphics, object ids)."""

    def _tex(self, element) -> None:
        self.add(_tex_text(text_of(element)))

    def _break(self, element) -> None:
        self.add(" ")

    def _foreign(self, element) -> None:
        """A foreign-namespace element: MathML and foreign leaves give their text (read in C); foreign markup
        holding JATS (TaxPub's taxon names, nomenclature) is walked."""
        if element.tag.startswith(_MATHML) or not len(element):
            self.add(text_of(element))
        else:
            self.walk(element)

    def _entity(self, element) -> None:
        """An entity reference left unexpanded: an HTML name as its character, any other as written."""
        name = element.name
        code = name2codepoint.get(name) if name else None
        self.add(chr(code) if code else element.text)

    def _alternatives(self, element) -> None:
        """Use one rendering of ``<alternatives>``: MathML, else TeX, else the first other child."""
        chosen = None
        for candidate in element:
            tag = candidate.tag
            if tag.__class__ is not str or tag in SKIP_TAGS:
                continue
            if tag.startswith(_MATHML):
                chosen = candidate
                break
            if chosen is None or (chosen.tag == "tex-math" and tag != "tex-math"):
                chosen = candidate
        if chosen is None:
            return
        if chosen.tag == "tex-math":
            self.add(_tex_text(text_of(chosen)))
        else:
            self.walk(chosen)

    def text(self) -> str:
        """The built text (no leading or trailing space, never two in a row); a range or xref that reached
        into a trailing space ends before it."""
        raw = "".join(self.parts)
        if raw[-1:] != " ":
            return raw
        text = raw[:-1]
        end = len(text)
        formatting = self.formatting
        for item in formatting:
            if item[1] > end:
                item[1] = end
                if item[0] > end:
                    item[0] = end
        self.formatting = [item for item in formatting if item[1] > item[0]]
        for event in self.xrefs:
            if event.end > end:
                event.end = end
                if event.start > end:
                    event.start = end
        return text


#: The handler of each tag :meth:`TextBuilder.walk` reads otherwise than by walking it (first entry wins).
_HANDLERS: dict[str, Callable[[TextBuilder, etree._Element], None]] = {}
for _tags, _handler in (
    (_STYLES, TextBuilder._styled), (("xref",), TextBuilder._xref), (BLOCK_TAGS, TextBuilder._block),
    (("disp-formula",), TextBuilder._display_formula), (SKIP_TAGS, TextBuilder._skip),
    (("alternatives",), TextBuilder._alternatives), (("tex-math",), TextBuilder._tex),
    (("break",), TextBuilder._break),
):
    for _tag in _tags:
        _HANDLERS.setdefault(_tag, _handler)
del _tags, _handler, _tag


def _never(_element) -> bool:
    return False


def plain_text(element: etree._Element) -> str:
    """Text of an element (titles, metadata) with white space collapsed; blocks inside are included."""
    if element is None:
        return ""
    if not len(element):  # no children: the common case for names, labels and years
        text = element.text
        return " ".join(text.split()) if text else ""
    builder = TextBuilder(_never)
    builder.walk(element)
    for block in builder.blocks:  # e.g. a <p> inside a title-like element: keep its words
        builder.add(" ")
        builder.walk(block)
    return builder.text()
