"""The one BM25 of chemref: :class:`TitleIndex` ranks titles by an excerpt's words (Lucene's variant, English
stop words, the numbers of the ``bm25s`` library to the last bit).

Plain Python over the standard library (numpy only for whole score lists and large queries, imported then), so
the question build ranks an article's references with it at little import cost; the BM25 baseline
(:mod:`chemref.baseline.bm25`) ranks a candidate pool with it, and the questions' difficulty profile
(:mod:`chemref.questions.funnel.difficulty`) reads the rank of a cited work from it.
"""

from __future__ import annotations

import math
import re
import struct
from array import array
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any

__all__ = ["B", "K1", "STOP_WORDS", "TitleIndex", "query_text"]

_MARKER = re.compile(r"\[CITATIONS?\]")


def query_text(excerpt: str) -> str:
    """The excerpt without its citation marker(s) (``[CITATION]`` or CiteME's ``[CITATIONS]``)."""
    return _MARKER.sub(" ", excerpt)


#: Lucene's English stop words: the list bm25s applies with ``stopwords="en"`` (a test checks they are the same).
STOP_WORDS = frozenset(("a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
                        "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
                        "they", "this", "to", "was", "will", "with"))
#: bm25s's (and scikit-learn's) token pattern, applied to the lower-cased text
_WORD = re.compile(r"(?u)\b\w\w+\b")
#: Lucene's BM25 parameters (bm25s's defaults)
K1, B = 1.5, 0.75
#: a query whose words are indexed in more titles than this together is scored with numpy, else in plain Python
_SPARSE_MAX = 2048
_SINGLE = struct.Struct("f")


def _words(text: str) -> list[str]:
    """The indexed words of ``text``, in order: lower-cased runs of two or more word characters, stop words out."""
    return [word for word in _WORD.findall(text.lower()) if word not in STOP_WORDS]


def _single(value: float) -> float:
    """``value`` rounded to single precision (what a float32 array stores)."""
    return _SINGLE.unpack(_SINGLE.pack(value))[0]


