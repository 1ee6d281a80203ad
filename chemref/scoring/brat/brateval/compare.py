"""BRATEval v0.3.2 ``CompareRelations`` / ``CompareEntities``: greedy matching in ``java.util.HashMap`` id
order, asymmetric span tests, ``REL|TYPE1|TYPE2`` keys, fpm/fnm, and its summary printed line for line
from ``Summary:`` on (the README's "Scoring ChEMU / BRAT").
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Sequence

from chemref.errors import BratError, ScoringError
from chemref.pool import map_chunks
from chemref.pool import resolve_jobs as _jobs
from chemref.scoring.brat.brateval.java import (
    DEFAULT_SIMILARITY,
    brateval_similarity,
    java_double,
    java_format4,
    java_hashmap_layout,
    java_sort_key,
)
from chemref.scoring.brat.brateval.reader import BDocument, BEntity, BRelation, read_document
from chemref.scoring.brat.counts import BratevalCounts, add_counts, prf
from chemref.scoring.brat.counts import total as counts_total
from chemref.scoring.brat.report import add_intervals, report_meta
from chemref.scoring.brat.sources import AnnSource
from chemref.scoring.report.model import ScoreReport

_SPAN_NAMES = {"exact": "EXACT", "overlap": "OVERLAP", "approx": "APPROXIMATE"}
_TYPE_NAMES = {"exact": "EXACT", "inexact": "INEXACT", "hierarchical": "HIERARCHICAL"}

Frag = tuple[int, int]


# ---------------------------------------------------------------- span tests
def brateval_exact(e1: Sequence[Frag], e2: Sequence[Frag]) -> bool:
    """BRATEval's exact span test: every fragment of ``e1`` occurs in ``e2`` (a subset test, asymmetric)."""
    return all(f in e2 for f in e1)


def _one_way(a: Sequence[Frag], b: Sequence[Frag]) -> bool:
    for s1, t1 in a:
        for s2, t2 in b:
            if (s2 <= s1 < t2) or (s2 < t1 <= t2):
                return True
    return False


def brateval_overlap(e1: Sequence[Frag], e2: Sequence[Frag]) -> bool:
    """BRATEval's overlap test, tried in both directions (differs from :func:`overlap` on empty fragments)."""
    return _one_way(e1, e2) or _one_way(e2, e1)


# ---------------------------------------------------------------- matching
class Matcher:
    """``Entity.getMatchResult`` for one span / type / similarity setting."""

    __slots__ = ("span", "type_exact", "threshold")

    def __init__(self, span: str, type_match: str, threshold: float | None) -> None:
        self.span = span
        self.type_exact = type_match != "inexact"  # hierarchical without annotation.conf acts like exact
        self.threshold = threshold

    def __call__(self, e1: BEntity, e2: BEntity) -> bool:
        if self.type_exact and e1.type != e2.type:
            return False
        if brateval_exact(e1.frags, e2.frags):
            return True
        if self.span == "exact" or not brateval_overlap(e1.frags, e2.frags):
            return False
        if self.span == "approx":
            sim = brateval_similarity(e1.text, e2.text, self.threshold)  # type: ignore[arg-type]
            return sim >= self.threshold  # type: ignore[operator]  # NaN never matches
        return True


def _find(item: Any, candidates: list, alive: list[bool] | None, match) -> int:
    for j, cand in enumerate(candidates):
        if (alive is None or alive[j]) and match(item, cand):
            return j
    return -1


def _ordered(mapping: dict, path: str, warnings: list[str]) -> list:
    order, treeified = java_hashmap_layout(mapping)
    if treeified:
        warnings.append(f"{path}: so many ids share one java.util.HashMap bucket that Java would use a tree "
                        f"there; BRATEval's greedy visiting order is only approximated for this file")
    return [mapping[k] for k in order]


# ---------------------------------------------------------------- scoring
_counts = BratevalCounts


def score_entities_doc(gold: BDocument, pred: BDocument, m: Matcher, acc: dict[str, BratevalCounts],
                       types: set[str], errors: list | None, warnings: list[str]) -> None:
    """``CompareEntities`` for one document pair."""
    evals = _ordered(pred.entities, pred.path, warnings)
    alive = [True] * len(evals)
    for g in _ordered(gold.entities, gold.path, warnings):
        types.add(g.type)
        j = _find(g, evals, alive, m)
        if j >= 0:
            alive[j] = False
            acc.setdefault(g.type, _counts()).tp += 1
            types.add(evals[j].type)
        else:
            acc.setdefault(g.type, _counts()).fn += 1
            if errors is not None:
                errors.append(("FN", g))
    for j, e in enumerate(evals):
        if alive[j]:
            types.add(e.type)
            acc.setdefault(e.type, _counts()).fp += 1
            if errors is not None:
                errors.append(("FP", e))


