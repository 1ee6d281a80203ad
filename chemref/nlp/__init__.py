"""spaCy components for scientific and chemical text.

``load()`` builds the pipeline, ``split_sentences()`` is the fast path without spaCy, ``make_doc()``
turns a JATS paragraph into a processed Doc. Names are imported lazily, so importing this package (or a
pure-Python submodule such as :mod:`chemref.nlp.rules`) does not import spaCy.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports


#: The component names chemref registers with spaCy (``nlp.add_pipe(name)``), in pipeline order.
COMPONENT_NAMES = ("chemref_citations", "chemref_sentencizer", "chemref_author_mentions",
                   "chemref_claim_classifier", "chemref_chemicals")
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

__all__ = ["COMPONENT_NAMES", "SPANS_KEY", *_LAZY]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
