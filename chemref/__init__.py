"""chemref: chemistry-aware NLP for literature benchmarks.

The public API is re-exported here lazily, so ``import chemref`` (and the ``chemref`` CLI)
stays fast and never imports spaCy unless an NLP entry point is used.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

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


def __getattr__(name: str) -> Any:
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'chemref' has no attribute {name!r}")
    module_name, _, attr = target.partition(":")
    value = getattr(import_module(module_name), attr or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
