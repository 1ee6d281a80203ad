"""What the model stages after the selector (the judge, the closed-book test) share: the build's records joined,
the answers tallied, the caps applied again with every record put back in document order, and the build's report
read for the stage's defaults and card, then written again with the stage's funnel."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from chemref._io import atomic_write
from chemref.errors import InputError
from chemref.jsonl import read_json, write_json_streaming
from chemref.questions.funnel.difficulty import rank_bucket
from chemref.questions.funnel.filters import per_article_cap, per_target_cap, target_key
from chemref.questions.funnel.selector_training import article_of
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.judge.answers import ANSWER_KINDS
from chemref.questions.output.totals import MAX_SOURCES, BuildTotals

__all__ = ["join_records", "most_common", "apply_caps", "AnswerTally", "Settled", "settle", "user_message",
           "read_build_report", "card_totals", "build_setting", "card_settings", "write_stage_report"]

_ORDER = re.compile(r"-([pc])(\d+)-s(\d+)\Z")


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return -math.inf
    return float(value)


def _document_order(records: Sequence[Mapping[str, Any]]) -> dict[str, tuple]:
    """A sort key per id: articles in order of first appearance, then paragraph (captions after) and sentence."""
    articles: dict[str, int] = {}
    keys: dict[str, tuple] = {}
    for index, record in enumerate(records):
        ident = str(record.get("id"))
        article = articles.setdefault(article_of(ident), len(articles))
        match = _ORDER.search(ident)
        place = (match.group(1) == "c", int(match.group(2)), int(match.group(3))) if match else (True, 0, 0)
        keys[ident] = (article, *place, index)
    return keys


def join_records(questions: Iterable[Mapping[str, Any]], rejected: Iterable[Mapping[str, Any]]
                 ) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The build's records for a model's stage, each copied once: ``(by id, in file order)``. A question loses
    its ``reason``, a rejected record keeps its own (``"unknown"`` when it has none); a record without an id, or
    an id in two records, is an :class:`InputError`."""
    records: dict[str, dict[str, Any]] = {}
    everything: list[dict[str, Any]] = []
    for record, is_question in [*((q, True) for q in questions), *((r, False) for r in rejected)]:
        row = dict(record)
        ident = row.get("id")
        if not isinstance(ident, str) or not ident:
            raise InputError(f"a record has no id (got {ident!r:.60})", hint="give the files of a chemref build")
        if ident in records:
            raise InputError(f"id {ident!r} is in two records", hint="give the questions and the rejected file "
                             "of one build (each candidate once)")
        if is_question:
            row.pop("reason", None)
        else:
            row["reason"] = str(row.get("reason") or "unknown")
        records[ident] = row
        everything.append(row)
    return records, everything


def most_common(counts: Mapping[Any, int]) -> Any:
    """The value seen most often (the first such in insertion order), or None when there is none."""
    return max(counts, key=lambda value: counts[value]) if counts else None


def apply_caps(kept: Sequence[dict[str, Any]], settings: Any) -> tuple[list[dict[str, Any]], int, int]:
    """The per-target and per-article caps of the funnel (:func:`~chemref.questions.funnel.filters.per_target_cap`,
    :func:`~chemref.questions.funnel.filters.per_article_cap`) applied again to the records ``kept`` by a
    model's stage, ranking by the judge's confidence, then the selector score: ``(survivors, capped by target,
    capped by article)``; a capped record gets its cap as ``reason``."""
    rank = {row["id"]: i for i, row in enumerate(sorted(
        kept, key=lambda r: (-_number(r.get("judge_confidence")), -_number(r.get("score")), r["id"])))}
    by_article: dict[str, list[dict[str, Any]]] = {}
    for row in kept:
        by_article.setdefault(article_of(row["id"]), []).append(row)
    capped_target = capped_article = 0
    survivors: list[dict[str, Any]] = []
    for items in by_article.values():
        passing, over_target = per_target_cap(
            items, settings, target=lambda r: target_key(r.get("target_doi"), r.get("ref_id"), r["id"]),
            score=lambda r: -rank[r["id"]], record_id=lambda r: r["id"])
        passing, over_article = per_article_cap(passing, settings, score=lambda r: -rank[r["id"]],
                                                record_id=lambda r: r["id"])
        for reason, group in (("per_target_cap", over_target), ("per_article_cap", over_article)):
            for row in group:
                row["reason"] = reason
        capped_target += len(over_target)
        capped_article += len(over_article)
        survivors.extend(passing)
    return survivors, capped_target, capped_article


class AnswerTally:
    """The answers of a model's stage counted: per kind (every one of
    :data:`~chemref.questions.judge.answers.ANSWER_KINDS`, in order), per model and per prompt version."""

    def __init__(self) -> None:
        self.kinds = {kind: 0 for kind in ANSWER_KINDS}
        self.models: dict[str, int] = {}
        self.prompts: dict[str, int] = {}

    def add(self, kind: str, model: str | None, prompt: str | None) -> None:
        self.kinds[kind] += 1
        if model:
            self.models[model] = self.models.get(model, 0) + 1
        if prompt:
            self.prompts[prompt] = self.prompts.get(prompt, 0) + 1


