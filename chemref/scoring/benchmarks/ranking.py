"""Citation recommendation scoring: Recall@K and MRR@K over ranked lists (JSON Lines or TREC files).

Definitions (per query, then the mean over queries that have at least one relevant item):

* Recall@K = |top-K ∩ relevant| / |relevant|
* RR@K = 1 / rank of the first relevant item if it is within the top K, else 0; MRR@K is its mean.

Ranking order: a plain list (``{"id", "ranking": [...]}``) is ranked in list order. When scores are
given (a TREC run, or ``"scores"`` beside ``"ranking"``) the order is trec_eval's: score descending,
ties broken by document id in *descending* string order; the rank column of a run is ignored.
An id repeated in a ranking counts only at its first position; the repeat keeps its slot but can
never score (a system gains nothing by repeating or by dropping repeats). K larger than a list
simply uses the whole list. Predictions for ids absent from the gold are ignored and reported, as
trec_eval ignores run topics missing from the qrels.

Which queries are averaged (``empty_queries``): gold queries without a prediction score 0 with
``"count"`` (the default; trec_eval ``-c``: the mean is over every query in the gold) and are left out
with ``"skip"`` (trec_eval's default: the mean is over the queries in both gold and run). Gold queries
with no relevant item are skipped (reported) in JSON Lines gold; with TREC qrels they score 0 and are
averaged, as trec_eval does. ``min_rel`` is trec_eval's ``-l``: a qrels judgement is relevant when
its value is at least ``min_rel`` (default 1). TREC files may hold ``#`` comment lines; a run's columns
after the sixth are ignored.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chemref._io import iter_lines
from chemref.errors import InputError, ScoringError
from chemref.jsonl import read_jsonl
from chemref.scoring.benchmarks.breakdowns import breakdown
from chemref.scoring.benchmarks.readers import number, read_columns, record_id, string_list
from chemref.scoring.report.model import ScoreReport
from chemref.scoring.stats.bootstrap import mean_intervals
from chemref.scoring.stats.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, Resampling

__all__ = [
    "score_ranking", "recall_at_k", "reciprocal_rank_at_k", "trec_order", "read_ranking_gold",
    "read_ranking_predictions", "read_qrels", "read_trec_run", "BREAKDOWN_FIELDS", "GoldQuery",
]

#: Optional gold fields that get a breakdown table when present.
BREAKDOWN_FIELDS = ("context_length", "position", "field", "year")
#: How gold queries without a prediction are averaged: "count" scores them 0 (trec_eval -c), "skip" leaves
#: them out (trec_eval's default).
EMPTY_QUERIES = ("count", "skip")

PathLike = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class GoldQuery:
    """One query's relevant ids and the optional fields used for breakdowns."""

    id: str
    relevant: frozenset[str]
    fields: tuple[tuple[str, str], ...] = ()


def recall_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """|top-k ∩ relevant| / |relevant| (repeats count once); 0/0 is an error: skip such queries first."""
    if not relevant:
        raise ValueError("recall is undefined for a query with no relevant item")
    return len(set(ranking[:k]) & set(relevant)) / len(set(relevant))


