"""chemref's natural-language processing: pure-Python rule engines and the spaCy components built on them.

The modules directly in this package are rule engines that never import spaCy (``sentences``, ``rules``,
``authors``, ``claims``, ``claims_model``, ``citation_markers``, ``prefilters``, ``wordlists``, ``tokenizer_rules``,
``reagents``). The spaCy components, the chemical-mention model with its features, and their one registry are
in :mod:`chemref.nlp.components`.

``load()`` builds the pipeline, ``split_sentences()`` is the fast path without spaCy, ``make_doc()`` turns a
JATS paragraph into a processed Doc. Names are imported lazily, so importing this package (or a rule engine
such as :mod:`chemref.nlp.rules`) does not import spaCy.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports

_LAZY = {
    "load": "chemref.nlp.components.pipeline",
    "split_sentences": "chemref.nlp.sentences",
    "make_doc": "chemref.nlp.components.bridge",
    "SentenceRules": "chemref.nlp.rules",
    "chemical_tokenizer": "chemref.nlp.components.tokenizer",
    "count_chemicals": "chemref.nlp.components.chemicals",
    # the component names chemref registers with spaCy, in pipeline order (from the one registry)
    "COMPONENTS": "chemref.nlp.components.factories",
    "CITATIONS_KEY": "chemref.nlp.components.factories",
}

__all__ = [*_LAZY]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