class TitleIndex:
    """BM25 over a list of titles (Lucene's variant, k1 = 1.5, b = 0.75, English stop words), built once;
    :meth:`scores` of an excerpt (its citation marker left out) and :meth:`rank` of one title for it.

    The numbers are bm25s's (``bm25s.BM25()`` over ``bm25s.tokenize(..., stopwords="en")``), to the last bit: each
    title word's weight is computed in double precision and stored in single precision, and a query adds the
    weights of its words (a repeated word twice) in single precision, in the query's word order. A test checks
    them against bm25s. The index keeps, per word, the titles that hold it and how often; a word's weights are
    computed the first time a query asks for it. Small queries are scored in plain Python, so an article's ranks
    need neither numpy nor bm25s; :meth:`scores` and queries over large indexes use numpy.

    ``queries`` given with the titles are split once with the index, which then holds only their words: read
    them with :meth:`query_scores` and :meth:`query_rank` (:meth:`scores` and :meth:`rank` of another excerpt need
    an index built without queries). :meth:`streamed` builds the same index from titles read one at a time, keeping only
    their word counts (a corpus of millions of titles).
    """

    @classmethod
    def streamed(cls, titles: Iterable[str]) -> "TitleIndex":
        """The index of ``titles`` (any iterable, consumed once): each title is turned into word counts as it comes,
        and no title is kept."""
        return cls(titles)

    def __init__(self, titles: Iterable[str], queries: Sequence[str] = ()) -> None:
        self._queries = [_words(query_text(query)) for query in queries]
        # with queries, only their words are indexed (a title's length still counts all of its words)
        self._only = frozenset(chain.from_iterable(self._queries)) if queries else None
        vocab: dict[str, int] = {}
        postings: list[tuple[array, array]] = []  # per word id: the titles that hold it (in order), and how often
        lengths = array("i")  # each title's number of indexed words
        for number, title in enumerate(titles):
            words = _words(title)
            lengths.append(len(words))
            if self._only is not None:
                words = [word for word in words if word in self._only]
                if not words:
                    continue
            tally: dict[str, int] = {}  # (how often each word occurs, in the order of first occurrence)
            for word in words:
                tally[word] = tally.get(word, 0) + 1
            for word, tf in tally.items():
                at = vocab.get(word)
                if at is None:
                    at = vocab[word] = len(postings)
                    postings.append((array("i"), array("i")))
                holders, counts = postings[at]
                holders.append(number)
                counts.append(tf)
        self.size = len(lengths)
        self._vocab, self._postings, self._lengths = vocab, postings, lengths
        self._avgdl = sum(lengths) / len(lengths) if lengths else 0.0
        self._norms: array | None = None  # per title: k1 * (1 - b + b * dl / avgdl), made with the first weights
        self._weights: dict[int, array] = {}  # per word id, in the order of its titles (float32)
        self._arrays: dict[int, tuple[Any, Any]] = {}  # numpy views of a word's titles and weights

    def _weights_of(self, word: int) -> array:
        """The weights of word id ``word`` in its titles: ``idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))``, with
        ``idf = log(1 + (n - df + 0.5) / (df + 0.5))`` in single precision, each stored in single precision."""
        weights = self._weights.get(word)
        if weights is None:
            holders, counts = self._postings[word]
            norms = self._norms
            if norms is None:
                avgdl = self._avgdl
                norms = self._norms = array("d", [K1 * ((1 - B) + B * length / avgdl) for length in self._lengths])
            n, df = self.size, len(holders)
            idf = _single(math.log(1 + (n - df + 0.5) / (df + 0.5)))
            weights = self._weights[word] = array("f", [idf * (tf / (norms[title] + tf))
                                                        for title, tf in zip(holders, counts)])
        return weights

    def _excerpt_ids(self, excerpt: str) -> list[int]:
        """The word ids of an excerpt not given to the constructor (an index built with queries holds only theirs)."""
        if self._only is not None:
            raise ValueError("this index holds only the words of the queries given with it: use query_scores or "
                             "query_rank, or build it without queries")
        return self._ids(_words(query_text(excerpt)))

    def _ids(self, words: Sequence[str]) -> list[int]:
        vocab = self._vocab
        return [vocab[word] for word in words if word in vocab]

    def _dense(self, ids: list[int]) -> Any:
        """Every title's score for the word ids ``ids`` (a numpy array in title order)."""
        import numpy as np  # (numpy, loaded only when a large or whole score list is asked for)

        scores = np.zeros(self.size, dtype=np.float32)
        for word in ids:
            arrays = self._arrays.get(word)
            if arrays is None:  # numpy views of the word's titles and weights, made once
                arrays = self._arrays[word] = (np.frombuffer(self._postings[word][0], dtype=np.intc),
                                               np.frombuffer(self._weights_of(word), dtype=np.float32))
            np.add.at(scores, *arrays)
        return scores.astype(float)

    def _rank_ids(self, ids: list[int], target: int) -> int:
        """:meth:`rank_in` of ``target`` for the query of word ids ``ids``, adding only the weights of the titles
        that hold one of its words."""
        postings = self._postings
        if sum(len(postings[word][0]) for word in ids) > _SPARSE_MAX:
            return self.rank_in(self._dense(ids), target)
        # Every weight is above 0 (idf > 0 and 0 < tf / (norm + tf)), so a title holding a word of the query
        # scores above 0 and the others exactly 0. A float32 array adds in single precision, as bm25s does.
        scores = array("f", bytes(4 * self.size))
        for word in ids:
            for title, weight in zip(postings[word][0], self._weights_of(word)):
                scores[title] += weight
        value = scores[target] if 0 <= target < self.size else 0.0
        if not value:  # the target holds no word of the query: it scores 0, as every title does at least
            return self.size
        return sum(map(value.__le__, scores))

    def scores(self, excerpt: str) -> Any:
        """The BM25 score of every title for ``excerpt`` (a numpy array in title order)."""
        return self._dense(self._excerpt_ids(excerpt))

    def query_scores(self, n: int) -> Any:
        """:meth:`scores` of the ``n``-th of the ``queries`` given to the constructor."""
        return self._dense(self._ids(self._queries[n]))

    def query_rank(self, n: int, target: int) -> int:
        """:meth:`rank` of title ``target`` for the ``n``-th of the ``queries`` given to the constructor."""
        return self._rank_ids(self._ids(self._queries[n]), target)

    @staticmethod
    def rank_in(scores: Any, target: int) -> int:
        """The rank of title ``target`` in ``scores``: 1 + the number of other titles scoring at least as high
        (a tie counts against the target, so a query sharing no word with any title ranks it last)."""
        value = scores[target]
        if value != value:  # NaN (a degenerate index) orders with nothing: the target ranks last
            return len(scores)
        return int((scores >= value).sum())

    def rank(self, excerpt: str, target: int) -> int:
        """The rank of title ``target`` for ``excerpt`` (see :meth:`rank_in`)."""
        return self._rank_ids(self._excerpt_ids(excerpt), target)