def reciprocal_rank_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1 / rank of the first relevant item in the top k (1-based), else 0."""
    for rank, item in enumerate(ranking[:k], start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0


def trec_order(scored: Iterable[tuple[str, float]]) -> list[str]:
    """Document ids sorted as trec_eval does: score descending, then document id descending."""
    return [doc for doc, _ in sorted(scored, key=lambda pair: (pair[1], pair[0]), reverse=True)]


def _dedupe(ranking: Sequence[str]) -> tuple[list[str], int]:
    """Replace repeats by a placeholder that can never be relevant (keeps positions); count them."""
    seen: set[str] = set()
    out: list[str] = []
    repeats = 0
    for item in ranking:
        if item in seen:
            out.append("\x00repeat")
            repeats += 1
        else:
            seen.add(item)
            out.append(item)
    return out, repeats


# ----------------------------------------------------------------------------------------- readers

def _looks_like_trec(path: PathLike, at: int | None, kind: str) -> bool:
    """Whether line ``at`` of ``path`` has the columns of a TREC qrels (4) or run (6 or more) line."""
    for line_number, text in iter_lines(path):
        if line_number == at:
            fields = text.split()
            if kind == "qrels":
                return len(fields) == 4 and fields[3].lstrip("-").isdigit()
            return len(fields) >= 6 and fields[3].isdigit()
    return False


def _read_jsonl_not_trec(path: PathLike, kind: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """:func:`read_jsonl`, naming the fix when the file is a TREC qrels or run file given as JSON Lines."""
    try:
        yield from read_jsonl(path, unique=True)
    except InputError as exc:
        if not exc.message.startswith("not valid JSON") or not _looks_like_trec(path, exc.line, kind):
            raise
        raise ScoringError(f"this is a TREC {kind} file, read as JSON Lines", path=exc.path, line=exc.line,
                           hint="add --format trec; in Python, score_ranking(..., format='trec')") from None


def read_ranking_gold(path: PathLike) -> list[GoldQuery]:
    """GOLD JSONL: ``{"id", "relevant": [ids], optional context_length/position/field/year}``."""
    queries: list[GoldQuery] = []
    seen: dict[str, int] = {}
    for line, record in _read_jsonl_not_trec(path, "qrels"):
        qid = record_id(record, path=path, line=line)
        if qid in seen:
            raise ScoringError(f"query id {qid!r} repeated (first on line {seen[qid]})", path=str(path), line=line)
        seen[qid] = line
        if "relevant" not in record:
            raise ScoringError("gold record has no 'relevant' list", path=str(path), line=line,
                               hint='expected {"id": ..., "relevant": [ids]}')
        relevant = string_list(record, "relevant", path=path, line=line)
        fields = tuple((name, str(record[name])) for name in BREAKDOWN_FIELDS
                       if name in record and record[name] is not None)
        queries.append(GoldQuery(qid, frozenset(relevant), fields))
    return queries


def _scored(ranking: list[str], scores: Any, *, path: PathLike | None, line: int) -> list[str]:
    """``ranking`` as given, or in trec_eval order when ``scores`` (finite numbers, one per id) are given."""
    if scores is None:
        return ranking
    if (not isinstance(scores, (list, tuple)) or len(scores) != len(ranking)
            or not all(isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s) for s in scores)):
        raise ScoringError("'scores' must be a list of finite numbers as long as 'ranking'",
                           path=None if path is None else str(path), line=line)
    return trec_order(zip(ranking, (float(s) for s in scores)))


def read_ranking_predictions(path: PathLike) -> dict[str, list[str]]:
    """PRED JSONL: ``{"id", "ranking": [ids]}`` (optionally ``"scores"``: then trec_eval order applies)."""
    runs: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    for line, record in _read_jsonl_not_trec(path, "run"):
        qid = record_id(record, path=path, line=line)
        if qid in lines:
            raise ScoringError(f"predictions for {qid!r} given twice (first on line {lines[qid]})",
                               path=str(path), line=line, hint="give one ranking per query")
        lines[qid] = line
        if "ranking" not in record:
            raise ScoringError("prediction record has no 'ranking' list", path=str(path), line=line,
                               hint='expected {"id": ..., "ranking": [ids]}')
        ranking = string_list(record, "ranking", path=path, line=line)
        runs[qid] = _scored(ranking, record.get("scores"), path=path, line=line)
    return runs


def read_qrels(path: PathLike, *, min_rel: int = 1) -> list[GoldQuery]:
    """TREC qrels: ``query iteration docno relevance`` per line; relevance >= ``min_rel`` means relevant.

    A query/document pair given on several lines with contradictory judgements (one > 0, one <= 0) is
    judged by its highest level (any positive judgement wins) and a :class:`UserWarning` names the first
    such pair.
    """
    relevant: dict[str, set[str]] = {}
    judged: dict[tuple[str, str], tuple[int, int]] = {}  # (query, doc) -> (first line, level)
    contradictions: list[str] = []
    for line, parts in read_columns(path, "query iteration docno relevance",
                                    hint="is this a run file? give the qrels first"):
        qid, _, doc, rel = parts
        level = int(number(rel, "relevance", path=path, line=line))
        bucket = relevant.setdefault(qid, set())
        if level >= min_rel:
            bucket.add(doc)
        first = judged.setdefault((qid, doc), (line, level))
        if (first[1] > 0) != (level > 0):
            contradictions.append(f"query {qid!r} document {doc!r}: relevance {first[1]} on line {first[0]}, "
                                  f"{level} on line {line}")
    if contradictions:
        warnings.warn(f"{os.fspath(path)}: {len(contradictions)} line(s) contradict an earlier judgement of the same "
                      f"query and document (first: {contradictions[0]}); a pair is relevant when any of its "
                      "lines gives relevance > 0", UserWarning, stacklevel=2)
    return [GoldQuery(qid, frozenset(docs)) for qid, docs in relevant.items()]


def read_trec_run(path: PathLike) -> tuple[dict[str, list[str]], list[str]]:
    """TREC run: ``query Q0 docno rank score tag``; returns rankings in trec_eval order and diagnostics."""
    scored: dict[str, list[tuple[str, float]]] = {}
    seen: dict[tuple[str, str], int] = {}
    diagnostics: list[str] = []
    for line, parts in read_columns(path, "query Q0 docno rank score tag",
                                    hint="is this a qrels file? give the run second", extra=True):
        qid, _, doc, _, score, _ = parts
        value = number(score, "score", path=path, line=line)
        if (qid, doc) in seen:
            diagnostics.append(f"{path}:{line}: document {doc!r} repeated for query {qid!r} "
                               f"(first on line {seen[qid, doc]}); the higher-ranked copy counts")
        else:
            seen[qid, doc] = line
        scored.setdefault(qid, []).append((doc, value))
    return {qid: trec_order(pairs) for qid, pairs in scored.items()}, diagnostics


def _gold_from_memory(gold: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> list[GoldQuery]:
    if isinstance(gold, Mapping):
        return [GoldQuery(str(q), frozenset(str(d) for d in _id_list(docs, q, "gold"))) for q, docs in gold.items()]
    out = []
    for index, record in enumerate(gold):
        qid = record_id(dict(record), path=None, line=index + 1)
        if not isinstance(record.get("relevant"), (list, tuple, set, frozenset)):
            raise ScoringError(f"gold record {qid!r} has no 'relevant' list", line=index + 1)
        fields = tuple((n, str(record[n])) for n in BREAKDOWN_FIELDS if record.get(n) is not None)
        out.append(GoldQuery(qid, frozenset(str(d) for d in record["relevant"]), fields))
    return out


def _id_list(docs: Any, qid: Any, role: str) -> Any:
    """``docs`` when it is a collection of ids; a string (whose characters would pass for ids) is a TypeError."""
    if isinstance(docs, (str, bytes)) or not isinstance(docs, Collection):
        raise TypeError(f"{role} documents of query {qid!r} must be a list of ids, not {type(docs).__name__} "
                        f"{docs!r:.40}")
    if any(not str(d).strip() for d in docs):
        raise ScoringError(f"{role} documents of query {qid!r} hold an empty document id: it names nothing")
    return docs


def _pred_from_memory(pred: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    if isinstance(pred, Mapping):
        return {str(q): [str(d) for d in _id_list(docs, q, "prediction")] for q, docs in pred.items()}
    out: dict[str, list[str]] = {}
    for index, record in enumerate(pred):
        qid = record_id(dict(record), path=None, line=index + 1)
        if qid in out:
            raise ScoringError(f"predictions for {qid!r} given twice")
        if not isinstance(record.get("ranking"), (list, tuple)):
            raise ScoringError(f"prediction record {qid!r} has no 'ranking' list", line=index + 1)
        out[qid] = _scored([str(d) for d in record["ranking"]], record.get("scores"), path=None, line=index + 1)
    return out


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# ----------------------------------------------------------------------------------------- scorer

def score_ranking(gold: PathLike | Mapping[str, Any] | Iterable[Mapping[str, Any]],
                  pred: PathLike | Mapping[str, Any] | Iterable[Mapping[str, Any]], *,
                  k: int | Sequence[int] = 10, format: str = "jsonl", per_query: bool = False,
                  empty_queries: str = "count", min_rel: int = 1, ci: float | None = None,
                  resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> ScoreReport:
    """Recall@K and MRR@K of ``pred`` against ``gold``, with breakdowns by the optional gold fields.

    ``gold`` / ``pred`` are paths (JSON Lines, or TREC qrels / run with ``format="trec"``), or in
    memory: ``{query: [relevant ids]}`` / ``{query: [ranked ids]}`` or lists of records.
    ``per_query=True`` adds each query's values under ``"per_query"``. ``empty_queries`` ("count", the
    default, or "skip") and ``min_rel`` are described in the module docstring. ``ci`` (e.g. 0.95) adds
    percentile bootstrap intervals over queries (``resamples``, ``seed``; see :mod:`chemref.scoring.stats.bootstrap`).
    """
    ks = _check_options(k, format, empty_queries, min_rel)
    trec_gold = format == "trec" and isinstance(gold, (str, os.PathLike))
    diagnostics: list[str] = []
    queries = _read_gold(gold, format, min_rel)
    runs = _read_runs(pred, format, diagnostics)
    unknown = _unknown_queries(queries, runs, diagnostics, pred if isinstance(pred, (str, os.PathLike)) else None)
    scored = _query_values(queries, runs, ks, trec_gold=trec_gold, empty_queries=empty_queries)
    diagnostics += scored.diagnostics(trec_gold, empty_queries)
    return _report(scored, ks, queries=queries, unknown=unknown, trec_gold=trec_gold, empty_queries=empty_queries,
                   per_query=per_query, diagnostics=diagnostics, ci=ci, resamples=resamples, seed=seed)


def _check_options(k: int | Sequence[int], format: str, empty_queries: str, min_rel: int) -> tuple[int, ...]:
    """The cut-offs as a tuple, once every option is known to be valid."""
    ks = (k,) if isinstance(k, int) else tuple(k)
    if not ks or any(not isinstance(v, int) or v < 1 for v in ks):
        raise ScoringError(f"K must be a positive integer, got {k!r}")
    if format not in ("jsonl", "trec"):
        raise ScoringError(f"unknown format {format!r}", hint="use 'jsonl' or 'trec'")
    if empty_queries not in EMPTY_QUERIES:
        raise ScoringError(f"unknown empty-queries mode {empty_queries!r}", hint="use 'count' or 'skip'")
    if isinstance(min_rel, bool) or not isinstance(min_rel, int):
        raise ScoringError(f"min_rel must be an integer, got {min_rel!r}")
    return ks


def _read_gold(gold: Any, format: str, min_rel: int) -> list[GoldQuery]:
    """The gold queries from a file (JSON Lines or TREC qrels) or from memory."""
    if not isinstance(gold, (str, os.PathLike)):
        return _gold_from_memory(gold)
    queries = read_qrels(gold, min_rel=min_rel) if format == "trec" else read_ranking_gold(gold)
    if not queries:
        raise ScoringError("the gold file holds no queries", path=str(gold),
                           hint="give the gold file first, then the predictions")
    return queries


def _read_runs(pred: Any, format: str, diagnostics: list[str]) -> dict[str, list[str]]:
    """Every query's ranking from a file (JSON Lines or TREC run, whose diagnostics are added) or from memory."""
    if not isinstance(pred, (str, os.PathLike)):
        return _pred_from_memory(pred)
    if format != "trec":
        return read_ranking_predictions(pred)
    runs, run_diagnostics = read_trec_run(pred)
    diagnostics += run_diagnostics
    return runs


