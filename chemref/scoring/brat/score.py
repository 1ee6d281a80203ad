"""``score_brat``: the Python entry point behind ``chemref score brat`` (ChEMU 2021 or BRATEval mode).

It never prints and never exits: problems are raised as :mod:`chemref.errors` exceptions, and
tolerated oddities (a missing prediction file in ChEMU mode, ignored lines...) are listed in
``report["warnings"]``.
"""

from __future__ import annotations

import os
from itertools import chain
from operator import itemgetter
from typing import Any, Iterable, Literal, Sequence

from chemref.brat.decode import GOLD_HINT, PREDICTION_HINT, decode_ann, not_text
from chemref.errors import InputError, ScoringError
from chemref.pool import map_chunks
from chemref.pool import resolve_jobs as _jobs
from chemref.scoring.brat.brateval import score_brateval
from chemref.scoring.brat.brateval.java import DEFAULT_SIMILARITY
from chemref.scoring.brat.chemu import (
    BLOCKS,
    MAX_COREF_LINKS,
    MAX_COREF_TOTAL,
    MAX_ERROR_RECORDS,
    MAX_MATCH_EDGES,
    CorefBudget,
    collector_paused,
    document_items,
    read_side,
    score_document,
)
from chemref.scoring.brat.counts import Counts, add_counts, prf_block, total
from chemref.scoring.brat.report import add_intervals, report_meta
from chemref.scoring.brat.sources import AnnSource, ZipLimits
from chemref.scoring.report.model import ScoreReport
from chemref.scoring.stats.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, Resampling

PathLike = str | os.PathLike[str]
#: the reports in their order in a report, for sorting the error records
_BLOCK_ORDER = {b: i for i, b in enumerate(BLOCKS)}
_LEVELS = ("relations", "entities")
_SPANS = ("exact", "overlap", "approx")
_TYPES = ("exact", "inexact", "hierarchical")

#: the ChEMU reports in the order they are preferred as the primary figure: the first one kept is primary.
#: The ChEMU 2021 overview ranks anaphora resolution systems by exact-match F1 over relations, with
#: COREFERENCE expanded transitively (its definition of the task's score).
PRIMARY_ORDER = ("relations/exact/coref_expanded", "relations/exact/coref_not_expanded",
                 "relations/relaxed_bipartite/coref_expanded", "relations/relaxed_bipartite/coref_not_expanded",
                 "entities/exact", "entities/relaxed_bipartite")
CHEMU_MATCHING = ("exact = same label and same set of fragments; relaxed_bipartite = same label and overlapping "
                  "fragments, maximum bipartite matching per document and type; coref_expanded = COREFERENCE "
                  "links closed transitively on both sides before matching")


