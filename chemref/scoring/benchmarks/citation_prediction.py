"""Citation prediction scoring (CiteME / BioChemCite style): which paper does ``[CITATION]`` cite?

Gold is chemref's question JSONL (``target_doi``, ``target_pmid``, ``target_title``) or the CiteME TSV
(``target_paper_title``, several acceptable titles joined by ``[TITLE_SEPARATOR]``). Predictions are
JSONL ``{"id", "dois": [ranked]}``, ``{"id", "pmids": [ranked]}`` or ``{"id", "titles": [ranked]}``. DOIs
match after :func:`chemref.doi.normalize_doi`; PMIDs as digits (a ``PMID:`` prefix is allowed, and a
PMID inside a ``dois`` list counts too, for question sets built with ``--answer-key doi-or-pmid``);
titles match with :func:`chemref.scoring.benchmarks.titles.titles_match`.

Metrics per question, then the plain mean over every gold question: accuracy@1 (the top prediction
is right), Recall@K (= hit@K, one target per question) and MRR@K. A question without a prediction
counts as wrong and is reported. Predictions for ids that are not in the gold are reported and
ignored (an error with ``strict=True``, and always an error when no predicted id is in the gold:
that is the wrong file). Ids compare as strings, so CiteME's ``10`` and ``"10"`` are the same.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chemref.doi import normalize_doi
from chemref.errors import InputError, ScoringError
from chemref.jsonl import read_jsonl
from chemref.scoring.benchmarks.breakdowns import breakdown
from chemref.scoring.benchmarks.readers import read_text, record_id, string_list
from chemref.scoring.benchmarks.titles import DEFAULT_THRESHOLD, normalize_title, titles_match
from chemref.scoring.report.model import ScoreReport
from chemref.scoring.stats.bootstrap import mean_intervals
from chemref.scoring.stats.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, Resampling

__all__ = [
    "score_questions", "read_questions", "read_question_predictions", "GoldQuestion", "Prediction",
    "TITLE_SEPARATOR", "gold_question", "answer_hit",
]

PathLike = str | os.PathLike[str]

TITLE_SEPARATOR = "[TITLE_SEPARATOR]"
_CITEME_REQUIRED = ("id", "excerpt", "target_paper_title")


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    """One question's accepted answers (normalised DOIs and/or titles) and its breakdown fields."""

    id: str
    excerpt: str = ""
    dois: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    section: str | None = None
    source: str | None = None
    source_file: str | None = None
    groups: tuple[tuple[str, str], ...] = ()
    pmids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Prediction:
    """A ranked list of DOIs or of titles for one question."""

    id: str
    kind: str  # "dois", "pmids" or "titles"
    items: tuple[str, ...]
    line: int | None = None


# ----------------------------------------------------------------------------------------- readers

def _answer(record: Mapping[str, Any], field: str, parse: Any, what: str, qid: str,
            where: dict[str, Any]) -> tuple[str, ...]:
    """The normalised answer in ``record[field]`` as a 0- or 1-tuple; a value ``parse`` rejects is an error."""
    raw = record.get(field)
    if raw in (None, ""):
        return ()
    value = parse(str(raw))
    if value is None:
        raise ScoringError(f"question {qid!r}: {field} {raw!r} is not {what}", **where)
    return (value,)


def _chemref_question(record: Mapping[str, Any], *, path: PathLike | None, line: int | None) -> GoldQuestion:
    where: dict[str, Any] = {"path": None if path is None else str(path), "line": line}
    qid = record_id(dict(record), **where)
    dois = _answer(record, "target_doi", normalize_doi, "a DOI", qid, where)
    pmids = _answer(record, "target_pmid", _pmid, "a PubMed id", qid, where)
    title = record.get("target_title")
    titles = (str(title),) if isinstance(title, str) and title.strip() else ()
    _check_gold_titles(titles, qid, where)
    if not dois and not pmids and not titles:
        raise ScoringError(f"question {qid!r} has none of target_doi, target_pmid, target_title", **where,
                           hint="is this a chemref question file? for CiteME use --format citeme")
    source = next((str(record[key]) for key in ("source_pmcid", "source_doi", "source_file") if record.get(key)),
                  None)
    section = record.get("section")
    return GoldQuestion(qid, str(record.get("excerpt") or ""), dois, titles,
                        None if section in (None, "") else str(section), source,
                        None if not record.get("source_file") else str(record["source_file"]), pmids=pmids)