def score_relations_doc(gold: BDocument, pred: BDocument, m: Matcher, acc: dict[str, BratevalCounts],
                        types: set[str], errors: list | None, warnings: list[str]) -> None:
    """``CompareRelations`` for one document pair (greedy in HashMap order, then fpm / fnm)."""
    for doc in (gold, pred):
        for rel in doc.relations.values():
            if rel.e1 is None or rel.e2 is None:
                missing = rel.id1 if rel.e1 is None else rel.id2
                raise BratError(f"relation {rel.id} refers to {missing}, which is not a T id BRATEval read from "
                                f"this file (undefined, or a T line it skipped)", path=doc.path, line=rel.line,
                                hint="BRATEval v0.3.2 aborts here with NullPointerException")
    evals = _ordered(pred.relations, pred.path, warnings)
    ekeys = [r.key for r in evals]
    alive = [True] * len(evals)
    fns: list[BRelation] = []
    for g in _ordered(gold.relations, gold.path, warnings):
        key = g.key
        types.add(key)
        row = acc.setdefault(key, _counts())
        for j, r in enumerate(evals):
            if alive[j] and ekeys[j] == key and m(g.e1, r.e1) and m(g.e2, r.e2):
                alive[j] = False
                row.tp += 1
                break
        else:
            row.fn += 1
            fns.append(g)
    pred_ents = list(pred.entities.values())
    gold_ents = list(gold.entities.values())
    for g in fns:
        if _find(g.e1, pred_ents, None, m) < 0 or _find(g.e2, pred_ents, None, m) < 0:
            acc[g.key].fnm += 1
        if errors is not None:
            errors.append(("FN", g))
    for j, r in enumerate(evals):
        if alive[j]:
            key = ekeys[j]
            types.add(key)
            row = acc.setdefault(key, _counts())
            row.fp += 1
            if _find(r.e1, gold_ents, None, m) < 0 or _find(r.e2, gold_ents, None, m) < 0:
                row.fpm += 1
            if errors is not None:
                errors.append(("FP", r))


def _score_names(names: Sequence[str], gsrc: Any, psrc: Any, m: Matcher, *, relations: bool, per_doc: bool,
                 errors: bool, label: str = "brateval", collect: bool = False) -> tuple:
    """Score the documents ``names``: ``(counts by key, row keys, per-doc counts, error records, warnings,
    per-document counts)``; the last (``{(label, key or "all"): (tp, fp, fn)}`` per document) only with ``collect``."""
    acc: dict[str, BratevalCounts] = {}
    types: set[str] = set()
    docs: dict[str, Any] = {}
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    rows: list[dict[tuple[str, str], tuple[int, int, int]]] = []
    for name in names:
        gdoc = read_document(gsrc, name, warnings, gold=True)
        pdoc = read_document(psrc, name, warnings)
        doc_acc: dict[str, BratevalCounts] = {}
        errs: list | None = [] if errors else None
        if relations:
            score_relations_doc(gdoc, pdoc, m, doc_acc, types, errs, warnings)
        else:
            score_entities_doc(gdoc, pdoc, m, doc_acc, types, errs, warnings)
        add_counts(acc, doc_acc)  # type: ignore[arg-type]
        if per_doc or collect:
            total = tuple(counts_total(doc_acc.values()))
            if per_doc:
                docs[name] = {"all": prf(*total)}
            if collect:
                doc_row = {(label, key): (v.tp, v.fp, v.fn) for key, v in doc_acc.items()}
                doc_row[(label, "all")] = total  # type: ignore[assignment]
                rows.append(doc_row)
        if errs:
            records.extend(_brateval_errors(name, errs, relations))
    return acc, types, docs, records, warnings, rows


def _settings_line(pred: str, gold: str, span: str, type_match: str, threshold: float | None) -> str:
    s = f"Type match={_TYPE_NAMES[type_match]}; Span match={_SPAN_NAMES[span]}"
    if span == "approx":
        s += f"; Similarity={java_double(threshold)}"  # type: ignore[arg-type]
    return f"Evaluating Folder: {pred} against Gold Folder: {gold} Match settings : {s}"


