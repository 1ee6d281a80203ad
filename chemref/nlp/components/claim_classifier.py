"""spaCy component ``chemref_claim_classifier``: ``doc.cats = {"CLAIM": p, "PASSING": 1 - p}``.

When sentences are set, every sentence holding a citation (a span of ``doc.spans[citations_key]``) gets
``span._.chemref_claim`` (a :class:`chemref.nlp.claims.ClaimDecision`) and ``doc.cats`` is the mean over those
sentences; otherwise ``doc.cats`` is the decision for the whole text (at its citation when it has exactly one).
The classifier is :class:`chemref.nlp.claims.ClaimClassifier` (the rules and the trained model); a saved pipeline
holds both as JSON (``claims_rules.json``, ``claims_model.json``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable

from spacy.tokens import Doc, Span

from chemref._io import write_text
from chemref.errors import InputError
from chemref.jsonl import parse_json
from chemref.nlp.claims import LABELS, ClaimClassifier, ClaimDecision, ClaimRules, default_classifier
from chemref.nlp.claims_model import MODEL_FILE, ClaimModel
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.components.extensions import CITATIONS_KEY, doc_text, register_extensions, spans_within

__all__ = ["ClaimClassifierComponent"]

TABLES_FILE = "claims_rules.json"


class ClaimClassifierComponent(ChemrefPipe):
    """CLAIM vs PASSING text categoriser for citing sentences (rules and a trained model)."""

    def __init__(self, name: str = "chemref_claim_classifier", *, citations_key: str = CITATIONS_KEY,
                 classifier: ClaimClassifier | None = None,
                 scorer: Callable[..., dict[str, Any]] | None = None) -> None:
        register_extensions()
        self.name = name
        self.citations_key = citations_key
        self.classifier = classifier or default_classifier()
        self.scorer = scorer

    @property
    def rules(self) -> ClaimRules:
        """The rule tables the model reads."""
        return self.classifier.rules

    def _decide(self, text: str, offset: int, citations: list[Span]) -> ClaimDecision:
        if len(citations) == 1:
            cit = citations[0]
            return self.classifier.classify(text, (cit.start_char - offset, cit.end_char - offset))
        return self.classifier.classify(text)

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

    # --- serialisation: JSON, never pickle ----------------------------------------------------------------
    def _model_json(self) -> dict[str, Any] | None:
        return self.classifier.model.to_json() if self.classifier.model is not None else None

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        """The rule tables and the model's weights as JSON bytes."""
        return json.dumps({"claims_rules": self.rules.to_json(), "claims_model": self._model_json()},
                          ensure_ascii=False, sort_keys=True).encode("utf-8")

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> "ClaimClassifierComponent":
        """Load what :meth:`to_bytes` wrote."""
        try:
            parsed = parse_json(data)  # strict: finite numbers, bounded nesting (an InputError)
            tables, model = parsed["claims_rules"], parsed["claims_model"]
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"not a saved claim classifier ({type(exc).__name__})",
                             hint="save the pipeline again with nlp.to_bytes()") from None
        self.classifier = ClaimClassifier(ClaimRules(tables), ClaimModel(model) if model is not None else None)
        return self

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Write ``claims_rules.json`` and ``claims_model.json`` into the component's folder."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        write_text(path / TABLES_FILE, json.dumps(self.rules.to_json(), ensure_ascii=False, sort_keys=True))
        model = self._model_json()
        if model is not None:
            write_text(path / MODEL_FILE, json.dumps(model, ensure_ascii=False))

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "ClaimClassifierComponent":
        """Load the files written by :meth:`to_disk` (InputError when the rule tables are missing; without a
        model file the component classifies with the rules alone, as it was saved)."""
        tables = Path(path) / TABLES_FILE
        if not tables.is_file():
            raise InputError("the saved component has no rule-table file", path=str(tables),
                             hint="save the pipeline again with nlp.to_disk()")
        try:
            rules = ClaimRules(parse_json(tables.read_bytes(), path=tables))
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"invalid rule tables ({type(exc).__name__})", path=str(tables),
                             hint="save the pipeline again with nlp.to_disk()") from None
        model_file = Path(path) / MODEL_FILE
        self.classifier = ClaimClassifier(rules, ClaimModel.from_file(model_file) if model_file.is_file() else None)
        return self