def _check_gold_titles(titles: Sequence[str], qid: str, where: dict[str, Any]) -> None:
    """A gold title must keep a letter or digit once normalised (``"!!!"`` would match no prediction)."""
    for title in titles:
        if not normalize_title(title):
            raise ScoringError(f"question {qid!r}: the gold title {title[:60]!r} has no letter or digit once "
                               "normalised, so no prediction could match it", **where,
                               hint="correct or remove that title in the gold file")


def _empty_titles(preds: Sequence[Prediction], pred_path: PathLike | None) -> list[str]:
    """A diagnostic for the predicted titles that have no letter or digit once normalised (they match nothing)."""
    empty = [p for p in preds if p.kind == "titles" and any(not normalize_title(t) for t in p.items)]
    if not empty:
        return []
    where = f"{pred_path}: " if pred_path is not None else ""
    return [f"{where}{len(empty)} prediction(s) hold a title with no letter or digit once normalised, which "
            f"matches nothing (first: {empty[0].id!r}, line {empty[0].line})"]


_PMID = re.compile(r"\s*(?:PMID\s*:?\s*)?(\d{1,9})\s*", re.IGNORECASE)


def _pmid(text: str) -> str | None:
    """A PubMed id as digits without leading zeros ("PMID: 012345" -> "12345"), or None."""
    match = _PMID.fullmatch(text)
    return str(int(match.group(1))) if match and int(match.group(1)) > 0 else None


def _read_citeme(path: PathLike) -> tuple[list[GoldQuestion], list[str]]:
    lines = read_text(path).splitlines()
    if not lines:
        raise InputError("empty file", path=str(path), hint="expected the CiteME TSV with a header line")
    header = lines[0].split("\t")
    missing = [name for name in _CITEME_REQUIRED if name not in header]
    if missing:
        raise InputError(f"not a CiteME TSV: header lacks {', '.join(missing)}", path=str(path), line=1,
                         hint="for chemref question JSONL use --format chemref")
    col = {name: i for i, name in enumerate(header)}
    questions: list[GoldQuestion] = []
    plural: list[str] = []
    no_marker: list[str] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != len(header):
            raise InputError(f"expected {len(header)} tab-separated columns, found {len(cells)}",
                             path=str(path), line=number, hint="a tab or line break inside a field?")
        get = lambda name: cells[col[name]].strip() if name in col else ""  # noqa: E731
        qid = get("id")
        titles = tuple(t.strip() for t in get("target_paper_title").split(TITLE_SEPARATOR) if t.strip())
        if not qid or not titles:
            raise InputError("row without an id or a target_paper_title", path=str(path), line=number)
        _check_gold_titles(titles, qid, {"path": str(path), "line": number})
        excerpt = get("excerpt")
        if "[CITATIONS]" in excerpt:
            plural.append(qid)
        elif "[CITATION]" not in excerpt:
            no_marker.append(qid)
        groups = tuple((name, get(name)) for name in ("split", "year") if get(name))
        questions.append(GoldQuestion(qid, excerpt, (), titles, None, get("source_paper_title") or None,
                                      None, groups))
    diagnostics = []
    if plural:
        diagnostics.append(f"{len(plural)} excerpt(s) use the plural marker [CITATIONS]: ids {', '.join(plural)}")
    if no_marker:
        diagnostics.append(f"{len(no_marker)} excerpt(s) without a [CITATION] marker: ids {', '.join(no_marker)}")
    return questions, diagnostics


