"""spaCy component ``chemref_author_mentions``: author-mention spans in ``doc.spans[spans_key]`` (by default
``doc.spans["chemref_author_mentions"]``).

Span label = pattern ("et_al", "and", ..., "surname"), ``span.kb_id_`` = the name matched
(:mod:`chemref.nlp.authors` finds them). Surnames of the cited works come from ``doc._.chemref_references``
(ref id -> Reference) and the ids on the citation spans (``doc.spans[citations_key]``,
``span._.chemref_ref_ids``).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from spacy.tokens import Doc, Span, SpanGroup

from chemref.nlp.authors import DEFAULT_RULES, AuthorRules
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.components.extensions import CITATIONS_KEY, doc_text, register_extensions, spans_within
from chemref.nlp.components.serialize import JsonRulesMixin

__all__ = ["AuthorMentionsComponent"]


class AuthorMentionsComponent(JsonRulesMixin, ChemrefPipe):
    """Finds author mentions per sentence (or per doc) and checks the cited references' surnames."""

    rules_class = AuthorRules
    tables_file = "authors_rules.json"  # in the component's folder of a saved pipeline

    def __init__(self, name: str = "chemref_author_mentions", *, spans_key: str = "chemref_author_mentions",
                 citations_key: str = CITATIONS_KEY, exclude_citations: bool = True,
                 rules: AuthorRules | None = None, scorer: Callable[..., dict[str, Any]] | None = None) -> None:
        register_extensions()
        self.name = name
        self.spans_key = spans_key
        self.citations_key = citations_key
        self.exclude_citations = exclude_citations
        self.rules = rules or DEFAULT_RULES
        self.scorer = scorer

    @staticmethod
    def _cited_surnames(refs: Mapping[str, Any], citations: Iterable[Span]) -> tuple[str, ...]:
        names: list[str] = []
        for cit in citations:
            for ref_id in cit._.chemref_ref_ids or ():
                ref = refs.get(ref_id)
                if ref is not None:
                    names.extend(getattr(ref, "authors", ()) or ())
        return tuple(dict.fromkeys(names))

    def __call__(self, doc: Doc) -> Doc:
        citations = list(doc.spans[self.citations_key]) if self.citations_key in doc.spans else []
        if doc.has_annotation("SENT_START"):
            windows = [(s.start_char, s.end_char) for s in doc.sents]
        else:
            windows = [(0, len(doc.text))]
        group: list[Span] = []
        text = doc_text(doc)
        refs = (doc._.chemref_references or {}) if citations else {}  # the getter rebuilds objects: once per Doc
        for (w_start, w_end), in_window in zip(windows, spans_within(windows, citations)):
            surnames = self._cited_surnames(refs, in_window) if in_window else ()
            for m in self.rules.find(text[w_start:w_end], surnames):
                start, end = m.start + w_start, m.end + w_start
                if self.exclude_citations and any(start < c.end_char and end > c.start_char for c in in_window):
                    continue
                span = doc.char_span(start, end, label=m.pattern, kb_id=m.name or "", alignment_mode="expand")
                if span is not None:
                    group.append(span)
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=group)
        return doc

    def score_kwargs(self) -> dict[str, Any]:
        return {"spans_key": self.spans_key}
