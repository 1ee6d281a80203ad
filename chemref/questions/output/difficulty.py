"""``chemref questions difficulty``: ``bm25_rank_corpus`` filled in after a build, over every cited work of it.

The corpus is every titled reference of the source articles of the records given (the questions, and the
rejected candidates when given, so that an article whose candidates were all rejected counts too), one entry
per cited work (:func:`~chemref.questions.funnel.difficulty.work_key`). The articles are read again one at a
time (only inside the folders of ``corpus``, or without it inside the working folder: a record naming an
absolute path, a path with ``..`` or one leading out of them is an error) and each new title is turned into token ids at once
(:meth:`chemref.baseline.bm25.TitleIndex.streamed`), so memory holds one key and the token ids per cited work,
then one BM25 index of them. Each record the selector scored (it has a ``score``) then gets the rank of its cited work among
them (:meth:`chemref.baseline.bm25.TitleIndex.rank_in`: ties count against it); every other field is kept as
it is. The outputs are written whole or not at all, together.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from chemref._io.staging import commit_renames, discard_staged, staged_file
from chemref.baseline.bm25 import TitleIndex, _search_folders, _source_articles, _source_roots
from chemref.errors import InputError
from chemref.jats.reader import read
from chemref.jsonl import json_line, read_jsonl
from chemref.questions.funnel.difficulty import RANK_BUCKETS, rank_bucket, work_key

__all__ = ["CorpusDifficulty", "corpus_difficulty", "folder_shards"]

PathLike = str | os.PathLike[str]
_HINT = "give the questions.jsonl (and rejected.jsonl) written by 'chemref questions build'"


@dataclass
class CorpusDifficulty:
    """What one run did: the articles read, the cited works ranked among, the records ranked and the questions'
    counts per rank bucket of each field (``questions_ranks``: field -> bucket -> count)."""

    articles: int = 0
    works: int = 0
    records: int = 0
    ranked: int = 0
    questions_ranks: dict[str, dict[str, int]] = field(default_factory=dict)
    diagnostics: list[str] = field(default_factory=list)

    def to_text(self) -> str:
        lines = [f"{self.works} cited works with a title in {self.articles} articles; {self.records} records read, "
                 f"{self.ranked} ranked (those the selector scored)"]
        for name, counts in self.questions_ranks.items():
            total = sum(n for bucket, n in counts.items() if bucket != "none")
            shown = ", ".join(f"{bucket}: {n}" + (f" ({n / total:.0%})" if total else "")
                              for bucket, n in counts.items() if bucket != "none")
            lines.append(f"questions by {name}: {shown}" + (f"; not ranked {counts['none']}" if counts["none"] else ""))
        lines += [f"note: {d}" for d in self.diagnostics]
        return "\n".join(lines)


def folder_shards(folder: PathLike) -> tuple[list[Path], list[Path]]:
    """The question and rejection shards of a folder build (``questions-*.jsonl``, ``rejected-*.jsonl``), in
    shard order; a folder without JSON Lines question shards is an :class:`InputError`."""
    root = Path(folder)

    def in_order(kind: str) -> list[Path]:
        return sorted(root.glob(f"{kind}-*.jsonl"), key=lambda p: (len(p.name), p.name))  # index order, any width

    questions = in_order("questions")
    if not questions:
        parquet = any(root.glob("questions-*.parquet"))
        raise InputError("no questions-*.jsonl shards in the folder" + (" (its shards are Parquet)" if parquet else ""),
                         path=str(root), hint="give a folder built by 'chemref questions build -o FOLDER/' "
                                              "(--format jsonl), or the questions file")
    return questions, in_order("rejected")


def _records(path: PathLike) -> Iterable[tuple[int, dict[str, Any]]]:
    if str(path).endswith(".parquet"):
        raise InputError("Parquet shards are not read here", path=str(path),
                         hint="give the JSON Lines questions of a build (--format jsonl)")
    for line, record in read_jsonl(path):
        if not isinstance(record.get("id"), str) or not isinstance(record.get("excerpt"), str):
            raise InputError("not a question record: no 'id' or 'excerpt' text", path=str(path), line=line,
                             hint=_HINT)
        yield line, record


def _works(sources: Sequence[str], roots: list[Path], position: dict[str, int],
           diagnostics: list[str]) -> Iterator[str]:
    """The title of every cited work of the articles ``sources``, each work once, as the articles are read one at a
    time; ``position`` gets each work key's place among them."""

    untitled = 0
    try:
        for article in _source_articles(sources, roots, read):
            for ref in article.references:
                key = work_key(ref.doi, ref.pmid, ref.title)
                if not ref.title or not ref.title.strip() or key is None:
                    untitled += 1
                    continue
                if key not in position:
                    position[key] = len(position)
                    yield ref.title
    except InputError as exc:
        raise InputError(exc.message, path=exc.path, hint="give --corpus with the folder the build read, or run "
                                                          "from the folder the questions were built in") from None
    if untitled:
        diagnostics.append(f"{untitled} reference(s) without a title are not in the corpus")