def score_brat(gold: PathLike, pred: PathLike, *, mode: Literal["chemu", "brateval"] = "chemu",
               level: str | None = None, span: str | None = None, similarity: float | None = None,
               type_match: str | None = None, strict: bool = False, per_doc: bool = False,
               errors: bool = False, jobs: int | None = None,
               max_coref_links: int | None = MAX_COREF_LINKS, zip_limits: ZipLimits | None = None,
               ci: float | None = None, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
               doc_counts: bool = False, gold_cache: dict | None = None, details: bool = False,
               unreadable_as_empty: bool = False, max_match_edges: int | None = MAX_MATCH_EDGES,
               max_coref_total: int | None = MAX_COREF_TOTAL,
               max_error_records: int | None = MAX_ERROR_RECORDS) -> ScoreReport:
    """Score the BRAT ``.ann`` files of ``pred`` (folder or ``.zip``) against ``gold``.

    ``mode="chemu"`` (default) computes the six ChEMU 2021 reports (``level``/``span`` restrict which are
    kept); ``mode="brateval"`` reproduces BRATEval v0.3.2 for one ``level`` (default relations), ``span``
    (exact|overlap|approx, default exact), ``similarity`` (approx only, default 0.8) and ``type_match``.
    ``jobs``: worker processes (default 1; 0 = automatic, two on Linux from 1,000 documents).
    ``max_coref_links``: ChEMU mode refuses (ScoringError naming the file) a document whose COREFERENCE
    expansion would hold more links than this (default 1,000,000; None: no limit).
    ``max_coref_total``: ChEMU mode refuses (ScoringError naming the file) a prediction whose documents'
    COREFERENCE expansions hold more links than this together (default 5,000,000; None: no limit).
    ``max_error_records``: ChEMU mode lists at most this many FP/FN records per document and report (with
    ``errors`` and ``details``; the first in the records' order, default 1,000; None: all); the counts stay
    complete, and ``report["errors_left_out"]`` (``{document: {report: count}}``) and a warning say how many
    were left out.
    ``zip_limits``: size limits of the files read (:class:`~chemref.scoring.brat.sources.ZipLimits`: 50 MB per
    member or file, 1 GB per archive, compression ratio 100); beyond them an ``ArchiveError`` or
    ``TooLargeError`` names the file.
    ``ci`` (e.g. 0.95) adds a percentile bootstrap interval (``resamples`` resamples of the documents, numpy
    Generator seeded with ``seed``) to every P/R/F1; ``doc_counts=True`` keeps every document's counts in
    ``report.doc_counts`` (what :mod:`chemref.scoring.leaderboard` compares). ``gold_cache`` (a dict, ChEMU mode)
    keeps the parsed gold documents between calls with the same gold, so several systems read it once.
    ``details=True`` keeps every document's counts and every FP/FN record in ``report.details``
    (``{"per_doc", "errors", "warnings"}``, the warnings that only reading them gave) without adding them to
    the report itself: what :func:`~chemref.scoring.brat.match_details.match_details` draws from the same run.
    ``max_match_edges``: ChEMU mode refuses (ScoringError naming the files) a relaxed matching whose graph,
    once items with identical neighbourhoods are merged, still holds more edges than this (default 1,000,000;
    None: no limit); sparse graphs and single spans never need it.
    ``unreadable_as_empty``: ChEMU mode scores a prediction file that is not UTF-8 text (UTF-16, gzip, binary)
    as empty, with a warning, instead of raising ``BratError`` naming it.
    Raises :class:`~chemref.errors.InputError` / ``BratError`` / ``ScoringError``; never calls ``sys.exit``.
    """
    resampling = Resampling(ci, resamples, seed) if ci is not None else None
    _check_choices(level, span, type_match, similarity)
    _check_counts(jobs, max_coref_links, max_match_edges, max_coref_total, max_error_records)
    if mode == "brateval":
        if span == "approx" and similarity is None:
            similarity = DEFAULT_SIMILARITY
        if similarity is not None and span != "approx":
            raise InputError("a similarity threshold needs span matching 'approx'")
        return score_brateval(gold, pred, level=level or "relations", span=span or "exact", jobs=jobs,
                              similarity=similarity, type_match=type_match or "exact",
                              per_doc=per_doc, errors=errors, zip_limits=zip_limits, resampling=resampling,
                              doc_counts=doc_counts, details=details)
    if mode != "chemu":
        raise InputError(f"unknown scoring mode {mode!r}", hint="use chemu or brateval")
    if span == "approx" or similarity is not None or type_match not in (None, "exact"):
        raise InputError("approximate spans, similarity and type matching are BRATEval options",
                         hint="add --brateval (mode='brateval')")
    return _score_chemu(gold, pred, level=level, span=span, strict=strict, per_doc=per_doc, errors=errors,
                        jobs=jobs, max_coref_links=max_coref_links, zip_limits=zip_limits,
                        resampling=resampling, doc_counts=doc_counts, gold_cache=gold_cache, details=details,
                        unreadable_as_empty=unreadable_as_empty, max_match_edges=max_match_edges,
                        max_coref_total=max_coref_total, max_error_records=max_error_records)


def _check_choices(level: str | None, span: str | None, type_match: str | None, similarity: float | None) -> None:
    """An :class:`InputError` for a level, span or type match :func:`score_brat` does not know, or a similarity
    threshold outside 0..1."""
    if level is not None and level not in _LEVELS:
        raise InputError(f"unknown level {level!r}", hint="use relations or entities")
    if span is not None and span not in _SPANS:
        raise InputError(f"unknown span match {span!r}", hint="use exact, overlap or approx")
    if type_match is not None and type_match not in _TYPES:
        raise InputError(f"unknown type match {type_match!r}", hint="use exact, inexact or hierarchical")
    if similarity is not None and not 0.0 <= similarity <= 1.0:
        raise InputError(f"similarity threshold must be between 0 and 1, got {similarity}")