def _unknown_queries(queries: list[GoldQuery], runs: dict[str, list[str]], diagnostics: list[str],
                     pred_path: PathLike | None = None) -> list[str]:
    """The predicted query ids that are not in the gold (reported; all of them, or none at all, is the wrong
    file)."""
    where = None if pred_path is None else str(pred_path)
    if not runs and queries:
        raise ScoringError("the predictions hold no query: an empty run scores nothing", path=where,
                           hint="check that the system wrote its run, and that the gold comes first")
    gold_ids = {q.id for q in queries}
    unknown = [qid for qid in runs if qid not in gold_ids]
    if runs and len(unknown) == len(runs) and queries:
        raise ScoringError(f"none of the {len(runs)} predicted query ids is in the gold (e.g. {unknown[0]!r})",
                           path=where, hint="are gold and predictions from the same benchmark? gold comes first")
    if unknown:
        diagnostics.append(f"{len(unknown)} predicted query id(s) not in the gold, ignored: " + _some(unknown))
    return unknown


def _some(ids: list[str]) -> str:
    """The first five ids, quoted, and "..." when there are more."""
    return ", ".join(map(repr, ids[:5])) + (" ..." if len(ids) > 5 else "")


@dataclass
class _QueryValues:
    """Every averaged query with its metric values, and the queries left out or scored 0 on the way."""

    names: list[str]
    rows: list[tuple[GoldQuery, dict[str, float]]] = field(default_factory=list)
    no_relevant: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    repeats: int = 0

    def diagnostics(self, trec_gold: bool, empty_queries: str) -> list[str]:
        out = []
        if self.no_relevant:
            out.append(f"{len(self.no_relevant)} gold query(ies) with no relevant item, "
                       + ("scored 0 (as trec_eval): " if trec_gold else "skipped: ") + _some(self.no_relevant))
        if self.missing:
            out.append(f"{len(self.missing)} gold query(ies) with no prediction, "
                       + ("scored 0: " if empty_queries == "count" else "left out of the mean: ")
                       + _some(self.missing))
        if self.repeats:
            out.append(f"{self.repeats} repeated id(s) in rankings; each counts only at its first position")
        if not self.rows:
            out.append("no query with a relevant item: nothing to average, metrics reported as 0")
        return out