def read_questions(path: PathLike, *, format: str = "chemref") -> tuple[list[GoldQuestion], list[str]]:
    """Gold questions from chemref JSONL (``format="chemref"``) or the CiteME TSV (``"citeme"``), and diagnostics."""
    if format == "citeme":
        questions, diagnostics = _read_citeme(path)
    elif format == "chemref":
        questions, diagnostics = [], []
        first_line: dict[str, int] = {}
        for line, record in read_jsonl(path, unique=True):
            question = _chemref_question(record, path=path, line=line)
            if question.id in first_line:
                raise ScoringError(f"question id {question.id!r} appears twice (first on line "
                                   f"{first_line[question.id]})", path=str(path), line=line,
                                   hint="question ids must be unique")
            first_line[question.id] = line
            questions.append(question)
    else:
        raise ScoringError(f"unknown question format {format!r}", hint="use 'chemref' or 'citeme'")
    seen: set[str] = set()
    for question in questions:
        if question.id in seen:
            raise ScoringError(f"question id {question.id!r} appears twice", path=str(path),
                               hint="question ids must be unique")
        seen.add(question.id)
    return questions, diagnostics


def _prediction(record: Mapping[str, Any], *, path: PathLike | None, line: int | None) -> Prediction:
    where: dict[str, Any] = {"path": None if path is None else str(path), "line": line}
    qid = record_id(dict(record), **where)
    kinds = [key for key in ("dois", "pmids", "titles") if key in record]
    if len(kinds) != 1:
        raise ScoringError(f"prediction for {qid!r} must have exactly one of 'dois', 'pmids' or 'titles', found "
                           f"{kinds or 'none'}", **where, hint='expected {"id": ..., "dois": [ranked DOIs]}')
    return Prediction(qid, kinds[0], tuple(string_list(dict(record), kinds[0], **where)), line)


def read_question_predictions(path: PathLike) -> list[Prediction]:
    """Predictions JSONL: ``{"id", "dois": [...]}``, ``{"id", "pmids": [...]}`` or ``{"id", "titles": [...]}``,
    ranked best first."""
    return [_prediction(record, path=path, line=line) for line, record in read_jsonl(path, unique=True)]


# ----------------------------------------------------------------------------------------- scoring

def _hit_rank(question: GoldQuestion, prediction: Prediction, depth: int, threshold: float,
              path: PathLike | None) -> tuple[int | None, int]:
    """1-based rank of the first correct item within ``depth`` (or None) and the number of unparseable DOIs."""
    bad = 0
    if prediction.kind in ("dois", "pmids"):
        if not question.dois and not question.pmids:
            raise ScoringError(f"question {question.id!r} has no gold DOI or PMID but the prediction gives "
                               f"{prediction.kind.upper()[:-1]}s", path=None if path is None else str(path),
                               line=prediction.line,
                               hint="predict titles for benchmarks that give titles only (CiteME)")
        if prediction.kind == "pmids" and not question.pmids:
            raise ScoringError(f"question {question.id!r} has no gold PMID but the prediction gives PMIDs",
                               path=None if path is None else str(path), line=prediction.line,
                               hint="predict DOIs (a 'dois' list may mix DOIs and PMIDs)")
        for rank, item in enumerate(prediction.items[:depth], start=1):
            hit, unparseable = _identifier_hit(question, item, prediction.kind)
            bad += unparseable
            if hit is not None:
                return rank, bad
        return None, bad
    if not question.titles:
        raise ScoringError(f"question {question.id!r} has no gold title but the prediction gives titles",
                           path=None if path is None else str(path), line=prediction.line, hint="predict DOIs")
    for rank, item in enumerate(prediction.items[:depth], start=1):
        if _title_hit(question, item, threshold):
            return rank, bad
    return None, bad


