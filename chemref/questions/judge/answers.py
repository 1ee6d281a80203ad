"""The judge's answers, read strictly from a Batch output file (what ``judge run`` writes, or a hosted batch).

Each response line is one of these kinds (:data:`ANSWER_KINDS`); only ``ok`` carries an answer, and only an
``ok`` answer can keep its candidate:

- ``http_error``: an error object, or a status other than 200, or a body that is not a chat completion;
- ``refused``: the message has a ``refusal``, or the finish reason is ``content_filter``;
- ``truncated``: the finish reason is ``length`` (the answer was cut at ``max_tokens``);
- ``not_json``: the content is not one JSON object (one ````` ```json ````` fenced block around it is accepted),
  or a string in it holds a lone surrogate (``\\ud800``: not a character);
- ``schema``: the object has other keys than the six, a key twice, or a value of the wrong type or outside
  its values.

``missing`` (a candidate without a response line) and ``stale`` (a request whose question changed since) are
decided by :mod:`chemref.questions.judge.apply`. A file that is not JSON Lines, a line that is not a Batch
output line, or a ``custom_id`` answered twice is an :class:`~chemref.errors.InputError` (exit 2).
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from chemref._io.limits import json_depth_problem
from chemref._io.secrets import scrub
from chemref.errors import InputError, printable
from chemref.jsonl import DuplicateKey, lone_surrogate, read_jsonl, unique_keys

__all__ = ["ANSWER_KINDS", "ANSWER_KEYS", "Answer", "json_object", "parse_content", "completion", "classify",
           "read_responses", "check_model_name"]

#: Every kind of answer, in report order.
ANSWER_KINDS = ("ok", "missing", "stale", "http_error", "refused", "truncated", "not_json", "schema")
#: The keys of the answer object, exactly.
ANSWER_KEYS = ("good_question", "author_named", "function", "sentence_ok", "note", "confidence")
_FENCE = re.compile(r"\A```(?:json|JSON)?[ \t]*\n(.*)\n[ \t]*```\Z", re.DOTALL)
_RESPONSES_HINT = "expected the OpenAI Batch output format: one {id, custom_id, response, error} object per line"


@dataclass(frozen=True, slots=True)
class Answer:
    """One candidate's answer: ``kind`` (:data:`ANSWER_KINDS`), the six fields when ``ok``, the model that
    answered (from the response body) and, when not ``ok``, what was wrong (``detail``)."""

    kind: str
    good_question: bool | None = None
    author_named: bool | None = None
    function: str | None = None
    sentence_ok: bool | None = None
    note: str | None = None
    confidence: float | None = None
    model: str | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.kind == "ok"

    def keeps(self, min_confidence: float) -> bool:
        """The judge calls the candidate good: a good question, no author named, a claim, a sound sentence,
        and a confidence of at least ``min_confidence``."""
        return (self.kind == "ok" and self.good_question is True and self.author_named is False
                and self.function == "CLAIM" and self.sentence_ok is True
                and self.confidence is not None and self.confidence >= min_confidence)


def _bad(kind: str, detail: str, model: str | None = None) -> Answer:
    return Answer(kind, model=model, detail=scrub(detail))  # it is written (judge_note), so without secrets


def json_object(content: Any, keys: Sequence[str]) -> dict[str, Any] | tuple[str, str]:
    """The JSON object in an assistant message's ``content`` with exactly ``keys``, or ``(kind, detail)``:
    ``not_json`` (empty, not one object, nested too deep, a lone surrogate) or ``schema`` (a key twice, missing or extra)."""
    if not isinstance(content, str) or not content.strip():
        return "not_json", "the answer is empty"
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    problem = json_depth_problem(text)
    if problem is not None:
        return "not_json", f"the answer is not one JSON object ({problem})"
    try:
        value = json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        return "schema", f"the key {exc.args[0][:40]!r} is given twice"
    except (ValueError, RecursionError) as exc:
        return "not_json", f"the answer is not one JSON object ({getattr(exc, 'msg', exc)})"
    if not isinstance(value, dict):
        return "not_json", f"the answer is a JSON {type(value).__name__}, not an object"
    surrogate = lone_surrogate(text, value)
    if surrogate is not None:
        return "not_json", f"the answer holds {surrogate}, a lone surrogate (not a character)"
    given = set(value)
    if given != set(keys):
        extra = sorted(given - set(keys))
        missing = [k for k in keys if k not in given]
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"extra {', '.join(extra)}"] if extra else [])
        return "schema", "; ".join(parts)[:300]
    return value


def parse_content(content: Any, model: str | None = None) -> Answer:
    """The answer in an assistant message's ``content``: ``ok``, ``not_json`` or ``schema``."""
    value = json_object(content, ANSWER_KEYS)
    if isinstance(value, tuple):
        return _bad(*value, model)
    good = value["good_question"]
    if good is not None and not isinstance(good, bool):
        return _bad("schema", f"good_question must be true, false or null, got {good!r}", model)
    for name in ("author_named", "sentence_ok"):
        if not isinstance(value[name], bool):
            return _bad("schema", f"{name} must be true or false, got {value[name]!r}", model)
    if value["function"] not in ("CLAIM", "PASSING"):
        return _bad("schema", f"function must be CLAIM or PASSING, got {value['function']!r}", model)
    if not isinstance(value["note"], str):
        return _bad("schema", f"note must be a string, got {value['note']!r}", model)
    confidence = value["confidence"]
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not math.isfinite(confidence) \
            or not 0.0 <= confidence <= 1.0:
        return _bad("schema", f"confidence must be a number from 0 to 1, got {confidence!r}", model)
    return Answer("ok", good, value["author_named"], value["function"], value["sentence_ok"], scrub(value["note"]),
                  float(confidence), model)


