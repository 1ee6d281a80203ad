"""Rule-based sentence splitting for scientific and chemical text, as character offsets.

Pure Python + ``re`` (never imports spaCy), so the question builder's fast path and worker processes
stay light. The text is never changed: sentences are ``(start, end)`` offsets. Every regex is bounded or
possessive, so the work is linear in the input.

1. Structure found before the pass (``structure``): inline list items ("1. ... 2. ...", "a) ... b) ...")
   force a cut before each later item's marker, and their markers and spaced ellipses (". . .") are quiet
   spans where no boundary falls.
2. Candidate boundaries (``patterns``: ``_CANDIDATE``, one compiled regex): terminal punctuation with its closing
   quotes/brackets, newlines, periods glued to citation numbers, periods with the space after them lost.
3. One left-to-right pass (``core``) decides each candidate: cheap tests
   on the next character first, then :func:`_decide` (the end moved over citation markers) and
   :func:`_ends_at` (the verdict), with the named decision rules of ``periods`` (the word before a period and
   the kind of word after it, from the rule tables; brackets; citations that open a sentence; the vetoes) and
   ``newlines``; protected spans (citation anchors) and the markers after them are handled in ``protected``.
"""

from __future__ import annotations

from chemref.nlp.rules import SentenceRules
from chemref.nlp.sentences.core import split_sentences
from chemref.nlp.sentences.patterns import DEFAULT_RULES

__all__ = ["split_sentences", "SentenceRules", "DEFAULT_RULES"]
