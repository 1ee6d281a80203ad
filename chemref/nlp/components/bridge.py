"""The bridge from the JATS reader to spaCy: :func:`make_doc` turns one :class:`Paragraph` into a processed Doc."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

from chemref.errors import InputError
from chemref.jats.model import Paragraph, Reference
from chemref.nlp.components.extensions import CITATIONS_KEY, doc_text, references_mapping, register_extensions

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc
import numpy
from spacy.attrs import IDX
from spacy.tokens import Span

from chemref.nlp.components.citations import CitationMarkers
from chemref.nlp.components.sentencizer import split_tokens_at

__all__ = ["make_doc", "citations_key"]


def make_doc(nlp: "Language", paragraph: Paragraph | str,
             references: Mapping[str, Reference] | Iterable[Reference] | None = None) -> "Doc":
    """Tokenize ``paragraph.text`` with ``nlp``, attach its citation anchors, run the pipeline, return the Doc.

    * every :class:`CitationAnchor` becomes a span in the pipeline's citation group (the ``spans_key`` of its
      ``chemref_citations``, by default ``doc.spans["chemref_citations"]``; label
      ``"citation"``, ``span.id_`` its index in ``paragraph.citations``; outer whitespace trimmed) whose
      ``span._.chemref_ref_ids`` are the anchor's ``ref_ids``; tokens are split where an anchor starts
      or ends inside one ("diffusion.7");
    * ``doc._.chemref_references`` maps every reference id to its :class:`Reference` (``references`` is
      a mapping id -> Reference, e.g. ``article.references_by_id``, or an iterable of Reference);
    * then the pipeline runs (``nlp(doc)``: each enabled component in order, under the error handler), so
      ``chemref_citations`` keeps these anchors, ``chemref_sentencizer`` never splits inside them and later
      components can read both attributes.

    ``paragraph`` may also be a plain string: then there are no anchors and ``chemref_citations``
    recognises plain-text markers as for ``nlp(text)``. A Paragraph's anchors are authoritative: a
    Paragraph without anchors gets an empty span group, not guessed markers.

    Raises :class:`InputError` when an anchor's offsets are outside the paragraph text.
    """

    register_extensions()
    from_jats = not isinstance(paragraph, str)
    if isinstance(paragraph, str):
        paragraph = Paragraph(text=paragraph)
    text = paragraph.text
    spans: list[tuple[int, int, tuple[str, ...]]] = []
    for anchor in paragraph.citations:
        if not 0 <= anchor.start <= anchor.end <= len(text):
            raise InputError(
                f"citation anchor {anchor.text!r} has offsets {anchor.start}-{anchor.end} outside the paragraph "
                f"text (length {len(text)})", line=paragraph.line,
                hint="anchors must be character offsets into Paragraph.text")
        start, end = anchor.start, anchor.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        spans.append((start, end, tuple(anchor.ref_ids)))
    doc = nlp.make_doc(text)
    doc_text(doc, text)
    if spans:
        doc = split_tokens_at(doc, [offset for start, end, _ in spans for offset in (start, end)])
    group = []
    for k, (start, end, ref_ids) in enumerate(spans):
        span = doc.char_span(start, end, label="citation", span_id=str(k), alignment_mode="expand")
        if span is None:  # an empty anchor in whitespace: a zero-length span at the next token
            i = int(numpy.searchsorted(doc.to_array(IDX), start))
            span = Span(doc, i, i, label="citation", span_id=str(k))
        span._.chemref_ref_ids = ref_ids
        group.append(span)
    if from_jats:  # a plain string has no anchors: leave the group to chemref_citations' recogniser
        doc.spans[citations_key(nlp)] = group
    doc._.chemref_references = references_mapping(references)
    return nlp(doc)


def citations_key(nlp: "Language") -> str:
    """The span group the pipeline's citation markers go to: the ``spans_key`` of its ``chemref_citations``
    component (whatever its name), else the default."""
    for _name, component in nlp.pipeline:
        if isinstance(component, CitationMarkers):
            return component.spans_key
    return CITATIONS_KEY
