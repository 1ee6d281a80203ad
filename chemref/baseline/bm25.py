"""BM25 baseline for chemref question sets: rank candidate papers by the excerpt's words.

The query is the excerpt without its ``[CITATION]`` marker; the documents are candidate titles.
The default pool is every reference (with a DOI and a title) of the questions' source articles,
read with :func:`chemref.read_jats`; ``pool=PATH`` reads candidates from a JSONL of
``{"doi", "title"}``. Scoring is Lucene's BM25 variant (k1 = 1.5, b = 0.75, English stop words) with
the numbers of the ``bm25s`` library to the last bit (:class:`TitleIndex`; a test checks them against it).
Ties are broken by pool order (first-seen candidate first), so the output is deterministic.

:class:`TitleIndex` is the one BM25 of chemref: the baseline ranks with it, and the questions' difficulty
profile (:mod:`chemref.questions.funnel.difficulty`) reads the rank of the cited work from it.
"""

from __future__ import annotations

import math
import os
import re
import struct
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import Any, Iterator

from chemref.doi import normalize_doi
from chemref.errors import ChemrefError, InputError, printable
from chemref.inputs.contained import corpus_article, corpus_bases
from chemref.inputs.sources import iter_sources
from chemref.jsonl import read_jsonl
from chemref.scoring.benchmarks.readers import record_id

__all__ = ["TitleIndex", "bm25_predictions", "read_pool", "reference_pool", "query_text"]

PathLike = str | os.PathLike[str]
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
            for word, tf in Counter(words).items():
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
        import numpy as np  # noqa: PLC0415 (numpy, loaded only when a large or whole score list is asked for)

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
        if sum(len(self._postings[word][0]) for word in ids) > _SPARSE_MAX:
            return self.rank_in(self._dense(ids), target)
        scores: dict[int, float] = {}
        for word in ids:
            for title, weight in zip(self._postings[word][0], self._weights_of(word)):
                before = scores.get(title)
                scores[title] = weight if before is None else _single(before + weight)
        value = scores.get(target)
        if value is None:  # it scores 0, as every title does at least
            return self.size
        return sum(1 for other in scores.values() if other >= value)

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


def read_pool(path: PathLike, diagnostics: list[str] | None = None) -> list[tuple[str, str]]:
    """Candidates ``(doi, title)`` from a JSONL of ``{"doi", "title"}``; the first title of a repeated DOI wins."""
    pool: dict[str, str] = {}
    repeats = 0
    for line, record in read_jsonl(path):
        doi = normalize_doi(str(record.get("doi") or ""))
        title = record.get("title")
        if doi is None:
            raise InputError(f"pool entry has no valid 'doi' (found {record.get('doi')!r})", path=str(path), line=line,
                             hint='expected {"doi": "10.xxxx/...", "title": "..."} per line')
        if not isinstance(title, str) or not title.strip():
            raise InputError(f"pool entry {doi} has no 'title'", path=str(path), line=line)
        if doi in pool:
            repeats += 1
            continue
        pool[doi] = title
    if not pool:
        raise InputError("the candidate pool is empty", path=str(path))
    if repeats and diagnostics is not None:
        diagnostics.append(f"{repeats} repeated DOI(s) in the pool: the first title of each is used")
    return list(pool.items())


#: ``package.tar.gz:member/path.xml``, the ``source_file`` of an article read from a package
_PACKAGE_MEMBER = re.compile(r"(?P<package>.+?\.(?:tar\.gz|tgz|tar)):(?P<member>.+)", re.IGNORECASE)


def _not_found(name: str, bases: Sequence[Path]) -> InputError:
    return InputError(f"source article {printable(name[:300])!r} not found (looked in {', '.join(map(str, bases))})",
                      hint="give --corpus with the folder the questions were built from (a build given it by an "
                      "absolute path names its articles from that folder's name on), run from the folder the "
                      "questions were built in, or give --pool FILE")