@dataclass(frozen=True)
class Settled:
    """The records of a model's stage once the caps are applied again (:func:`settle`): the questions (without
    ``reason``) and every other record, in document order, the count of the others per reason, and how many
    records each cap removed."""

    questions: tuple[dict[str, Any], ...]
    others: tuple[dict[str, Any], ...]
    reasons: dict[str, int]
    capped_target: int
    capped_article: int


def settle(kept: Sequence[dict[str, Any]], everything: Sequence[dict[str, Any]], settings: Any) -> Settled:
    """The caps applied again to the records ``kept`` by a model's stage (:func:`apply_caps`), and every record of
    ``everything`` put in document order, as questions or others."""
    survivors, capped_target, capped_article = apply_caps(kept, settings)
    order = _document_order(everything)
    kept_ids = {row["id"] for row in survivors}
    final = tuple(_question_row(row) for row in sorted(survivors, key=lambda r: order[r["id"]]))
    others = tuple(row for row in sorted(everything, key=lambda r: order[r["id"]]) if row["id"] not in kept_ids)
    reasons: dict[str, int] = {}
    for row in others:
        reasons[row["reason"]] = reasons.get(row["reason"], 0) + 1
    return Settled(final, others, reasons, capped_target, capped_article)


def _question_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out.pop("reason", None)
    return out


def user_message(messages: Any) -> str | None:
    if not isinstance(messages, list):
        return None
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return str(message.get("content"))
    return None


def read_build_report(questions_path: str, given: str | None = None) -> tuple[str | None, dict[str, Any] | None]:
    """The build's report JSON: ``given``, else ``report.json`` beside the questions file when there is one."""
    path = Path(given) if given is not None else Path(questions_path).with_name("report.json")
    if not path.is_file():
        return None, None
    try:
        data = read_json(path, what="the build's report")
    except InputError as exc:
        raise InputError(f"cannot read the build's report beside the questions: {exc.message}", path=str(path),
                         line=exc.line, hint="move it away, or give the report a build wrote") from None
    if not isinstance(data, dict) or not isinstance(data.get("funnel"), list) or "candidates" not in data:
        raise InputError("not a report of 'chemref questions build' (no funnel)", path=str(path),
                         hint="move it away, or give the report a build wrote")
    return str(path), data


def card_totals(questions: Sequence[Mapping[str, Any]], report: Mapping[str, Any],
                funnel: list[dict[str, Any]]) -> Any:
    """Build totals for the dataset card of the ``questions`` a stage kept (counts from the build's report)."""
    skipped = dict(report.get("articles_skipped") or {})
    articles = int(report.get("articles", 0))
    read = int(report.get("articles_read", 0))
    totals = BuildTotals(articles=articles, read=read, unreadable=max(0, articles - read - sum(skipped.values())),
                         skipped=skipped, candidates=int(report["candidates"]), questions=len(questions),
                         rejected=int(report["candidates"]) - len(questions),
                         funnel={row["filter"]: row["rejected"] for row in funnel})
    per_source: dict[tuple, int] = {}
    for q in questions:
        key = (q.get("source_pmcid") or q.get("source_file"), q.get("source_doi"), q.get("source_license"))
        per_source[key] = per_source.get(key, 0) + 1
        totals._licence(str(q.get("source_license") or ""))
        bucket = rank_bucket(q.get("bm25_rank_bibliography"))
        totals.bibliography_ranks[bucket] = totals.bibliography_ranks.get(bucket, 0) + 1
    totals.with_questions = len(per_source)
    totals.sources = [[*key, n] for key, n in list(per_source.items())[:MAX_SOURCES]]
    return totals


def build_setting(settings: Mapping[str, Any], value: int | None, name: str, default: int) -> int:
    """``value`` when given, else the build's setting ``name`` (from its report's ``settings``), else
    ``default``."""
    if value is not None:
        return value
    stored = settings.get(name)
    return stored if isinstance(stored, int) and not isinstance(stored, bool) else default


def card_settings(settings: Mapping[str, Any], base_path: str | None) -> Any:
    """The build's :class:`~chemref.questions.funnel.settings.BuildSettings` from its report's ``settings``."""
    known = {k: v for k, v in settings.items() if k in BuildSettings.__dataclass_fields__}
    try:
        return BuildSettings(**{**known, "selector": None})
    except (InputError, TypeError) as exc:
        raise InputError(f"the build's settings cannot be read ({exc})", path=base_path) from None


def write_stage_report(path: str, base: Mapping[str, Any] | None, questions: int, funnel: list[dict[str, Any]],
                       entries: Mapping[str, Any]) -> None:
    """Write the report after a model's stage, atomically: the build's report ``base`` with the stage's
    ``funnel``, its number of ``questions`` and survival rate, and the stage's ``entries``."""
    doc = dict(base or {})
    doc.update({"questions": questions, "funnel": funnel, **entries})
    if doc.get("candidates"):
        doc["survival_rate"] = round(questions / doc["candidates"], 6)
    per_article = doc.pop("per_article", [])
    with atomic_write(path) as handle:
        write_json_streaming(handle, doc, "per_article", per_article, indent=2, one_line_items=True)
        handle.write("\n")