def _not_a_count(value: Any) -> bool:
    """True unless ``value`` is None or an int (not a bool) of 0 or more."""
    return value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0)


def _check_counts(jobs: int | None, max_coref_links: int | None, max_match_edges: int | None,
                  max_coref_total: int | None, max_error_records: int | None) -> None:
    """An :class:`InputError` naming the first of :func:`score_brat`'s counts that is not None or an int >= 0."""
    if _not_a_count(jobs):
        raise InputError(f"jobs must be 0 (automatic) or a positive number of processes, got {jobs!r}")
    if _not_a_count(max_coref_links):
        raise InputError(f"max_coref_links must be a number of links (0 or more) or None, got {max_coref_links!r}")
    if _not_a_count(max_match_edges):
        raise InputError(f"max_match_edges must be a number of edges (0 or more) or None, got {max_match_edges!r}")
    for name, value in (("max_coref_total", max_coref_total), ("max_error_records", max_error_records)):
        if _not_a_count(value):
            raise InputError(f"{name} must be a number (0 or more) or None, got {value!r}")


def read_prediction(src: Any, name: str, warnings: list[str], unreadable_as_empty: bool) -> tuple[set, set]:
    """A prediction's entities and relations: a file that is not UTF-8 text is a ``BratError`` naming it, or,
    with ``unreadable_as_empty``, an empty prediction with a warning."""
    text = _prediction_text(src, name, warnings, unreadable_as_empty)
    if text is None:
        return set(), set()
    ents, rels, diags = document_items(text, src.display(name))
    warnings.extend(diags)
    return ents, rels


def _prediction_text(src: Any, name: str, warnings: list[str], unreadable_as_empty: bool) -> str | None:
    """:func:`read_prediction`'s text (its decoding warnings added), None for an unreadable file scored empty."""
    data = src.read_bytes(name)
    if unreadable_as_empty:
        why = not_text(data)
        if why is not None:
            warnings.append(f"{src.display(name)}: {why}; scored as an empty prediction (--unreadable-as-empty)")
            return None
    return _decoded(src, name, warnings, strict=True, data=data)


def _decoded(src: Any, name: str, warnings: list[str], strict: bool = False, data: bytes | None = None,
             hint: str = PREDICTION_HINT, gold: bool = False) -> str:
    """The text of one ``.ann`` (its decoding warnings added); with ``strict``, a file that is not UTF-8 text
    is a ``BratError`` naming it, with ``hint`` saying what to do; with ``gold``, any byte that is not UTF-8."""
    text, bad = decode_ann(src.read_bytes(name) if data is None else data, path=src.display(name), strict=strict,
                           hint=hint, gold=gold)
    warnings.extend(bad)
    return text


def _left_out(src: Any) -> str:
    """What a source left out (links, FIFOs), for the error saying it holds no ``.ann`` file."""
    if not src.notes:
        return ""
    return f" ({len(src.notes)} left out; the first: {src.notes[0]})"


def _label(block_key: tuple) -> str:
    return "/".join(p for p in block_key if p)


