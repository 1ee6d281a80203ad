"""The ``chemref_sentencizer`` component: :func:`chemref.nlp.sentences.split_sentences` on ``doc.text``.

Citation spans (``doc.spans[citations_key]``, by default ``doc.spans["chemref_citations"]``) are passed as protected spans, so no boundary falls
inside a citation and a citation right after the period stays with the sentence before it. Sentence
starts are written in one ``doc.from_array`` call. The rule tables are saved with the pipeline as JSON
(``<pipeline dir>/chemref_sentencizer/rules.json``), never pickled.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import numpy
import srsly
from spacy.attrs import IDX, SENT_START

from chemref.errors import InputError
from chemref.jsonl import parse_json
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.components.extensions import CITATIONS_KEY, doc_text, register_extensions
from chemref.nlp.rules import NAME, SentenceRules
from chemref.nlp.sentences import split_sentences

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc
from spacy.tokens import Doc

__all__ = ["ChemrefSentencizer", "split_tokens_at", "set_sentence_starts"]

_RULES_FILE = "rules.json"


# Up to this many tokens are split with spaCy's retokenizer (each split moves the token array, so many of
# them would be quadratic); beyond it the Doc is rebuilt in one pass unless tokens carry annotations.
_RETOKENIZE_MAX = 8
_TOKEN_ANNOTATIONS = ("TAG", "POS", "MORPH", "LEMMA", "DEP", "ENT_IOB", "SENT_START")


def split_tokens_at(doc: "Doc", cuts: Iterable[int]) -> "Doc":
    """Split tokens of ``doc`` at the character offsets ``cuts`` that fall inside a token; returns the Doc.

    Used only when a citation or sentence boundary is inside a token. A few splits happen in place with
    spaCy's retokenizer; many (adversarial text) rebuild an equal Doc in linear time, carrying over
    ``user_data``, ``cats``, hooks and context. Span groups are rebuilt from their character offsets
    either way (the retokenizer does not update them). The text never changes.
    """
    idx = doc.to_array(IDX).astype(numpy.int64)
    by_token: dict[int, list[int]] = {}
    for cut in sorted(set(cuts)):
        i = int(numpy.searchsorted(idx, cut, side="right")) - 1
        if i < 0 or idx[i] == cut or cut >= idx[i] + len(doc[i]):
            continue  # already a token boundary, or in the whitespace after a token
        by_token.setdefault(i, []).append(cut - int(idx[i]))
    if not by_token:
        return doc
    groups = {
        key: ([(s.start_char, s.end_char, s.label_, s.kb_id_, s.id_) for s in group], dict(group.attrs))
        for key, group in doc.spans.items()
    }
    if len(by_token) <= _RETOKENIZE_MAX or any(doc.has_annotation(a) for a in _TOKEN_ANNOTATIONS):
        with doc.retokenize() as retokenizer:
            for i, offsets in by_token.items():
                token = doc[i]
                bounds = [0, *offsets, len(token.text)]
                orths = [token.text[a:b] for a, b in zip(bounds, bounds[1:])]
                retokenizer.split(token, orths, heads=[(token, k) for k in range(len(orths))])
        new = doc
    else:
        words: list[str] = []
        spaces: list[bool] = []
        for token in doc:
            text = token.text
            offsets = by_token.get(token.i)  # type: ignore[assignment]
            if offsets is not None:
                bounds = [0, *offsets, len(text)]
                words.extend(text[a:b] for a, b in zip(bounds, bounds[1:]))
                spaces.extend([False] * (len(bounds) - 2))
            else:
                words.append(text)
            spaces.append(bool(token.whitespace_))
        new = Doc(doc.vocab, words=words, spaces=spaces)
        new.user_data.update(doc.user_data)
        new.cats = dict(doc.cats)
        new.user_hooks.update(doc.user_hooks)
        new.user_token_hooks.update(doc.user_token_hooks)
        new.user_span_hooks.update(doc.user_span_hooks)
        new._context = doc._context
        doc_text(new, doc_text(doc))
    for key, (spans, attrs) in groups.items():
        rebuilt = []
        for start, end, label, kb_id, span_id in spans:
            span = new.char_span(start, end, label=label, kb_id=kb_id, span_id=span_id, alignment_mode="expand")
            if span is not None:
                rebuilt.append(span)
        new.spans[key] = rebuilt
        new.spans[key].attrs.update(attrs)
    return new


def set_sentence_starts(doc: "Doc", spans: Sequence[tuple[int, int]]) -> "Doc":
    """Mark the token at each span start as a sentence start (one bulk ``from_array``), all others not.

    Leading whitespace before the first sentence stays with it; a start inside a token splits that token
    (see :func:`split_tokens_at`), so use the returned Doc.
    """
    n = len(doc)
    if n == 0:
        return doc
    starts = numpy.fromiter((s for s, _ in spans[1:]), dtype=numpy.int64, count=max(len(spans) - 1, 0))
    idx = doc.to_array(IDX).astype(numpy.int64)
    pos = numpy.searchsorted(idx, starts)
    inside = (pos >= n) | (idx[numpy.minimum(pos, n - 1)] != starts)
    if inside.any():
        doc = split_tokens_at(doc, starts[inside].tolist())
        n = len(doc)
        idx = doc.to_array(IDX).astype(numpy.int64)
        pos = numpy.searchsorted(idx, starts)
        pos = pos[pos < n]
    values = numpy.full((n, 1), -1, dtype=numpy.int32)
    values[0, 0] = 1
    values[pos, 0] = 1
    doc.from_array([SENT_START], values.astype(numpy.uint64))  # type: ignore[arg-type]
    return doc


class ChemrefSentencizer(ChemrefPipe):
    """Rule-based sentence boundaries from :class:`SentenceRules` (see the module docstring)."""

    def __init__(self, name: str = "chemref_sentencizer", *, rules: SentenceRules | None = None,
                 citations_key: str = CITATIONS_KEY, scorer: Callable[..., dict[str, Any]] | None = None) -> None:
        register_extensions()
        self.name = name
        self.rules = rules if rules is not None else SentenceRules.default()
        self.citations_key = citations_key
        self.scorer = scorer

    def __call__(self, doc: "Doc") -> "Doc":
        group = doc.spans.get(self.citations_key) if doc.spans else None
        protected = [(s.start_char, s.end_char) for s in group if s.end_char > s.start_char] if group else ()
        return set_sentence_starts(doc, split_sentences(doc_text(doc), protected=protected, rules=self.rules))

    def add_abbreviations(self, words: Iterable[str], *, kind: str = NAME) -> None:
        """Add user abbreviations (saved with the pipeline); see :meth:`SentenceRules.with_abbreviations`."""
        self.rules = self.rules.with_abbreviations(words, kind=kind)

    # serialisation: JSON only
    def to_bytes(self, *, exclude: Sequence[str] = ()) -> bytes:
        """The rule tables as JSON bytes (spaCy serialisation)."""
        return srsly.json_dumps({"rules": self.rules.to_dict()}).encode("utf-8")

    def from_bytes(self, data: bytes, *, exclude: Sequence[str] = ()) -> "ChemrefSentencizer":
        """Load rule tables written by :meth:`to_bytes`."""
        self.rules = self._rules_from(parse_json(data), "<bytes>")
        return self

    def to_disk(self, path: str | Path, *, exclude: Sequence[str] = ()) -> None:
        """Write the rule tables as JSON into the component's folder."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / _RULES_FILE, self.rules.to_dict())

    def from_disk(self, path: str | Path, *, exclude: Sequence[str] = ()) -> "ChemrefSentencizer":
        """Load the rule tables written by :meth:`to_disk` (InputError when the file is missing)."""
        file = Path(path) / _RULES_FILE
        if not file.is_file():
            raise InputError("the saved chemref_sentencizer has no rule file", path=str(file),
                             hint="save the pipeline again with nlp.to_disk()")
        self.rules = SentenceRules.from_dict(parse_json(file.read_bytes(), path=file), source=str(file))
        return self

    @staticmethod
    def _rules_from(data: Any, source: str) -> SentenceRules:
        if not isinstance(data, dict) or "rules" not in data:
            raise InputError("serialised chemref_sentencizer data has no 'rules'", path=source)
        return SentenceRules.from_dict(data["rules"], source=source)