def _identifier_hit(question: GoldQuestion, item: str, kind: str) -> tuple[str | None, bool]:
    """``("pmid" | "doi" | None, unparseable)``: a PMID (digits, ``PMID:`` allowed) against the gold PMIDs, else
    (in a ``dois`` list) a DOI after :func:`normalize_doi` against the gold DOIs."""
    pmid = _pmid(item)
    if pmid is not None:
        return ("pmid" if pmid in question.pmids else None), False
    doi = normalize_doi(item) if kind == "dois" else None
    if doi is None:
        return None, True
    return ("doi" if doi in question.dois else None), False


def _title_hit(question: GoldQuestion, item: str, threshold: float) -> bool:
    return any(titles_match(item, gold, threshold=threshold) for gold in question.titles)


def gold_question(record: Mapping[str, Any]) -> GoldQuestion:
    """The accepted answers of one chemref question record (a row of ``questions.jsonl``), as the scorer reads
    them; a record with none, or a DOI or PMID that does not parse, is a :class:`ScoringError`."""
    return _chemref_question(record, path=None, line=None)


def answer_hit(question: GoldQuestion, *, identifiers: Iterable[str | None] = (),
               titles: Iterable[str | None] = (), threshold: float = DEFAULT_THRESHOLD) -> str | None:
    """How one answer names the question's cited work, by the scorer's own rules: ``"doi"`` or ``"pmid"`` (an
    identifier, normalised, equal to the gold's), ``"title"`` (:func:`titles_match` at ``threshold``), or None.
    Unlike scoring a prediction, an answer that gives a kind of identifier the question lacks is simply no hit."""
    for item in identifiers:
        if item:
            hit, _ = _identifier_hit(question, item, "dois")
            if hit is not None:
                return hit
    for item in titles:
        if item and question.titles and _title_hit(question, item, threshold):
            return "title"
    return None


def _metric_names(ks: Sequence[int]) -> list[str]:
    names = ["accuracy@1"]
    for k in ks:
        if k > 1:
            names += [f"recall@{k}", f"mrr@{k}"]
    return names


def _values(rank: int | None, ks: Sequence[int]) -> dict[str, float]:
    values = {"accuracy@1": 1.0 if rank == 1 else 0.0}
    for k in ks:
        if k > 1:
            hit = rank is not None and rank <= k
            values[f"recall@{k}"] = 1.0 if hit else 0.0
            values[f"mrr@{k}"] = 1.0 / rank if hit and rank is not None else 0.0
    return values


def score_questions(questions: PathLike | Iterable[GoldQuestion | Mapping[str, Any]],
                    predictions: PathLike | Iterable[Prediction | Mapping[str, Any]], *,
                    format: str = "chemref", k: int | Sequence[int] = (1, 5, 10),
                    threshold: float = DEFAULT_THRESHOLD, strict: bool = False, per_question: bool = False,
                    ci: float | None = None, resamples: int = DEFAULT_RESAMPLES,
                    seed: int = DEFAULT_SEED) -> ScoreReport:
    """Accuracy@1, Recall@K and MRR@K of ranked DOI / title predictions, with per-section and per-source tables.

    ``questions`` is a path (chemref JSONL, or CiteME TSV with ``format="citeme"``) or records;
    ``predictions`` a JSONL path or records. ``threshold`` is the fuzzy title similarity needed
    (see :mod:`chemref.scoring.benchmarks.titles`); ``strict`` turns predictions for unknown ids into an error.
    ``per_question=True`` adds every question's values under ``"per_question"``; ``ci`` (e.g. 0.95) adds
    percentile bootstrap intervals over questions (``resamples``, ``seed``).
    """
    resampling = Resampling(ci, resamples, seed) if ci is not None else None
    ks = (k,) if isinstance(k, int) else tuple(sorted(set(k)))
    if not ks or any(not isinstance(v, int) or v < 1 for v in ks):
        raise ScoringError(f"K must be positive integers, got {k!r}")
    if not 0.0 < threshold <= 1.0:
        raise ScoringError(f"title similarity threshold must be in (0, 1], got {threshold}")
    diagnostics: list[str] = []
    gold = _read_gold(questions, format, diagnostics)
    pred_path = predictions if isinstance(predictions, (str, os.PathLike)) else None
    preds = _read_predictions(predictions, pred_path)
    by_id = _predictions_by_id(preds, pred_path)
    diagnostics += _empty_titles(preds, pred_path)
    unknown = _unknown_ids(gold, preds, pred_path, strict, diagnostics)
    scored = _question_values(gold, by_id, ks, threshold, pred_path)
    diagnostics += scored.diagnostics(max(ks))
    return _report(scored, gold, ks, format=format, threshold=threshold, unknown=unknown, per_question=per_question,
                   diagnostics=diagnostics, resampling=resampling)