def corpus_difficulty(pairs: Sequence[tuple[Sequence[PathLike], PathLike]], *, also: Sequence[PathLike] = (),
                      corpus: PathLike | Iterable[PathLike] | None = None) -> CorpusDifficulty:
    """For each ``(inputs, output)`` of ``pairs``, write the records of ``inputs`` (JSON Lines, joined in order)
    to ``output`` with ``bm25_rank_corpus`` set; the corpus is the cited works of every record's source article
    (those of ``also`` too, whose records are not written). The first pair holds the questions (their counts
    per bucket are returned)."""

    summary = CorpusDifficulty()
    _search_folders(None, corpus)  # every corpus folder given exists, before any work
    sources = _source_files([paths for paths, _ in pairs] + [list(also)], summary)
    if not summary.records:
        raise InputError("no records to rank", path=str(pairs[0][0][0]) if pairs and pairs[0][0] else None,
                         hint=_HINT)
    position: dict[str, int] = {}
    index = TitleIndex.streamed(_works(list(sources), _corpus_roots(corpus), position, summary.diagnostics))
    summary.articles, summary.works = len(sources), index.size
    counts = {name: {**{b: 0 for b, _, _ in RANK_BUCKETS}, "none": 0}
              for name in ("bm25_rank_bibliography", "bm25_rank_corpus")}
    staged: list[tuple[Path, Path]] = []
    absent = 0
    try:
        for number, (inputs, output) in enumerate(pairs):
            tmp = staged_file(output)
            staged.append((tmp, Path(output)))
            with open(tmp, "w", encoding="utf-8") as handle:
                for record in (record for path in inputs for _, record in _records(path)):
                    absent += _set_corpus_rank(record, position, index, summary)
                    if number == 0:
                        for name in counts:
                            counts[name][rank_bucket(record.get(name))] += 1
                    handle.write(json_line(record))
        commit_renames(staged)
    except BaseException:
        for tmp, _ in staged:
            discard_staged(tmp)
        raise
    if absent:
        summary.diagnostics.append(f"{absent} scored record(s) cite a work not found in their article's "
                                   "references (the article changed since the build?): not ranked")
    summary.questions_ranks = counts
    return summary


def _source_files(inputs: Sequence[Sequence[PathLike]], summary: CorpusDifficulty) -> dict[str, None]:
    """The source articles of the records of every file of ``inputs``, in order of first mention (the records
    counted in ``summary``, with a diagnostic for scored records without one)."""
    sources: dict[str, None] = {}
    no_source = 0
    for paths in inputs:
        for path in paths:
            for _, record in _records(path):
                summary.records += 1
                name = record.get("source_file")
                if isinstance(name, str) and name:
                    sources.setdefault(name)
                elif record.get("score") is not None:
                    no_source += 1
    if no_source:
        summary.diagnostics.append(f"{no_source} scored record(s) have no source_file: their cited work may "
                                   "be missing from the corpus")
    return sources


def _corpus_roots(corpus: PathLike | Iterable[PathLike] | None) -> list[Path]:
    """Where articles are read: only inside the --corpus folders (without it, the working folder), so that a
    record naming an absolute path, or one with '..', is never opened."""
    return _source_roots(None, corpus)


def _set_corpus_rank(record: dict[str, Any], position: Mapping[str, int], index: Any,
                     summary: CorpusDifficulty) -> int:
    """Set the record's ``bm25_rank_corpus`` (None when it is unscored, has no cited title, or cites a work
    absent from the corpus); 1 when its work is absent, else 0."""
    rank = None
    absent = 0
    key = work_key(record.get("target_doi"), record.get("target_pmid"),
                   record.get("target_title")) if record.get("target_title") else None
    if record.get("score") is not None and key is not None:
        target = position.get(key)
        if target is None:
            absent = 1
        else:
            rank = index.rank(record["excerpt"], target)
            summary.ranked += 1
    record["bm25_rank_corpus"] = rank
    return absent