def _query_values(queries: list[GoldQuery], runs: dict[str, list[str]], ks: tuple[int, ...], *, trec_gold: bool,
                  empty_queries: str) -> _QueryValues:
    """Recall@K and RR@K of every query that is averaged (a TREC qrels query with nothing relevant scores 0, as
    in trec_eval; a JSON Lines one is skipped; a query without a prediction per ``empty_queries``)."""
    out = _QueryValues([f"{m}@{v}" for v in ks for m in ("recall", "mrr")])
    for query in queries:
        if not query.relevant:
            out.no_relevant.append(query.id)
            if not trec_gold:
                continue
        ranking = runs.get(query.id)
        if ranking is None:
            out.missing.append(query.id)
            if empty_queries == "skip":
                continue
            ranking = []
        ranking, repeats = _dedupe(ranking)
        out.repeats += repeats
        if not query.relevant:  # (TREC qrels only) trec_eval scores such a query 0
            out.rows.append((query, dict.fromkeys(out.names, 0.0)))
            continue
        values: dict[str, float] = {}
        for v in ks:
            values[f"recall@{v}"] = recall_at_k(ranking, query.relevant, v)
            values[f"mrr@{v}"] = reciprocal_rank_at_k(ranking, query.relevant, v)
        out.rows.append((query, values))
    return out