def _row(tp: int, fp: int, fn: int) -> tuple[str, str, str, dict[str, Any]]:
    c = prf(tp, fp, fn)
    return java_format4(c["precision"]), java_format4(c["recall"]), java_format4(c["f1"]), c


@dataclass
class _Scored:
    """What scoring every document pair gave: counts by row key, the keys met, per-document counts, FP/FN
    records, warnings and (for intervals and leaderboards) per-document rows."""

    acc: dict[str, BratevalCounts] = field(default_factory=dict)
    types: set[str] = field(default_factory=set)
    docs: dict[str, Any] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rows: list[dict[tuple[str, str], tuple[int, int, int]]] = field(default_factory=list)
    documents: int = 0

    def add(self, part: tuple) -> None:
        part_acc, part_types, part_docs, part_records, part_warnings, part_rows = part
        self.rows.extend(part_rows)
        add_counts(self.acc, part_acc)  # type: ignore[arg-type]
        self.types |= part_types
        self.docs.update(part_docs)
        self.records.extend(part_records)
        self.warnings.extend(part_warnings)


def score_brateval(gold: str | os.PathLike[str], pred: str | os.PathLike[str], *, level: str = "relations",
                   span: str = "exact", similarity: float | None = None, type_match: str = "exact",
                   per_doc: bool = False, errors: bool = False, jobs: int | None = None,
                   resampling: Any = None, doc_counts: bool = False, zip_limits: Any = None,
                   details: bool = False) -> ScoreReport:
    """BRATEval v0.3.2 ``CompareRelations`` / ``CompareEntities`` (eval = ``pred``, gold = ``gold``).

    ``resampling`` (a :class:`~chemref.scoring.stats.resampling.Resampling`) adds bootstrap intervals over documents;
    ``doc_counts`` keeps every document's counts in ``report.doc_counts``; ``zip_limits`` (a
    :class:`~chemref.scoring.brat.sources.ZipLimits`) bounds the sizes of the files read; ``details`` keeps the
    per-document counts and FP/FN records in ``report.details`` (as :func:`~chemref.scoring.score_brat`).
    """

    threshold = similarity if span == "approx" else None
    if span == "approx" and threshold is None:
        threshold = DEFAULT_SIMILARITY
    relations = level == "relations"
    label = f"brateval/{level}/{span}" + (f"{java_double(threshold)}" if span == "approx" else "") + f"/{type_match}"  # type: ignore[arg-type]
    scored = _score_folders(gold, pred, Matcher(span, type_match, threshold), relations=relations, label=label,
                            per_doc=per_doc or details, errors=errors or details,
                            collect=resampling is not None or doc_counts, jobs=jobs, zip_limits=zip_limits)
    lines, per_type, overall = _summary(scored, relations,
                                        _settings_line(str(pred), str(gold), span, type_match, threshold))
    data = _document(scored, lines, per_type, overall, label=label, level=level, span=span, threshold=threshold,
                     type_match=type_match, gold=str(gold), pred=str(pred), per_doc=per_doc, errors=errors,
                     resampling=resampling)
    if resampling is not None:
        add_intervals(data, scored.rows, resampling)
    return ScoreReport.from_brat(data, doc_counts=scored.rows if doc_counts else None,
                                 details={"per_doc": scored.docs, "errors": scored.records, "warnings": []}
                                 if details else None)


def _score_folders(gold: Any, pred: Any, m: Matcher, *, relations: bool, label: str, per_doc: bool, errors: bool,
                   collect: bool, jobs: int | None, zip_limits: Any) -> _Scored:
    """Read the gold and prediction folders (or zips) as BRATEval does and score every document pair."""
    scored = _Scored()
    with AnnSource(gold, recursive=not relations, limits=zip_limits) as gsrc, \
            AnnSource(pred, recursive=not relations, limits=zip_limits) as psrc:
        psrc.pair_with(gsrc)
        scored.warnings.extend(_pairing_warnings(gsrc, psrc))
        names = sorted(gsrc.names)
        scored.documents = len(names)

        def run(chunk: Sequence[str]) -> tuple:
            return _score_names(chunk, gsrc, psrc, m, relations=relations, per_doc=per_doc, errors=errors,
                                label=label, collect=collect)

        def reopen() -> None:
            gsrc.reopen()
            psrc.reopen()

        for part in map_chunks(run, names, _jobs(jobs, len(names)), reopen):
            scored.add(part)
    return scored


