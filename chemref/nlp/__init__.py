"""spaCy components for scientific and chemical text.

``load()`` builds the pipeline, ``split_sentences()`` is the fast path without spaCy, ``make_doc()``
turns a JATS paragraph into a processed Doc. Names are imported lazily, so importing this package (or a
pure-Python submodule such as :mod:`chemref.nlp.rules`) does not import spaCy.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports


#: The one registry of chemref's spaCy components, in pipeline order: name -> (module, factory function).
#: ``load()`` builds the pipeline from it and the ``spacy_factories`` entry points in pyproject.toml list
#: exactly these (a test checks that they agree).
COMPONENTS = {
    "chemref_citations": ("chemref.nlp.citations", "make_citations"),
    "chemref_sentencizer": ("chemref.nlp.sentencizer", "make_sentencizer"),
    "chemref_author_mentions": ("chemref.nlp.authors", "make_author_mentions"),
    "chemref_claim_classifier": ("chemref.nlp.claims", "make_claim_classifier"),
    "chemref_chemicals": ("chemref.nlp.chemicals", "make_chemicals"),
}
#: The component names chemref registers with spaCy (``nlp.add_pipe(name)``), in pipeline order.
COMPONENT_NAMES = tuple(COMPONENTS)
#: The span group holding citation markers.
SPANS_KEY = "chemref_citations"

_LAZY = {
    "load": "chemref.nlp.pipeline",
    "split_sentences": "chemref.nlp.sentences",
    "make_doc": "chemref.nlp.bridge",
    "SentenceRules": "chemref.nlp.rules",
    "chemical_tokenizer": "chemref.nlp.tokenizer",
    "count_chemicals": "chemref.nlp.chemicals",
}

__all__ = ["COMPONENTS", "COMPONENT_NAMES", "SPANS_KEY", *_LAZY]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
