"""The NLP pieces the builder calls, bundled so tests can swap in stand-ins.

The default bundle imports the real modules (sentence splitter, author-mention detector, claim
classifier) only when first needed; none of them imports spaCy on this fast path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Sequence

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
    """The real components (imported once per process)."""
    from chemref.nlp.authors import mask_author_mentions, named_author_mentions  # noqa: PLC0415 (the rule tables compile on first use)
    from chemref.nlp.claims import classify_citation  # noqa: PLC0415 (the rule tables compile on first use)
    from chemref.nlp.sentences import split_sentences  # noqa: PLC0415 (the rule tables compile on first use)

    return Components(split=split_sentences, mentions=named_author_mentions,
                      mask=mask_author_mentions, classify=classify_citation)
