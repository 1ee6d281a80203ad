"""Which candidates reach the judge, and one chat-completions request for each, in the Batch input format.

A request line is ``{"custom_id", "method", "url", "body"}`` as the OpenAI Batch API reads it, so the same
file serves a hosted batch, a local OpenAI-compatible server (``chemref questions judge run``) or any other
way of answering it. ``custom_id`` is the record's ``id``.
"""

from __future__ import annotations

import math
import os
from typing import Any, Iterable, Iterator, Mapping

from chemref.errors import InputError
from chemref.jsonl import read_jsonl, write_jsonl
from chemref.questions.funnel.filters import SELECTOR_STAGES
from chemref.questions.judge.prompt import PROMPT_VERSION, load_prompt

__all__ = ["JUDGED_REASONS", "CHAT_COMPLETIONS_URL", "reaches_judge", "judge_candidates", "prepare_requests",
           "write_requests", "read_records"]

#: Rejections decided by the selector score and the caps: such a candidate passed every other filter, so the
#: judge may still keep it (the caps are applied again after judging).
JUDGED_REASONS = SELECTOR_STAGES
CHAT_COMPLETIONS_URL = "/v1/chat/completions"


def reaches_judge(record: Mapping[str, Any]) -> bool:
    """A kept question, or a candidate rejected only by the selector's threshold or the caps
    (:data:`JUDGED_REASONS`): one the judge may keep."""
    reason = record.get("reason")
    return reason is None or reason in JUDGED_REASONS


def judge_candidates(records: Iterable[Mapping[str, Any]], *,
                     min_score: float | None = None) -> Iterator[Mapping[str, Any]]:
    """The records that go to the judge: kept questions and candidates rejected only by the selector's threshold
    or the caps (:data:`JUDGED_REASONS`), with ``score >= min_score`` when that is given (a record without
    a score is then left out)."""
    for record in records:
        if not reaches_judge(record):
            continue
        if min_score is not None:
            score = record.get("score")
            if not isinstance(score, (int, float)) or isinstance(score, bool) or not math.isfinite(score) \
                    or score < min_score:
                continue
        yield record


def read_records(paths: Iterable[str | os.PathLike[str] | None]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(path, record)`` for each record of the build's files ``paths`` (None: not given), in order. A record
    without an id, or an id already met (in any of the files), is an :class:`InputError` naming the file and
    the line: its ``custom_id`` must be unique in a batch."""
    seen: dict[str, tuple[str, int]] = {}
    for path in paths:
        if path is None:
            continue
        where = os.fspath(path)
        for number, row in read_jsonl(where):
            ident = row.get("id")
            if not isinstance(ident, str) or not ident:
                raise InputError(f"the record has no id (got {ident!r:.60})", path=where, line=number,
                                 hint="give the files of a chemref build")
            if ident in seen:
                first, line = seen[ident]
                raise InputError(f"id {ident!r} is given twice (first in {first!r}, line {line}); a batch needs "
                                 "each custom_id once", path=where, line=number,
                                 hint="give the questions and the rejected file of one build, each once")
            seen[ident] = (where, number)
            yield where, row


def prepare_requests(records: Iterable[Mapping[str, Any]], *, model: str, version: str = PROMPT_VERSION,
                     max_tokens: int = 300, json_mode: bool = True) -> Iterator[dict[str, Any]]:
    """One Batch request line per record, asking ``model`` at temperature 0 for the prompt's JSON answer."""
    if not model:
        raise ValueError("a model name is required")
    prompt = load_prompt(version)
    for record in records:
        body: dict[str, Any] = {"model": model, "temperature": 0, "max_tokens": max_tokens,
                                "messages": prompt.render(record)}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        yield {"custom_id": record["id"], "method": "POST", "url": CHAT_COMPLETIONS_URL, "body": body}


def write_requests(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]], *, model: str,
                   version: str = PROMPT_VERSION, max_tokens: int = 300, json_mode: bool = True) -> int:
    """Write the requests for ``records`` to ``path`` as JSON Lines, atomically; returns how many."""
    return write_jsonl(path, prepare_requests(records, model=model, version=version, max_tokens=max_tokens,
                                              json_mode=json_mode))