def _breakdowns(rows: list[tuple[GoldQuery, dict[str, float]]], names: list[str]) -> dict[str, dict[str, Any]]:
    """A table of per-group means for every optional gold field some averaged query has."""
    out: dict[str, dict[str, Any]] = {}
    for field_name in BREAKDOWN_FIELDS:
        if any(dict(q.fields).get(field_name) is not None for q, _ in rows):
            out[field_name] = breakdown(rows, lambda q, f=field_name: dict(q.fields).get(f), names)  # type: ignore[misc]
    return out


def _report(scored: _QueryValues, ks: tuple[int, ...], *, queries: list[GoldQuery], unknown: list[str],
            trec_gold: bool, empty_queries: str, per_query: bool, diagnostics: list[str], ci: float | None,
            resamples: int, seed: int) -> ScoreReport:
    """The means over the averaged queries, with their intervals when asked for, as a report."""
    rows, names = scored.rows, scored.names
    metrics = {name: _mean([values[name] for _, values in rows]) for name in names}
    intervals = resampling = None
    if ci is not None:
        resampling = Resampling(ci, resamples, seed)
        intervals = mean_intervals([[v[name] for name in names] for _, v in rows], names, resampling)  # type: ignore[arg-type]
    return ScoreReport.from_metrics(
        task="citation recommendation (ranking)",
        metrics=metrics,
        n=len(rows),
        definition="Recall@K = |top-K ∩ relevant| / |relevant|; MRR@K = mean of 1/rank of the first relevant "
                   "item in the top K (0 if none); ties as trec_eval (score desc, then docno desc)",
        averaging=f"macro: mean over {len(rows)} queries: "
                  + ("every gold query" if trec_gold else "the gold queries with ≥1 relevant item")
                  + (" (queries without a prediction count 0)" if empty_queries == "count"
                     else " that have a prediction"),
        k=ks,
        counts={"queries_in_gold": len(queries),
                "no_relevant_skipped": 0 if trec_gold else len(scored.no_relevant),
                "no_relevant_scored_zero": len(scored.no_relevant) if trec_gold else 0,
                "missing_skipped": len(scored.missing) if empty_queries == "skip" else 0,
                "missing_predictions": len(scored.missing), "unknown_prediction_ids": len(unknown),
                "repeated_ids": scored.repeats},
        breakdowns=_breakdowns(rows, names),
        details={"per_query": {query.id: values for query, values in rows}} if per_query else {},
        diagnostics=diagnostics,
        intervals=intervals, resampling=resampling, unit="query",
    )
