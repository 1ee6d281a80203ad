"""spaCy component ``chemref_claim_classifier``: ``doc.cats = {"CLAIM": p, "PASSING": 1 - p}``.

When sentences are set, every sentence holding a citation (a span of ``doc.spans[citations_key]``) gets
``span._.chemref_claim`` (a :class:`chemref.nlp.claims.ClaimDecision`) and ``doc.cats`` is the mean over those
sentences; otherwise ``doc.cats`` is the decision for the whole text (at its citation when it has exactly one).
The rules are :mod:`chemref.nlp.claims`.
"""

from __future__ import annotations

from typing import Any, Callable

from spacy.tokens import Doc, Span

from chemref.nlp.claims import DEFAULT_RULES, LABELS, ClaimDecision, ClaimRules
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.components.extensions import CITATIONS_KEY, doc_text, register_extensions, spans_within
from chemref.nlp.components.serialize import JsonRulesMixin

__all__ = ["ClaimClassifierComponent"]


class ClaimClassifierComponent(JsonRulesMixin, ChemrefPipe):
    """Rule-based CLAIM vs PASSING text categoriser for citing sentences."""

    rules_class = ClaimRules
    tables_file = "claims_rules.json"  # in the component's folder of a saved pipeline

    def __init__(self, name: str = "chemref_claim_classifier", *, citations_key: str = CITATIONS_KEY,
                 rules: ClaimRules | None = None, scorer: Callable[..., dict[str, Any]] | None = None) -> None:
        register_extensions()
        self.name = name
        self.citations_key = citations_key
        self.rules = rules or DEFAULT_RULES
        self.scorer = scorer

    def _decide(self, text: str, offset: int, citations: list[Span]) -> ClaimDecision:
        if len(citations) == 1:
            cit = citations[0]
            return self.rules.classify(text, (cit.start_char - offset, cit.end_char - offset))
        return self.rules.classify(text)

    def __call__(self, doc: Doc) -> Doc:
        citations = list(doc.spans[self.citations_key]) if self.citations_key in doc.spans else []
        text = doc_text(doc)
        scores: list[float] = []
        if doc.has_annotation("SENT_START") and citations:
            sents = list(doc.sents)
            for sent, inside in zip(sents, spans_within([(s.start_char, s.end_char) for s in sents], citations)):
                if inside:
                    decision = self._decide(text[sent.start_char:sent.end_char], sent.start_char, inside)
                    sent._.chemref_claim = decision
                    scores.append(decision.score)
        # doc level: the mean over citing sentences when sentences are set, else the whole text
        p = sum(scores) / len(scores) if scores else self._decide(text, 0, citations).score
        doc.cats = {"CLAIM": p, "PASSING": 1.0 - p}
        return doc

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(LABELS)

    def score_kwargs(self) -> dict[str, Any]:
        return {"labels": self.labels}