def _source_articles(names: Iterable[str], roots: Sequence[Path], read: Any) -> Iterator[Any]:
    """The articles named by ``source_file`` values: files, and members of packages (each package streamed once,
    reading only the members named). Only files inside the (resolved) folders ``roots`` are read
    (:func:`~chemref.inputs.contained.corpus_article`): an absolute path, ``..`` or a link leading out is an
    error that names ``roots`` only."""

    def located(name: str) -> Path:
        path, why = corpus_article(name, roots)
        if path is None and why.startswith("not found"):
            raise _not_found(name, roots)
        if path is None:
            raise InputError(f"source article {printable(name[:300])!r} is not read ({why}; the folders: "
                             f"{', '.join(map(str, roots))})",
                             hint="give --corpus with the folder the questions were built from")
        return path

    members: dict[str, set[str]] = {}
    for name in names:
        match = _PACKAGE_MEMBER.fullmatch(name)
        if match is None:
            yield read(located(name))
        else:
            members.setdefault(match["package"], set()).add(match["member"])
    for package, wanted in members.items():
        path = located(package)
        left = set(wanted)
        for source in iter_sources([str(path)]):
            found = _PACKAGE_MEMBER.fullmatch(source.label)
            member = found["member"] if found else None
            if source.error is not None and not left:
                break
            if source.error is not None:
                raise InputError(source.error, hint="give --pool FILE, or repair the package")
            if member in left and source.data is not None:
                left.discard(member)
                yield read(source.data, name=f"{package}:{member}")
                if not left:
                    break
        if left:
            raise _not_found(f"{package}:{min(left)}", roots)


def reference_pool(source_files: Iterable[str], *, bases: Iterable[PathLike] = (".",),
                   diagnostics: list[str] | None = None) -> list[tuple[str, str]]:
    """Every reference with a DOI and a title in the given JATS files, as ``(doi, title)``, deduplicated by DOI.

    A file is read only when it lies inside one of the folders ``bases``: relative names are looked up in the
    working folder and under each of ``bases`` and its parent; an absolute name, one with ``..`` or one leading
    out through a link is an :class:`InputError`
    (:func:`~chemref.inputs.contained.corpus_article`).
    """
    try:
        from chemref.jats.reader import read  # noqa: PLC0415 (lxml, loaded only when reading JATS)
    except ImportError as exc:  # only while the JATS reader is missing from an install
        raise ChemrefError(f"the JATS reader is not available ({exc})",
                           hint="give a candidate pool with --pool FILE") from None

    roots = list(dict.fromkeys(Path(b).resolve() for b in bases))
    pool: dict[str, str] = {}
    untitled = 0
    for article in _source_articles(dict.fromkeys(source_files), roots, read):
        for reference in article.references:
            if not reference.doi:
                continue
            if not reference.title or not reference.title.strip():
                untitled += 1
                continue
            pool.setdefault(reference.doi, reference.title)
    if untitled and diagnostics is not None:
        diagnostics.append(f"{untitled} reference(s) with a DOI but no title left out of the pool")
    return list(pool.items())


def _question_records(questions: PathLike | Iterable[Mapping[str, Any]]
                      ) -> list[tuple[str, str, str | None, str | None]]:
    """``(id, excerpt, source_file, target_doi)`` per question."""
    if isinstance(questions, (str, os.PathLike)):
        records: list[tuple[int, Mapping[str, Any]]] = [(line, record) for line, record in read_jsonl(questions)]
        path: str | None = str(questions)
    else:
        records = list(enumerate(questions, start=1))
        path = None
    out = []
    for line, record in records:
        qid = record_id(dict(record), path=path, line=line)
        excerpt = record.get("excerpt")
        if not isinstance(excerpt, str) or not excerpt.strip():
            raise InputError(f"question {qid!r} has no 'excerpt'", path=path, line=line,
                             hint="expected chemref question JSONL (chemref questions build)")
        source = record.get("source_file")
        target = normalize_doi(str(record.get("target_doi") or ""))
        out.append((qid, excerpt, str(source) if source else None, target))
    return out


def _search_folders(questions: Any, corpus: PathLike | Iterable[PathLike] | None,
                    fallback: Sequence[PathLike] = ()) -> list[Path]:
    """Where relative ``source_file`` names are looked up, in order (duplicates removed): each corpus folder and
    its parent (:func:`~chemref.inputs.contained.corpus_bases`), the question file's folder, the working folder,
    then ``fallback``."""
    folders: list[Path] = []
    if corpus is not None:
        given = [Path(corpus)] if isinstance(corpus, (str, os.PathLike)) else [Path(c) for c in corpus]
        for folder in given:  # a corpus given but not there would silently fall back to the other folders
            if not folder.is_dir():
                raise InputError("the corpus folder does not exist" if not folder.exists() else
                                 "the corpus is not a folder", path=str(folder),
                                 hint="give the folder the questions were built from")
        folders += [base for folder in given for base in corpus_bases(folder)]
    if isinstance(questions, (str, os.PathLike)):
        folders.append(Path(questions).parent)
    folders += [Path("."), *(Path(folder) for folder in fallback)]
    return list(dict.fromkeys(p.resolve() for p in folders))