def _read_gold(questions: Any, format: str, diagnostics: list[str]) -> list[GoldQuestion]:
    """The gold questions from a file (whose reading diagnostics are added) or from records."""
    if not isinstance(questions, (str, os.PathLike)):
        return [q if isinstance(q, GoldQuestion) else _chemref_question(q, path=None, line=i + 1)
                for i, q in enumerate(questions)]
    gold, read_diagnostics = read_questions(questions, format=format)
    diagnostics += read_diagnostics
    if not gold:
        raise ScoringError("the question file holds no questions", path=str(questions),
                           hint="give the gold question file first, then the predictions")
    return gold


def _read_predictions(predictions: Any, pred_path: PathLike | None) -> list[Prediction]:
    """The ranked predictions from the JSONL file ``pred_path`` or from records."""
    if pred_path is not None:
        return read_question_predictions(pred_path)
    return [p if isinstance(p, Prediction) else _prediction(p, path=None, line=i + 1)
            for i, p in enumerate(predictions)]


def _predictions_by_id(preds: list[Prediction], pred_path: PathLike | None) -> dict[str, Prediction]:
    """One prediction per question id (a second one is an error naming both lines)."""
    by_id: dict[str, Prediction] = {}
    for prediction in preds:
        if prediction.id in by_id:
            raise ScoringError(f"predictions for {prediction.id!r} given twice (first on line "
                               f"{by_id[prediction.id].line})", path=None if pred_path is None else str(pred_path),
                               line=prediction.line, hint="give one ranked list per question")
        by_id[prediction.id] = prediction
    return by_id


def _some(ids: list[str]) -> str:
    """The first five ids, quoted, and "..." when there are more."""
    return ", ".join(map(repr, ids[:5])) + (" ..." if len(ids) > 5 else "")


def _unknown_ids(gold: list[GoldQuestion], preds: list[Prediction], pred_path: PathLike | None, strict: bool,
                 diagnostics: list[str]) -> list[str]:
    """The predicted ids that are not question ids: reported, or an error with ``strict`` or when no
    predicted id is a question id (the wrong file); no prediction at all is an error too."""
    if not preds:
        raise ScoringError("the predictions hold no question: an empty prediction file scores nothing",
                           path=None if pred_path is None else str(pred_path),
                           hint="check that the system wrote its predictions, and that the questions come first")
    gold_ids = {q.id for q in gold}
    unknown = [p.id for p in preds if p.id not in gold_ids]
    if unknown and (strict or len(unknown) == len(preds)):
        raise ScoringError(f"{len(unknown)} of {len(preds)} predicted ids are not question ids (e.g. {unknown[0]!r})",
                           path=None if pred_path is None else str(pred_path),
                           hint="are questions and predictions from the same set? questions come first")
    if unknown:
        diagnostics.append(f"{len(unknown)} prediction(s) for ids not in the questions, ignored: " + _some(unknown))
    return unknown