def _pairing_warnings(gsrc: Any, psrc: Any) -> list[str]:
    """What BRATEval ignores (files in subfolders, predictions without gold); a gold file without a
    prediction is the error BRATEval aborts with."""
    warnings = list(gsrc.notes + psrc.notes)
    if not gsrc.names:
        warnings.append(f"{gsrc.path}: no .ann files in the gold folder; BRATEval prints an empty summary")
    for src in (gsrc, psrc):
        for skipped in src.skipped:
            warnings.append(f"{skipped}: in a subfolder; BRATEval's CompareRelations ignores it")
    for name in sorted(psrc.names.keys() - gsrc.names.keys()):
        warnings.append(f"{psrc.display(name)}: prediction file has no gold file; BRATEval ignores it")
    for name in sorted(gsrc.names):
        if name not in psrc.names:
            raise ScoringError(f"mandatory file is missing: {name}.ann (no such file in {psrc.path})",
                               path=gsrc.display(name),
                               hint="BRATEval v0.3.2 aborts here; chemref's ChEMU mode (without --brateval) "
                                    "scores a missing file as empty")
    return warnings


def _summary(scored: _Scored, relations: bool, settings: str) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """BRATEval's printed lines (its relation and entity formats differ) and the counts of every row and of
    the ``all`` row."""
    lines = ["Annotation taxonomy ignored. No file annotation.conf found.", settings, "Summary:"]
    if not relations:
        lines.append("|tp|fp|fn|precision|recall|f1")

    def summary_line(key: str, row: BratevalCounts) -> dict[str, Any]:
        p, r, f, counts = _row(row.tp, row.fp, row.fn)
        if relations:
            counts.update(fpm=row.fpm, fnm=row.fnm)
            lines.append(f"{key}|tp:{row.tp}|fp:{row.fp}|fn:{row.fn}|precision:{p}|recall:{r}|f1:{f}"
                         f"|fpm:{row.fpm}|fnm:{row.fnm}")
        else:
            lines.append(f"{key}|{row.tp}|{row.fp}|{row.fn}|{p}|{r}|{f}")
        return counts

    per_type: dict[str, Any] = {}
    total = _counts()
    for key in sorted(scored.types, key=java_sort_key):
        row = scored.acc.get(key, _counts())
        total.add(row)
        per_type[key] = summary_line(key, row)
    overall = summary_line("all", total)
    if not relations:
        lines.append("")
    return lines, per_type, overall


def _document(scored: _Scored, lines: list[str], per_type: dict[str, Any], overall: dict[str, Any], *, label: str,
              level: str, span: str, threshold: float | None, type_match: str, gold: str, pred: str, per_doc: bool,
              errors: bool, resampling: Any) -> dict[str, Any]:
    """The report's JSON document: ``meta``, the settings, the summary rows, BRATEval's lines and what was asked
    for (per-document counts, FP/FN records)."""

    matching = (f"BRATEval v0.3.2: greedy, gold in java.util.HashMap id order; span {_SPAN_NAMES[span]}"
                + (f" (similarity {java_double(threshold)})" if span == "approx" else "")  # type: ignore[arg-type]
                + f"; type {_TYPE_NAMES[type_match]}")
    meta = report_meta("brateval", f"{label} f1 (the 'all' row)", scored.documents, matching, resampling,
                 "BRATEval's summary line 'all'")
    data: dict[str, Any] = {"meta": meta, "mode": "brateval", "label": label, "level": level, "span": span,
                            "similarity": threshold, "type": type_match, "gold": gold, "pred": pred,
                            "documents": scored.documents, "per_type": per_type, "overall": overall,
                            "lines": lines}
    if per_doc:
        data["per_doc"] = scored.docs
    if errors:
        data["errors"] = scored.records
    data["warnings"] = scored.warnings
    return data


def _brateval_errors(name: str, errs: list, relations: bool) -> list[dict[str, Any]]:
    def mention(e: BEntity) -> dict[str, Any]:
        return {"label": e.type, "fragments": [list(f) for f in e.frags], "text": e.text}

    out = []
    for kind, item in errs:
        if relations:
            out.append({"report": "brateval/relations", "kind": kind, "document": name, "type": item.key,
                        "arg1": mention(item.e1), "arg2": mention(item.e2)})
        else:
            out.append({"report": "brateval/entities", "kind": kind, "document": name, "type": item.type,
                        "mention": mention(item)})
    return out