def _source_roots(questions: Any, corpus: PathLike | Iterable[PathLike] | None,
                  fallback: Sequence[PathLike] = ()) -> list[Path]:
    """The folders source articles are read inside (resolved, duplicates removed): the ``corpus`` folders;
    without them, the question file's folder, the working folder and the ``fallback`` folders."""
    given = [] if corpus is None else [corpus] if isinstance(corpus, (str, os.PathLike)) else list(corpus)
    folders = [Path(folder) for folder in given]
    if not folders:
        if isinstance(questions, (str, os.PathLike)):
            folders.append(Path(questions).parent)
        folders += [Path.cwd(), *(Path(folder) for folder in fallback)]
    return list(dict.fromkeys(folder.resolve() for folder in folders))


def bm25_predictions(questions: PathLike | Iterable[Mapping[str, Any]], *, pool: str | PathLike = "references",
                     k: int = 100, corpus: PathLike | Iterable[PathLike] | None = None,
                     diagnostics: list[str] | None = None, fallback: Sequence[PathLike] = ()) -> list[dict[str, Any]]:
    """Top-``k`` DOIs per question by BM25 between the excerpt and the candidate titles.

    Returns ``[{"id", "dois": [...], "scores": [...]}]`` in question order, the shape
    ``chemref score questions`` reads. ``pool`` is ``"references"`` (the source articles' reference
    lists) or a JSONL path of ``{"doi", "title"}``. ``chemref questions build`` writes ``source_file``
    as the path it was given when relative, else from the input folder's name on, so relative names are looked
    up in the working folder and in each ``corpus`` folder and its parent; an article is read only inside the
    ``corpus`` folders (without them: beside the question file, in the working folder and in the ``fallback``
    folders: the command line gives its sample articles, the builder's default input), so an absolute
    ``source_file``, one with ``..`` or one leading out through a link is an error (as for ``questions
    difficulty``). Oddities are appended to ``diagnostics``.
    """
    if k < 1:
        raise InputError(f"k must be a positive integer, got {k}")
    notes: list[str] = [] if diagnostics is None else diagnostics
    _search_folders(None, corpus)  # every folder given exists, before any work (whatever the pool)
    records = _question_records(questions)
    if not records:
        raise InputError("no questions to rank", path=str(questions) if isinstance(questions, (str, os.PathLike)) else None)
    if str(pool) == "references":
        candidates = _references_of(records, _source_roots(questions, corpus, fallback), notes)
    else:
        if corpus is not None:
            notes.append("the --corpus folders are not read with a candidate pool file (they only locate the "
                         "source articles of the 'references' pool)")
        candidates = read_pool(pool, notes)
    return _ranked(records, candidates, k, notes)


def _references_of(records: list[tuple[str, str, str | None, str | None]], bases: list[Path],
                   notes: list[str]) -> list[tuple[str, str]]:
    """The ``references`` pool: every reference with a DOI and a title of the questions' source articles."""
    no_source = [qid for qid, _, source, _ in records if not source]
    if no_source:
        raise InputError(f"{len(no_source)} question(s) have no source_file (e.g. {no_source[0]!r}), so the "
                         "reference pool cannot be built", hint="give a candidate pool with --pool FILE")
    candidates = reference_pool((source for _, _, source, _ in records if source), bases=bases, diagnostics=notes)
    if not candidates:
        raise InputError("the source articles have no reference with both a DOI and a title",
                         hint="give a candidate pool with --pool FILE")
    return candidates


def _ranked(records: list[tuple[str, str, str | None, str | None]], candidates: list[tuple[str, str]], k: int,
            notes: list[str]) -> list[dict[str, Any]]:
    """The top-``k`` DOIs of ``candidates`` for each question by BM25 (ties in pool order)."""
    import numpy as np  # noqa: PLC0415 (numpy, loaded only when this path runs)

    dois = [doi for doi, _ in candidates]
    index = TitleIndex([title for _, title in candidates], [excerpt for _, excerpt, _, _ in records])
    depth = min(k, len(dois))
    order_tiebreak = np.arange(len(dois))
    in_pool = set(dois)
    absent = [qid for qid, _, _, target in records if target and target not in in_pool]
    if absent:
        notes.append(f"{len(absent)} question(s) whose target DOI is not in the pool of {len(dois)} candidates "
                     "(they cannot be answered): " + ", ".join(map(repr, absent[:5])) + (" ..." if len(absent) > 5 else ""))
    predictions = []
    for n, (qid, _, _, _) in enumerate(records):
        scores = index.query_scores(n)
        top = np.lexsort((order_tiebreak, -scores))[:depth]
        predictions.append({"id": qid, "dois": [dois[i] for i in top],
                            "scores": [round(float(scores[i]), 6) for i in top]})
    return predictions
