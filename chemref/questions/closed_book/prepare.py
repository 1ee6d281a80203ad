"""Which questions the closed-book test asks about, and ``samples`` chat-completions requests for each.

The requests are OpenAI Batch input lines, exactly as the judge's (:mod:`chemref.questions.judge.prepare`), so
the same runner (``chemref questions judge run``, alias ``closed-book run``) or any other answerer serves them.
A question is asked ``samples`` times, in separate requests with the ids ``ID#1`` ... ``ID#K`` (many servers
ignore the API's ``n``), at a temperature above 0, so that the samples can differ.
"""

from __future__ import annotations

import math
import os
from typing import Any, Iterable, Iterator, Mapping

from chemref.jsonl import write_jsonl
from chemref.questions.closed_book.defaults import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_SAMPLES,
    DEFAULT_TEMPERATURE,
    TITLE_THRESHOLD,
)
from chemref.questions.judge.prepare import CHAT_COMPLETIONS_URL
from chemref.questions.judge.prompt import CLOSED_BOOK_PROMPT_VERSION, load_prompt

__all__ = ["CAP_REASONS", "JUDGED_FIELD", "DEFAULT_SAMPLES", "DEFAULT_TEMPERATURE", "TITLE_THRESHOLD", "DEFAULT_MAX_TOKENS", "reaches_closed_book",
           "closed_book_candidates", "sample_id", "split_sample_id", "prepare_requests", "write_requests"]

#: Rejections by the per-target and per-article caps: such a candidate passed every other step, so it takes a
#: freed slot when a question of its article is recalled (the caps are applied again after the test).
CAP_REASONS = ("per_target_cap", "per_article_cap")


#: The field every record the judge answered for carries.
JUDGED_FIELD = "judge_status"


def reaches_closed_book(record: Mapping[str, Any], *, judged: bool = False) -> bool:
    """A question, or a candidate rejected only by a cap (:data:`CAP_REASONS`); with ``judged`` (the questions
    were kept by the judge), a capped candidate only if the judge answered for it too (it kept it, and a cap
    rejected it after): a candidate the build capped and the judge never saw is not asked about."""
    reason = record.get("reason")
    if reason is None:
        return True
    return reason in CAP_REASONS and (not judged or JUDGED_FIELD in record)


def closed_book_candidates(records: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The records the closed-book test asks about (:func:`reaches_closed_book`), from the questions followed by
    the rejected records (the order of :func:`~chemref.questions.judge.prepare.read_records`): the questions say
    whether the set was judged."""
    judged = False
    for record in records:
        if record.get("reason") is None and JUDGED_FIELD in record:
            judged = True
        if reaches_closed_book(record, judged=judged):
            yield record


def sample_id(record_id: str, sample: int) -> str:
    """The ``custom_id`` of sample ``sample`` (from 1) of the question ``record_id``: ``ID#sample``."""
    return f"{record_id}#{sample}"


def split_sample_id(custom_id: str) -> tuple[str, int] | None:
    """``(record id, sample)`` of a ``custom_id`` written by :func:`sample_id`, None for any other."""
    ident, hash_, number = custom_id.rpartition("#")
    if not hash_ or not ident or not number.isascii() or not number.isdigit() or number.startswith("0") \
            or len(number) > 6:
        return None
    return ident, int(number)


def _check(model: str, samples: int, temperature: float) -> None:
    if not model:
        raise ValueError("a model name is required")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 100:
        raise ValueError(f"samples must be an integer from 1 to 100, got {samples!r}")
    if not (isinstance(temperature, (int, float)) and math.isfinite(temperature) and 0 < temperature <= 2):
        raise ValueError(f"the temperature must be above 0 and at most 2, got {temperature!r}")


def prepare_requests(records: Iterable[Mapping[str, Any]], *, model: str, samples: int = DEFAULT_SAMPLES,
                     temperature: float = DEFAULT_TEMPERATURE, version: str = CLOSED_BOOK_PROMPT_VERSION,
                     max_tokens: int = DEFAULT_MAX_TOKENS, json_mode: bool = True) -> Iterator[dict[str, Any]]:
    """``samples`` Batch request lines per record, asking ``model`` at ``temperature`` to name the cited work
    from the excerpt alone (the prompt shows nothing else)."""
    _check(model, samples, temperature)
    prompt = load_prompt(version)
    for record in records:
        messages = prompt.render(record)
        for sample in range(1, samples + 1):
            body: dict[str, Any] = {"model": model, "temperature": temperature, "max_tokens": max_tokens,
                                    "messages": messages}
            if json_mode:
                body["response_format"] = {"type": "json_object"}
            yield {"custom_id": sample_id(record["id"], sample), "method": "POST", "url": CHAT_COMPLETIONS_URL,
                   "body": body}


def write_requests(path: str | os.PathLike[str], records: Iterable[Mapping[str, Any]], *, model: str,
                   samples: int = DEFAULT_SAMPLES, temperature: float = DEFAULT_TEMPERATURE,
                   version: str = CLOSED_BOOK_PROMPT_VERSION, max_tokens: int = DEFAULT_MAX_TOKENS,
                   json_mode: bool = True) -> int:
    """Write the requests for ``records`` to ``path`` as JSON Lines, atomically; returns how many."""
    _check(model, samples, temperature)
    return write_jsonl(path, prepare_requests(records, model=model, samples=samples, temperature=temperature,
                                              version=version, max_tokens=max_tokens, json_mode=json_mode))
