"""The NLP pieces the builder calls, bundled so tests can swap in stand-ins.

The default bundle is the real modules (sentence splitter, author-mention detector, claim classifier);
none of them imports spaCy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Sequence

from chemref.nlp.authors import mask_author_mentions, named_author_mentions
from chemref.nlp.claims import classify_citation
from chemref.nlp.sentences import split_sentences

__all__ = ["Components", "default_components"]


@dataclass(frozen=True, slots=True)
class Components:
    """``split(text, protected=...)``, ``mentions(text, surnames)``, ``mask(text, mentions)``,
    ``classify(sentence, citation=(start, end))`` with the signatures of :mod:`chemref.nlp`'s rule engines."""

    split: Callable[..., Sequence[tuple[int, int]]]
    mentions: Callable[[str, Sequence[str]], Sequence[Any]]
    mask: Callable[[str, Sequence[Any]], str]
    classify: Callable[..., Any]


@lru_cache(maxsize=1)
def default_components() -> Components:
    """The real components (one bundle per process)."""
    return Components(split=split_sentences, mentions=named_author_mentions,
                      mask=mask_author_mentions, classify=classify_citation)
