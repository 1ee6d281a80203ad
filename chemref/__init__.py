"""chemref: chemistry-aware NLP for literature benchmarks.

The public API is re-exported here lazily, so ``import chemref`` (and the ``chemref`` CLI)
stays fast and never imports spaCy unless an NLP entry point is used.
"""

from __future__ import annotations

from chemref._lazy import lazy_exports
from chemref._version import __version__
from chemref.errors import BratError, ChemrefError, InputError, JatsError, ScoringError

# public name -> module that defines it
_LAZY: dict[str, str] = {
    "normalize_doi": "chemref.doi",
    "read_jats": "chemref.jats.reader:read",
    "score_brat": "chemref.scoring",
    "load": "chemref.nlp",
    "split_sentences": "chemref.nlp",
    "make_doc": "chemref.nlp",
    "build_questions": "chemref.questions:build",
}

__all__ = ["__version__", "ChemrefError", "InputError", "BratError", "JatsError", "ScoringError", *_LAZY]

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
