"""spaCy component ``chemref_claim_classifier``: ``doc.cats = {"CLAIM": p, "PASSING": 1 - p}``.

When sentences are set, every sentence holding a citation gets ``span._.chemref_claim`` (a
:class:`chemref.nlp.claims.ClaimDecision`) and ``doc.cats`` is the mean over those sentences; otherwise
``doc.cats`` is the decision for the whole text (at its citation when it has exactly one).
"""

from __future__ import annotations

from typing import Iterable

from spacy.language import Language
from spacy.tokens import Doc, Span

from chemref.nlp.claims import DEFAULT_RULES, ClaimDecision, ClaimRules
from chemref.nlp.extensions import doc_text, spans_within
from chemref.nlp.serialize import JsonRulesMixin
from chemref.nlp.extensions import register_extensions as register_pipeline_extensions

__all__ = ["ClaimClassifierComponent", "make_claim_classifier", "register_extensions"]



def _claim_key(span: Span) -> tuple[str, str, int, int]:
    return ("._.", "chemref_claim", span.start_char, span.end_char)


def _get_claim(span: Span) -> ClaimDecision | None:
    value = span.doc.user_data.get(_claim_key(span))
    return None if value is None else ClaimDecision(*value)


def _set_claim(span: Span, decision: ClaimDecision | None) -> None:
    # stored as a plain (label, score, rule) tuple so Docs stay msgpack-safe (DocBin, n_process > 1)
    key = _claim_key(span)
    if decision is None:
        span.doc.user_data.pop(key, None)
    else:
        span.doc.user_data[key] = (decision.label, decision.score, decision.rule)


def register_extensions() -> None:
    """Register ``span._.chemref_claim`` (guarded, so a pipeline-wide registration wins)."""
    register_pipeline_extensions()  # the pipeline's own getters/setters come first
    if not Span.has_extension("chemref_claim"):
        Span.set_extension("chemref_claim", getter=_get_claim, setter=_set_claim)


class ClaimClassifierComponent(JsonRulesMixin):
    """Rule-based CLAIM vs PASSING text categoriser for citing sentences."""

    rules_class = ClaimRules
    tables_file = "claims_rules.json"  # in the component's folder of a saved pipeline

    def __init__(self, nlp: Language, name: str = "chemref_claim_classifier", *,
                 citations_key: str = "chemref_citations", rules: ClaimRules | None = None) -> None:
        self.name = name
        self.citations_key = citations_key
        self.rules = rules or DEFAULT_RULES
        register_extensions()

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

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)


@Language.factory(
    "chemref_claim_classifier",
    assigns=["doc.cats", "span._.chemref_claim"],
    requires=["doc.spans"],
    default_config={"citations_key": "chemref_citations"},
)
def make_claim_classifier(nlp: Language, name: str, citations_key: str) -> ClaimClassifierComponent:
    """Factory for ``nlp.add_pipe("chemref_claim_classifier")`` (after ``chemref_citations``)."""
    return ClaimClassifierComponent(nlp, name, citations_key=citations_key)