def completion(row: Mapping[str, Any]) -> tuple[Any, str | None, tuple[str, str] | None]:
    """``(content, model, None)`` for a Batch output line that holds a chat completion's message, else
    ``(None, model, (kind, detail))`` with the kind ``http_error``, ``refused`` or ``truncated``."""
    error = row.get("error")
    response = row.get("response")
    if error is not None:
        if isinstance(error, dict):
            detail = f"{error.get('code') or 'error'}: {error.get('message') or ''}".rstrip(": ")
        else:
            detail = str(error)
        return None, None, ("http_error", scrub(detail)[:300])  # scrubbed before it is cut: no piece of a key left
    if not isinstance(response, dict):
        return None, None, ("http_error", "no response and no error")
    status = response.get("status_code")
    body = response.get("body")
    if status != 200:
        message = body.get("error", {}).get("message") if isinstance(body, dict) and isinstance(
            body.get("error"), dict) else None
        return None, None, ("http_error", f"HTTP {status}" + (f": {message}" if message else ""))
    if not isinstance(body, dict):
        return None, None, ("http_error", "the response body is not a JSON object")
    model = body.get("model") if isinstance(body.get("model"), str) else None
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict) \
            or not isinstance(choices[0].get("message"), dict):
        return None, model, ("http_error", "the response body is not a chat completion (no choices[0].message)")
    choice = choices[0]
    message = choice["message"]
    finish = choice.get("finish_reason")
    refusal = message.get("refusal")
    if (isinstance(refusal, str) and refusal.strip()) or finish == "content_filter":
        return None, model, ("refused", scrub(refusal if isinstance(refusal, str) and refusal.strip()
                                               else "finish_reason content_filter")[:300])
    if finish == "length":
        return None, model, ("truncated", "finish_reason length: the answer was cut at max_tokens")
    return message.get("content"), model, None


def classify(row: Mapping[str, Any]) -> Answer:
    """The answer of one Batch output line (already known to have a ``custom_id``)."""
    content, model, bad = completion(row)
    if bad is not None:
        return _bad(*bad, model)
    return parse_content(content, model)


def read_responses(path: str | os.PathLike[str],
                   classify: Callable[[Mapping[str, Any]], Any] = classify) -> dict[str, tuple[int, Any]]:
    """``custom_id -> (line, answer)`` for every line of a Batch output file (``classify`` reads each line's
    answer: the judge's by default); a line that is no Batch output line, or an id answered twice, is an
    :class:`InputError` naming the file and the line."""
    where = os.fspath(path)
    answers: dict[str, tuple[int, Any]] = {}
    for number, row in read_jsonl(where, unique=True):
        ident = row.get("custom_id")
        if not isinstance(ident, str) or not ident:
            raise InputError(f"custom_id must be a non-empty string, got {ident!r}", path=where, line=number,
                             hint=_RESPONSES_HINT)
        if "response" not in row and "error" not in row:
            raise InputError("neither response nor error", path=where, line=number, hint=_RESPONSES_HINT)
        if ident in answers:
            raise InputError(f"custom_id {ident!r} is answered twice (first on line {answers[ident][0]})",
                             path=where, line=number, hint="keep one response line per request (a resumed "
                             "'judge run' does; join files of several runs without repeating an id)")
        answer = classify(row)
        if answer.model is not None:
            check_model_name(answer.model, path=where, line=number, what="response.body.model")
        answers[ident] = (number, answer)
    return answers


#: the longest model name accepted from a file (a name longer than this is no model's name)
MAX_MODEL_NAME = 200


def check_model_name(name: str, *, path: str | None = None, line: int | None = None, what: str = "model") -> str:
    """``name`` when it can be shown as a model's name (in a summary line, a record and the dataset card): one
    line of printable text without backticks, at most :data:`MAX_MODEL_NAME` characters; else an
    :class:`InputError` naming the file and the line (a name from a file is untrusted, like ``--names``)."""
    if not name.strip() or len(name) > MAX_MODEL_NAME or not name.isprintable() or "`" in name:
        raise InputError(f"the {what} '{printable(name[:60])}' is no model name (it must be one line of "
                         f"printable text without backticks, at most {MAX_MODEL_NAME} characters)",
                         path=path, line=line, hint=("give the name the server knows" if path is None else
                                                     "fix the file: the name would forge lines in the summary "
                                                     "and the dataset card"))
    return name