def _score_chemu(gold: PathLike, pred: PathLike, *, level: str | None, span: str | None, strict: bool,
                 per_doc: bool, errors: bool, jobs: int | None, max_coref_links: int | None,
                 zip_limits: ZipLimits | None, resampling: Resampling | None, doc_counts: bool,
                 gold_cache: dict | None = None, details: bool = False, unreadable_as_empty: bool = False,
                 max_match_edges: int | None = MAX_MATCH_EDGES, max_coref_total: int | None = MAX_COREF_TOTAL,
                 max_error_records: int | None = MAX_ERROR_RECORDS) -> ScoreReport:
    warnings: list[str] = []
    with AnnSource(gold, limits=zip_limits, is_gold=True) as gsrc, AnnSource(pred, limits=zip_limits) as psrc:
        _pair_sources(gsrc, psrc, strict, warnings)
        names = sorted(gsrc.names)

        def run(chunk: Sequence[str]) -> tuple:
            return _score_names(chunk, gsrc, psrc, strict=strict, per_doc=per_doc or details,
                                errors=errors or details, level=level, span=span, max_coref_links=max_coref_links,
                                collect=collect, gold_cache=gold_cache, quiet_errors=not errors,
                                unreadable_as_empty=unreadable_as_empty, max_match_edges=max_match_edges,
                                max_coref_total=max_coref_total, max_error_records=max_error_records)

        def reopen() -> None:
            gsrc.reopen()
            psrc.reopen()

        collect = resampling is not None or doc_counts
        parts = _Parts(map_chunks(run, names, _jobs(jobs, len(names)), reopen), warnings)
        if max_coref_total is not None and parts.coref_links > max_coref_total:  # the workers' parts together
            raise ScoringError(f"the COREFERENCE chains of the prediction expand to {parts.coref_links:,} links over "
                               f"its documents, more than the limit of {max_coref_total:,} links per submission",
                               path=psrc.path, hint="raise it with --max-coref-total (max_coref_total=) if the "
                                                    "files are genuine")
    data = _chemu_data(gsrc, psrc, parts.totals, level, span, resampling)
    if per_doc:
        data["per_doc"] = parts.docs
    if errors:
        data["errors"] = parts.records
        warnings.extend(_missing_text_warning(parts.records, gsrc.path))
        if parts.left_out:
            data["errors_left_out"] = parts.left_out
            warnings.extend(_left_out_warnings(parts.left_out, max_error_records))
    data["warnings"] = list(dict.fromkeys(warnings))  # one line per distinct problem, first-seen order
    kept_details = None
    if details:
        extra = parts.record_warnings + ([] if errors else _missing_text_warning(parts.records, gsrc.path)
                                         + _left_out_warnings(parts.left_out, max_error_records))
        kept_details = {"per_doc": parts.docs, "errors": parts.records, "errors_left_out": parts.left_out,
                        "warnings": [w for w in dict.fromkeys(extra) if w not in data["warnings"]]}
    if resampling is not None:
        add_intervals(data, parts.rows, resampling)
    return ScoreReport.from_brat(data, doc_counts=parts.rows if doc_counts else None, details=kept_details)


def _pair_sources(gsrc: AnnSource, psrc: AnnSource, strict: bool, warnings: list[str]) -> None:
    """Pair the prediction's documents with the gold's (their notes and the unpaired predictions into
    ``warnings``); an :class:`InputError` when either side holds no ``.ann``, a :class:`ScoringError` when no
    prediction names a gold document (or, with ``strict``, when one does not)."""
    psrc.pair_with(gsrc)
    warnings.extend(gsrc.notes + psrc.notes)
    if not gsrc.names:
        raise InputError("no .ann files found in the gold folder" + _left_out(gsrc), path=gsrc.path)
    if not psrc.names:
        raise InputError("no .ann files found in the prediction folder or zip" + _left_out(psrc),
                         path=psrc.path, hint="a Codalab-style submission holds one .ann per gold document")
    unpaired = sorted(psrc.names.keys() - gsrc.names.keys())
    if len(unpaired) == len(psrc.names):
        raise ScoringError(f"none of the {len(unpaired):,} prediction files names a gold document: "
                           f"{unpaired[0]!r}, while the gold has {sorted(gsrc.names)[0]!r}", path=psrc.path,
                           hint="are gold and prediction from the same set? name each prediction file as its "
                                "gold .ann, relative to the folder or zip given")
    for name in unpaired:
        msg = f"{psrc.display(name)}: prediction file has no gold file; it is ignored"
        if strict:
            raise ScoringError(msg)
        warnings.append(msg)


class _Parts:
    """The workers' parts of :func:`_score_names` joined in order (their warnings added to ``warnings``)."""

    def __init__(self, parts: Iterable[tuple], warnings: list[str]) -> None:
        self.totals: dict[tuple, dict[str, Counts]] = {b: {} for b in BLOCKS}
        self.docs: dict[str, dict[str, Any]] = {}
        self.records: list[dict[str, Any]] = []
        self.record_warnings: list[str] = []
        self.rows: list[dict[tuple[str, str], tuple[int, int, int]]] = []
        self.left_out: dict[str, dict[str, int]] = {}
        self.coref_links = 0
        for (part_totals, part_docs, part_records, part_warnings, part_rows, part_record_warnings, part_left_out,
             part_links) in parts:
            self.left_out.update(part_left_out)
            self.coref_links += part_links
            for b, counts in part_totals.items():
                add_counts(self.totals[b], counts)
            self.docs.update(part_docs)
            self.records.extend(part_records)
            warnings.extend(part_warnings)
            self.record_warnings.extend(part_record_warnings)
            self.rows.extend(part_rows)


