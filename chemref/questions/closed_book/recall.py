"""Which records a model recalls: closed-book answers joined to any records by id, for training and evaluation.

``closed-book apply`` decides recall for the questions a build keeps; the selector's training and ``questions
evaluate`` need it for every labelled candidate, whatever stage rejected it (``train-selector --target
good-not-recalled``, ``evaluate --closed-book``). The rule is the stage's: a record is recalled when any sample's
answer names its cited work with the scorer's matcher
(:func:`chemref.scoring.benchmarks.citation_prediction.answer_hit`: the DOI or PMID after normalisation, or the
title at ``title_threshold``); not recalled when every sample has a usable answer and none names it; unknown
(None) otherwise: a sample never answered might have recalled it. A record with no cited work to name (no DOI,
PMID or title) cannot be recalled.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from chemref.errors import InputError, ScoringError
from chemref.questions.closed_book.answers import read_recollections
from chemref.questions.closed_book.prepare import TITLE_THRESHOLD, split_sample_id
from chemref.scoring.benchmarks.citation_prediction import answer_hit, gold_question

__all__ = ["recalled_records", "read_recalled"]


def recalled_records(records: Iterable[Mapping[str, Any]], answers: Mapping[str, tuple[int, Any]], *,
                     title_threshold: float | None = None, responses_path: str | None = None) -> dict[str, bool | None]:
    """``{record id: recalled}`` for every record that has at least one answer (``answers``:
    :func:`~chemref.questions.closed_book.answers.read_recollections`, ``ID#k -> (line, answer)``): True, False,
    or None when no sample names the cited work and some sample has no usable answer. An answer whose id is no
    ``ID#k`` of a record is an :class:`InputError` naming ``responses_path`` and the line."""
    if title_threshold is None:
        title_threshold = TITLE_THRESHOLD
    if not 0.0 < title_threshold <= 1.0:
        raise InputError(f"the title threshold must be above 0 and at most 1, got {title_threshold}")
    by_id = {str(r.get("id")): r for r in records}
    samples: dict[str, list[Any]] = {}
    for ident, (line, answer) in answers.items():
        split = split_sample_id(ident)
        if split is None or split[0] not in by_id:
            raise InputError(f"unknown custom_id {ident!r}: no sample (ID#k) of a record of the questions or the "
                             "rejected file", path=responses_path, line=line,
                             hint="give the closed-book answers for the candidates of this build")
        samples.setdefault(split[0], []).append(answer)
    out: dict[str, bool | None] = {}
    for ident, got in samples.items():
        record = by_id[ident]
        if not (record.get("target_doi") or record.get("target_pmid") or record.get("target_title")):
            out[ident] = False  # no cited work to name
            continue
        try:
            gold = gold_question(record)
        except ScoringError:
            out[ident] = None
            continue
        hit = any(a.ok and answer_hit(gold, identifiers=(a.doi,), titles=(a.title,),
                                      threshold=title_threshold) is not None for a in got)
        out[ident] = True if hit else (False if all(a.ok for a in got) else None)
    return out


def read_recalled(path: str, records: Iterable[Mapping[str, Any]], *,
                  title_threshold: float | None = None) -> dict[str, bool | None]:
    """:func:`recalled_records` of the closed-book answers in ``path`` (Batch output lines)."""
    return recalled_records(records, read_recollections(path), title_threshold=title_threshold,
                            responses_path=path)
