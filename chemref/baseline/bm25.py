"""BM25 baseline for chemref question sets: rank candidate papers by the excerpt's words.

The query is the excerpt without its ``[CITATION]`` marker; the documents are candidate titles.
The default pool is every reference (with a DOI and a title) of the questions' source articles,
read with :func:`chemref.read_jats`; ``pool=PATH`` reads candidates from a JSONL of
``{"doi", "title"}``. Scoring is Lucene's BM25 variant (k1 = 1.5, b = 0.75, English stop words) with
the numbers of the ``bm25s`` library to the last bit (:class:`~chemref.baseline.titles_bm25.TitleIndex`, the
one BM25 of chemref, in a module of its own; a test checks them against bm25s).
Ties are broken by pool order (first-seen candidate first), so the output is deterministic.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Iterator

from chemref.baseline.titles_bm25 import STOP_WORDS, TitleIndex, query_text
from chemref.doi import normalize_doi
from chemref.errors import InputError, printable
from chemref.inputs.contained import corpus_article, corpus_bases
from chemref.inputs.sources import iter_sources
from chemref.jats.reader import read
from chemref.jsonl import read_jsonl
from chemref.scoring.benchmarks.readers import record_id

__all__ = ["STOP_WORDS", "TitleIndex", "bm25_predictions", "read_pool", "reference_pool", "query_text"]

PathLike = str | os.PathLike[str]


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
    import numpy as np  # (numpy, loaded only when this path runs)

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