def _chemu_data(gsrc: AnnSource, psrc: AnnSource, totals: dict[tuple, dict[str, Counts]], level: str | None,
                span: str | None, resampling: Resampling | None) -> dict[str, Any]:
    """The ChEMU report's meta, title, sources and the P/R/F1 of the reports kept by ``level`` and ``span``."""
    kept = [_label(b) for b in BLOCKS if _keep(b, level, span)]
    primary = next(label for label in PRIMARY_ORDER if label in kept)
    meta = report_meta("chemu", f"{primary} f1", len(gsrc.names), CHEMU_MATCHING, resampling,
                       "the ChEMU 2021 overview ranks systems by exact-match relation F1 with COREFERENCE expanded"
                       if primary == PRIMARY_ORDER[0] else "the first report kept by --level/--span")
    data: dict[str, Any] = {"meta": meta, "mode": "chemu", "title": f"ChEMU 2021 scores: {len(gsrc.names)} documents "
                            f"(gold {gsrc.path}, prediction {psrc.path})",
                            "gold": gsrc.path, "pred": psrc.path, "documents": len(gsrc.names)}
    if level in (None, "relations"):
        rel: dict[str, Any] = {}
        for b in BLOCKS[:4]:
            if _keep(b, level, span):
                rel.setdefault(b[1], {})[b[2]] = prf_block(totals[b])
        data["relations"] = rel
    if level in (None, "entities"):
        data["entities"] = {b[1]: prf_block(totals[b]) for b in BLOCKS[4:] if _keep(b, level, span)}
    return data


def _score_names(names: Sequence[str], gsrc: Any, psrc: Any, *, strict: bool, per_doc: bool, errors: bool,
                 level: str | None, span: str | None, max_coref_links: int | None, collect: bool = False,
                 gold_cache: dict | None = None, quiet_errors: bool = False,
                 unreadable_as_empty: bool = False, max_match_edges: int | None = MAX_MATCH_EDGES,
                 max_coref_total: int | None = None, max_error_records: int | None = None) -> tuple:
    """Score the documents ``names``: ``(totals, per-doc blocks, error records, warnings, per-doc counts,
    warnings of the error records, {document: {report: records left out}}, COREFERENCE links of the
    prediction's expansions)``; the per-doc counts (``{(report, type or "all"): (tp, fp, fn)}`` per
    document) only with ``collect``. The warnings of reading the error records' texts go to the last list
    with ``quiet_errors`` (records kept for :func:`match_details`, not shown), else to the warnings."""
    warnings: list[str] = []
    totals: dict[tuple, dict[str, Counts]] = {b: {} for b in BLOCKS}
    docs: dict[str, dict[str, Any]] = {}
    err_items: list = [] if errors else None  # type: ignore[assignment]
    records: list[dict[str, Any]] = []
    record_warnings: list[str] = [] if quiet_errors else warnings
    rows: list[dict[tuple[str, str], tuple[int, int, int]]] = []
    kept = [(b, _label(b)) for b in BLOCKS if _keep(b, level, span)]
    budget = CorefBudget(max_coref_total)
    left_out: dict[str, dict[str, int]] = {}
    doc_left_out: dict[tuple, int] = {}
    for name in names:
        doc_left_out.clear()
        with collector_paused():  # freed before the collector runs again
            counts = _score_name(name, gsrc, psrc, strict=strict, max_coref_links=max_coref_links,
                                 gold_cache=gold_cache, unreadable_as_empty=unreadable_as_empty,
                                 max_match_edges=max_match_edges, warnings=warnings, err_items=err_items,
                                 budget=budget, max_records=max_error_records, left_out=doc_left_out)
        if doc_left_out:
            shown = {_label(b): n for b, n in doc_left_out.items() if _keep(b, level, span)}
            if shown:
                left_out[name] = shown
        for b, c in counts.items():
            add_counts(totals[b], c)
        if per_doc:
            docs[name] = {_label(b): total(c.values()).prf()
                          for b, c in counts.items() if _keep(b, level, span)}
        if errors and err_items:
            records.extend(_error_records(name, err_items, gsrc, psrc, record_warnings, level, span,
                                          with_text=not quiet_errors))
        if collect:
            rows.append(_doc_row(counts, kept))
    return (totals, docs, records, warnings, rows, record_warnings if quiet_errors else [], left_out,
            budget.used)