@dataclass
class _QuestionValues:
    """Every question with its metric values, the questions without a prediction, the unparseable strings
    met and the kinds of prediction (DOIs, PMIDs, titles) seen."""

    names: list[str]
    rows: list[tuple[GoldQuestion, dict[str, float]]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    unparseable: int = 0
    kinds: set[str] = field(default_factory=set)

    def diagnostics(self, depth: int) -> list[str]:
        out = []
        if self.missing:
            out.append(f"{len(self.missing)} question(s) without a prediction, counted wrong: " + _some(self.missing))
        if self.unparseable:
            out.append(f"{self.unparseable} predicted string(s) in the top {depth} are not DOIs or PMIDs (counted "
                       "as misses)")
        return out


def _question_values(gold: list[GoldQuestion], by_id: dict[str, Prediction], ks: tuple[int, ...],
                     threshold: float, pred_path: PathLike | None) -> _QuestionValues:
    """Accuracy@1, Recall@K and RR@K of every gold question (no prediction: all 0)."""
    out = _QuestionValues(_metric_names(ks))
    depth = max(ks)
    for question in gold:
        prediction = by_id.get(question.id)
        rank = None
        if prediction is None:
            out.missing.append(question.id)
        else:
            out.kinds.add(prediction.kind)
            rank, bad = _hit_rank(question, prediction, depth, threshold, pred_path)
            out.unparseable += bad
        out.rows.append((question, _values(rank, ks)))
    return out


def _breakdowns(rows: list[tuple[GoldQuestion, dict[str, float]]], gold: list[GoldQuestion],
                names: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per-group means by section, by source and by every CiteME group field (split, year)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    if any(q.section for q in gold):
        out["section"] = breakdown(rows, lambda q: q.section or None, names)
    if any(q.source for q in gold):
        out["source"] = breakdown(rows, lambda q: q.source or None, names)
    for group in dict.fromkeys(name for q in gold for name, _ in q.groups):
        out[group] = breakdown(rows, lambda q, g=group: dict(q.groups).get(g) or None, names)  # type: ignore[misc]
    return out


def _matching(kinds: set[str], gold: list[GoldQuestion], threshold: float) -> list[str]:
    """How the kinds of prediction seen were matched, for the report's definition."""
    matching = []
    if "dois" in kinds:
        matching.append("DOIs equal after normalize_doi")
    if "pmids" in kinds or ("dois" in kinds and any(q.pmids for q in gold)):
        matching.append("PMIDs equal as numbers")
    if "titles" in kinds:
        matching.append(f"titles match after normalisation, fuzzy similarity ≥ {threshold} for titles of "
                        "30+ characters")
    return matching


def _report(scored: _QuestionValues, gold: list[GoldQuestion], ks: tuple[int, ...], *, format: str,
            threshold: float, unknown: list[str], per_question: bool, diagnostics: list[str],
            resampling: Resampling | None) -> ScoreReport:
    """The means over every question, with their intervals when asked for, as a report."""
    rows, names = scored.rows, scored.names
    metrics = {name: (sum(v[name] for _, v in rows) / len(rows) if rows else 0.0) for name in names}
    matching = _matching(scored.kinds, gold, threshold)
    details: dict[str, Any] = {"title_threshold": threshold}
    if per_question:
        details["per_question"] = {q.id: values for q, values in rows}
    intervals = None
    if resampling is not None:
        intervals = mean_intervals([[v[name] for name in names] for _, v in rows], names, resampling)  # type: ignore[arg-type]
    missing = len(scored.missing)
    return ScoreReport.from_metrics(
        task=f"citation prediction ({'CiteME TSV' if format == 'citeme' else 'chemref questions'})",
        metrics=metrics,
        n=len(rows),
        definition="accuracy@1 = top prediction correct; Recall@K = correct answer in the top K (one target "
                   "per question); MRR@K = mean of 1/rank of the correct answer within the top K, else 0"
                   + (f"; {'; '.join(matching)}" if matching else ""),
        averaging=f"mean over all {len(rows)} questions (a question without a prediction counts 0)",
        k=ks,
        counts={"questions": len(gold), "predicted": len(gold) - missing, "missing_predictions": missing,
                "unknown_prediction_ids": len(unknown), "unparseable_dois": scored.unparseable},
        breakdowns=_breakdowns(rows, gold, names),
        details=details,
        diagnostics=diagnostics,
        intervals=intervals, resampling=resampling, unit="question",
    )
