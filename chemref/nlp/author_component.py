"""spaCy component ``chemref_author_mentions``: author-mention spans in ``doc.spans["chemref_author_mentions"]``.

Span label = pattern ("et_al", "and", ..., "surname"), ``span.kb_id_`` = the name matched. Surnames of the
cited works come from ``doc._.chemref_references`` (ref id -> Reference) and the ids on the citation spans
(``doc.spans["chemref_citations"]``, ``span._.chemref_ref_ids``).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from chemref.nlp.authors import DEFAULT_RULES, AuthorRules
from chemref.nlp.extensions import doc_text, spans_within
from chemref.nlp.serialize import JsonRulesMixin
from chemref.nlp.extensions import register_extensions as register_pipeline_extensions

__all__ = ["AuthorMentionsComponent", "make_author_mentions", "register_extensions"]



def register_extensions() -> None:
    """Register the extensions this component reads (guarded: the pipeline's own registration wins)."""
    register_pipeline_extensions()  # the pipeline's own getters/setters come first
    if not Doc.has_extension("chemref_references"):
        Doc.set_extension("chemref_references", default=None)
    if not Span.has_extension("chemref_ref_ids"):
        Span.set_extension("chemref_ref_ids", default=None)


class AuthorMentionsComponent(JsonRulesMixin):
    """Finds author mentions per sentence (or per doc) and checks the cited references' surnames."""

    rules_class = AuthorRules
    tables_file = "authors_rules.json"  # in the component's folder of a saved pipeline

    def __init__(self, nlp: Language, name: str = "chemref_author_mentions", *,
                 spans_key: str = "chemref_author_mentions", citations_key: str = "chemref_citations",
                 exclude_citations: bool = True, rules: AuthorRules | None = None) -> None:
        self.name = name
        self.spans_key = spans_key
        self.citations_key = citations_key
        self.exclude_citations = exclude_citations
        self.rules = rules or DEFAULT_RULES
        register_extensions()

    # ---------------------------------------------------------------------------------------------
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

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)


@Language.factory(
    "chemref_author_mentions",
    assigns=["doc.spans"],
    requires=["doc.spans"],
    default_config={"spans_key": "chemref_author_mentions", "citations_key": "chemref_citations",
                    "exclude_citations": True},
)
def make_author_mentions(nlp: Language, name: str, spans_key: str, citations_key: str,
                         exclude_citations: bool) -> AuthorMentionsComponent:
    """Factory for ``nlp.add_pipe("chemref_author_mentions")`` (after ``chemref_citations``)."""
    return AuthorMentionsComponent(nlp, name, spans_key=spans_key, citations_key=citations_key,
                                   exclude_citations=exclude_citations)