def _score_name(name: str, gsrc: Any, psrc: Any, *, strict: bool, max_coref_links: int | None,
                gold_cache: dict | None, unreadable_as_empty: bool, max_match_edges: int | None,
                warnings: list[str], err_items: list | None, budget: CorefBudget | None = None,
                max_records: int | None = None, left_out: dict | None = None) -> dict[tuple, dict[str, Counts]]:
    """One document's counts (its unmatched items into ``err_items`` when a list, at most ``max_records`` per
    report, the others counted in ``left_out``; its warnings added); the prediction's COREFERENCE expansion is
    taken from ``budget``."""
    cached = gold_cache.get((name, max_coref_links)) if gold_cache is not None else None
    if cached is None:
        gold_warnings: list[str] = []
        # numbered and expanded once; past the COREFERENCE limit, refused before its prediction is read
        # the gold is the reference: a file that is not UTF-8 text is always an error (no option scores it empty)
        g, diags = read_side(_decoded(gsrc, name, gold_warnings, strict=True, hint=GOLD_HINT, gold=True),
                             gsrc.display(name), max_coref_links, whole_limit=True)
        gold_warnings.extend(diags)
        _note_self_relations(g, gsrc.display(name), gold_warnings)
        if gold_cache is not None:
            gold_cache[(name, max_coref_links)] = (g, gold_warnings)
    else:
        g, gold_warnings = cached
    warnings.extend(gold_warnings)
    if name in psrc.names:
        text = _prediction_text(psrc, name, warnings, unreadable_as_empty)
        p, diags = read_side(text or "", psrc.display(name), max_coref_links, gold=g, budget=budget)
        warnings.extend(diags)
        _note_self_relations(p, psrc.display(name), warnings)
    else:
        msg = f"{gsrc.display(name)}: no prediction file {name}.ann in {psrc.path}"
        if strict:
            raise ScoringError(msg, hint="drop --strict to score a missing file as an empty prediction")
        msg += "; counted as empty"
        warnings.append(msg)
        p = read_side("", gold=g)[0]
    _check_text_length(name, g.ents, p.ents, gsrc, psrc, warnings)
    if err_items is not None:
        err_items.clear()
    return score_document(g, p, {}, err_items, max_coref_links=max_coref_links,
                          paths=(gsrc.display(name), psrc.display(name)), max_match_edges=max_match_edges,
                          max_records=max_records, left_out=left_out)


def _doc_row(counts: dict[tuple, dict[str, Counts]], kept: list[tuple[tuple, str]]) -> dict:
    """One document's counts as ``{(report, type): (tp, fp, fn)}`` plus ``(report, "all")`` per report."""
    row: dict[tuple[str, str], tuple[int, int, int]] = {}
    for b, label in kept:
        for t, c in counts[b].items():
            row[(label, t)] = (c.tp, c.fp, c.fn)
        row[(label, "all")] = tuple(total(counts[b].values()))  # type: ignore[assignment]
    return row


def _note_self_relations(side: Any, where: str, warnings: list[str]) -> None:
    """Warn about relations whose two arguments are one mention (a relation code ``arg1 << 32 | arg2`` with
    equal halves): scored as given, but no annotation guideline asks for them."""
    loops = sum(1 for codes in side.codes.values() for code in codes if code >> 32 == code & 0xFFFFFFFF)
    if loops:
        warnings.append(f"{where}: {loops} relation(s) link a mention to itself (Arg1 and Arg2 the same type and "
                        "offsets); scored as given")


def _check_text_length(name: str, gold: set, pred: set, gsrc: Any, psrc: Any, warnings: list[str]) -> None:
    """Warn when a mention ends past the end of the gold ``.txt`` (when there is one): the annotation was
    made on another text (line endings, encoding), so it can never match. Scoring is unchanged.

    Only the file size is looked at first (one ``stat``; a character takes at least one byte), so a mention
    that overshoots a text with multi-byte characters by fewer characters than those bytes is not flagged.
    """
    worst_gold = max(map(_second, chain.from_iterable(map(_second, gold))), default=0)
    worst_pred = max(map(_second, chain.from_iterable(map(_second, pred))), default=0)
    size = gsrc.text_size(name)
    if size is None or max(worst_gold, worst_pred) <= size:
        return
    text = gsrc.read_text(name, warnings)
    if text is None:
        return
    for src, worst in ((gsrc, worst_gold), (psrc, worst_pred)):
        if worst > len(text):
            warnings.append(f"{src.display(name)}: a mention ends at offset {worst}, past the end of the gold "
                            f"text {gsrc.display(name)[:-4]}.txt ({len(text)} characters); it cannot match "
                            f"(was it annotated on another version of the text?)")


_second = itemgetter(1)


def _keep(b: tuple, level: str | None, span: str | None) -> bool:
    if level is not None and b[0] != level:
        return False
    if span == "exact":
        return b[1] == "exact"
    if span == "overlap":
        return b[1] == "relaxed_bipartite"
    return True


def _left_out_warnings(left_out: dict[str, dict[str, int]], cap: int | None) -> list[str]:
    """One warning per document whose FP/FN records were cut at ``cap`` per report."""
    return [f"{name}: {sum(by_report.values()):,} false positives and negatives are left out of the error "
            f"list ({', '.join(f'{n:,} of {label}' for label, n in by_report.items())}); at most {cap:,} are "
            "listed per document and report (--max-error-records); the counts are complete"
            for name, by_report in left_out.items()]


def _missing_text_warning(records: list[dict[str, Any]], gold: str) -> list[str]:
    """One warning naming the documents whose FP/FN have no mention text (no ``.txt`` in gold or prediction)."""
    mentions = ("arg1", "arg2", "mention")
    docs = sorted({r["document"] for r in records if any(k in r and r[k]["text"] is None for k in mentions)})
    if not docs:
        return []
    shown = ", ".join(docs[:5]) + (", ..." if len(docs) > 5 else "")
    return [f"{gold}: {len(docs)} document(s) have no .txt beside the gold or the prediction .ann ({shown}); "
            "their false positives and negatives are listed by offsets only "
            "(put the .txt files beside the .ann files)"]


def _error_records(name: str, items: list, gsrc: Any, psrc: Any, warnings: list[str],
                   level: str | None, span: str | None, with_text: bool = True) -> list[dict[str, Any]]:
    """FP/FN records with the mention text from the .txt (gold .txt for FN, prediction .txt for FP).

    ``with_text=False`` (records kept only for :func:`match_details`): the text is ``""`` where there is a
    ``.txt`` (None where there is none), so nested long mentions do not cost their length once per record."""
    texts: dict[str, str | None] = {}

    def text_of(kind: str) -> str | None:
        if kind not in texts:
            first, second = (gsrc, psrc) if kind == "FN" else (psrc, gsrc)
            texts[kind] = first.read_text(name, warnings) or second.read_text(name, warnings)
        return texts[kind]

    def mention(m: tuple, kind: str) -> dict[str, Any]:
        label, frags = m
        txt = text_of(kind)
        out: dict[str, Any] = {"label": label, "fragments": [list(f) for f in frags], "text": None}
        if txt is not None:  # a mention past the end was reported by _check_text_length
            out["text"] = " ".join(txt[s:e] for s, e in frags) if with_text else ""
        return out

    out = []
    # in one order whatever the sets' (hash-seeded) iteration order was: report, kind, then the item itself
    for b, kind, item in sorted(items, key=lambda x: (_BLOCK_ORDER[x[0]], x[1], x[2])):
        if not _keep(b, level, span):
            continue
        rec: dict[str, Any] = {"report": _label(b), "kind": kind, "document": name, "type": item[0]}
        if b[0] == "relations":
            rec["arg1"] = mention(item[1], kind)
            rec["arg2"] = mention(item[2], kind)
        else:
            rec["mention"] = mention(item, kind)
        out.append(rec)
    return out
