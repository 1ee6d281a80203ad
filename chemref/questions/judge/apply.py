"""``chemref questions judge apply``: the judge's answers joined to the candidates, and the questions it keeps.

Every candidate gets the judge's fields (``judge_good_question``, ``judge_author_named``, ``judge_function``,
``judge_sentence_ok``, ``judge_note``, ``judge_confidence``, ``judge_model``, ``judge_prompt``,
``judge_status``: the answer's kind, :data:`~chemref.questions.judge.answers.ANSWER_KINDS`). A candidate is
kept when its answer is ``ok`` and says good question, no author named, CLAIM, sentence ok, with a confidence
of at least ``min_confidence``; the per-target and per-article caps of the build are then applied again
(:func:`chemref.questions.funnel.filters.per_target_cap`, :func:`~chemref.questions.funnel.filters.per_article_cap`),
ranking by the judge's confidence, then the selector score. Every other candidate is rejected with its
``reason``: ``judge_unanswered`` (no ``ok`` answer: missing, stale, an HTTP error, refused, truncated, not JSON,
wrong schema), ``judge`` (the judge said no), or a cap. Records that were not candidates keep their reasons
(a question of the build that was not sent to the judge becomes a ``min_score`` rejection: it was below the
threshold the judge's candidates were chosen at).

The candidates are the requests' ids when the requests file is given (then a candidate without an answer is
``missing``, and a request whose user message differs from the one rendered from the current record is
``stale``), else the build's questions and every record that has a response.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from chemref._io.outputs import check_distinct_outputs, check_not_input
from chemref.errors import InputError
from chemref.jsonl import read_jsonl, write_jsonl
from chemref.questions.funnel.filters import (
    DESCRIPTIONS,
    REASONS,
    SELECTOR_STAGES,
)
from chemref.questions.funnel.settings import BuildSettings, build_default
from chemref.questions.judge.answers import Answer, read_responses
from chemref.questions.judge.client import read_requests
from chemref.questions.judge.prepare import reaches_judge
from chemref.questions.judge.prompt import PROMPT_VERSION, render_messages
from chemref.questions.judge.stage import (
    AnswerTally,
    build_setting,
    card_settings,
    card_totals,
    join_records,
    most_common,
    read_build_report,
    settle,
    user_message,
    write_stage_report,
)
from chemref.questions.output.card import card_path, write_card

__all__ = ["JUDGE_FIELDS", "JUDGE_REASONS", "JudgeSummary", "Judged", "apply_judgement", "judged_funnel",
           "DEFAULT_MIN_CONFIDENCE"]

#: The fields the judge adds to a candidate record, in output order.
JUDGE_FIELDS = ("judge_good_question", "judge_author_named", "judge_function", "judge_sentence_ok", "judge_note",
                "judge_confidence", "judge_model", "judge_prompt", "judge_status")
#: The funnel steps of the judge, in order (the caps follow them again).
JUDGE_REASONS = ("judge_unanswered", "judge")
JUDGE_DESCRIPTIONS = {
    "judge_unanswered": "the judge gave no usable answer (missing, stale, HTTP error, refused, truncated, not "
                        "JSON or wrong schema)",
    "judge": "the judge calls it a good question, no author named, a claim, the sentence sound, with confidence "
             "at least --min-confidence",
}
#: What each of :data:`JUDGE_FIELDS` holds (for the dataset card).
JUDGE_FIELD_DOCS = {
    "judge_good_question": "the judge's answer: could an expert find the one cited work from the excerpt "
                           "(null: undecided or no usable answer)",
    "judge_author_named": "the judge's answer: does the excerpt name an author of the cited work",
    "judge_function": "the judge's answer: CLAIM or PASSING (the work cited for something merely used)",
    "judge_sentence_ok": "the judge's answer: is the excerpt one sound, complete sentence",
    "judge_note": "the judge's few words of reason (or, without a usable answer, what was wrong with it)",
    "judge_confidence": "the judge's probability (0–1) that it is a good question",
    "judge_model": "the model that answered",
    "judge_prompt": "the version of the judge's prompt (chemref.questions.judge.prompt)",
    "judge_status": "the kind of answer: ok, missing, stale, http_error, refused, truncated, not_json or schema",
}
#: The confidence a kept answer needs by default.
DEFAULT_MIN_CONFIDENCE = 0.5
_VERSION_LINE = re.compile(r"\Achemref question judge, prompt ([\w.+-]{1,40})(?!\S)")


@dataclass(frozen=True, slots=True)
class JudgeSummary:
    """Counts of one ``apply``: ``kinds`` counts the candidates per answer kind; ``requests`` is the number of
    requests made (responses given), ``requests_per_kept`` the cost of one kept question."""

    model: str | None
    prompt: str | None
    min_confidence: float
    candidates: int
    kinds: Mapping[str, int]
    judge_rejected: int
    judge_kept: int
    per_target_cap: int
    per_article_cap: int
    questions: int
    requests: int
    not_sent: int = 0
    requests_per_kept: float | None = None
    #: answers for records that an earlier filter rejects, or that no request asks for (they decide nothing)
    unused_answers: int = 0

    def to_dict(self) -> dict[str, Any]:
        row = asdict(self)
        row["kinds"] = dict(self.kinds)
        return row

    def to_text(self) -> str:
        kinds = ", ".join(f"{kind} {n}" for kind, n in self.kinds.items() if n)
        cost = "-" if self.requests_per_kept is None else f"{self.requests_per_kept:.2f}"
        return (f"judge {self.model or '?'} (prompt {self.prompt or '?'}, min confidence {self.min_confidence:g}): "
                f"{self.candidates} candidates ({kinds}); {self.judge_rejected} judged not good, "
                f"{self.judge_kept} kept by the judge, {self.per_target_cap} + {self.per_article_cap} capped "
                f"(per target + per article): {self.questions} questions; {self.requests} requests, "
                f"{cost} per kept question"
                + (f"; {self.unused_answers} answer(s) for records no request asks for or an earlier filter "
                   "rejects, not used" if self.unused_answers else ""))


@dataclass(frozen=True)
class Judged:
    """The result of :func:`apply_judgement`: the kept questions, every other record (with ``reason``), in
    document order, and the counts."""

    questions: tuple[dict[str, Any], ...]
    rejected: tuple[dict[str, Any], ...]
    summary: JudgeSummary
    reasons: Mapping[str, int] = field(default_factory=dict)


def _prompt_of(request: Any) -> str | None:
    messages = request.body.get("messages") if request is not None else None
    if isinstance(messages, list) and messages and isinstance(messages[0], dict):
        match = _VERSION_LINE.match(str(messages[0].get("content") or ""))
        if match:
            return match.group(1)
    return None


def _is_stale(request: Any, record: Mapping[str, Any], version: str | None) -> bool:
    """The request was rendered from another text of the record (or from a prompt this chemref lacks)."""
    if version is None:
        return True
    try:
        current = render_messages(record, version)
    except KeyError:
        return True
    return user_message(request.body.get("messages")) != user_message(current)


def _requests_by_id(requests: Sequence[Any] | None, records: Mapping[str, Any],
                    requests_path: str | None) -> dict[str, Any] | None:
    """The requests by custom_id (None without a requests file); a request for no record is an error."""
    if requests is None:
        return None
    for r in requests:
        if r.custom_id not in records:
            raise InputError(f"requests custom_id {r.custom_id!r}, which is no record of the questions or the "
                             "rejected file", path=requests_path, line=r.line,
                             hint="give the files the requests were prepared from (--rejected too)")
    return {r.custom_id: r for r in requests}


def _check_answer_ids(answers: Mapping[str, tuple[int, Answer]], records: Mapping[str, Any],
                      responses_path: str | None) -> None:
    for ident, (line, _) in answers.items():
        if ident not in records:
            raise InputError(f"unknown custom_id {ident!r}: no record of the questions or the rejected file",
                             path=responses_path, line=line,
                             hint="give the requests and the files the responses were made for")


def _judge_candidates(records: Mapping[str, dict[str, Any]], everything: Sequence[dict[str, Any]],
                      answers: Mapping[str, Any], by_request: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The records the judge decides: the requests' (those that still reach the judge), else the questions and
    every record with an answer that reaches it."""
    if by_request is not None:
        return [records[i] for i in by_request if reaches_judge(records[i])]
    return [row for row in everything if "reason" not in row or (reaches_judge(row) and row["id"] in answers)]


def _judged_answer(row: Mapping[str, Any], answers: Mapping[str, tuple[int, Answer]],
                   request: Any) -> tuple[Answer, str | None, str | None]:
    """``(answer, prompt version, model)`` of one candidate: a missing answer when there is none, a stale one
    when its request was rendered from another text of the record."""
    ident = row["id"]
    version = _prompt_of(request) if request is not None else PROMPT_VERSION
    answer = answers[ident][1] if ident in answers else Answer("missing", detail="no response line")
    if request is not None and ident in answers and _is_stale(request, row, version):
        answer = Answer("stale", model=answer.model, detail="the question changed since the request was "
                                                            "prepared")
    model = answer.model or (request.body.get("model") if request is not None else None)
    return answer, version, model


def _judge_fields(answer: Answer, model: str | None, version: str | None) -> dict[str, Any]:
    """:data:`JUDGE_FIELDS` of a candidate from its answer."""
    return {
        "judge_good_question": answer.good_question, "judge_author_named": answer.author_named,
        "judge_function": answer.function, "judge_sentence_ok": answer.sentence_ok,
        "judge_note": answer.note if answer.ok else answer.detail, "judge_confidence": answer.confidence,
        "judge_model": model, "judge_prompt": version, "judge_status": answer.kind}


def _mark_not_sent(everything: Sequence[dict[str, Any]], candidates: Sequence[Mapping[str, Any]]) -> int:
    """A question of the build the judge never saw is not kept: rejected at ``min_score``. How many."""
    candidate_ids = {row["id"] for row in candidates}
    not_sent = 0
    for row in everything:
        if row["id"] not in candidate_ids and "reason" not in row:
            row["reason"] = "min_score"
            not_sent += 1
    return not_sent


def apply_judgement(questions: Iterable[Mapping[str, Any]], answers: Mapping[str, tuple[int, Answer]], *,
                    rejected: Iterable[Mapping[str, Any]] = (), requests: Sequence[Any] | None = None,
                    min_confidence: float = DEFAULT_MIN_CONFIDENCE, per_target: int = build_default("per_target"),
                    per_article: int = build_default("per_article"), seed: int = build_default("seed"),
                    responses_path: str | None = None,
                    requests_path: str | None = None) -> Judged:
    """Join ``answers`` (:func:`~chemref.questions.judge.answers.read_responses`) to the records and keep what
    the judge calls good (see the module). A response for an id that is no record (or, with ``requests``, no
    request), a request for an id that is no record, or an id in two records is an :class:`InputError`."""
    if not 0.0 <= min_confidence <= 1.0:
        raise InputError(f"min_confidence must be between 0 and 1, got {min_confidence}")
    settings = BuildSettings(per_article=per_article, per_target=per_target, seed=seed, min_score=0.0)
    records, everything = join_records(questions, rejected)
    by_request = _requests_by_id(requests, records, requests_path)
    _check_answer_ids(answers, records, responses_path)
    candidates = _judge_candidates(records, everything, answers, by_request)
    # answers for candidates that a filter before the selector now rejects (a rebuild with other filters), or that
    # no request asks for (a cascade that starts higher than the one answered), decide nothing
    unused = sum(1 for ident in answers if not reaches_judge(records[ident])
                 or (by_request is not None and ident not in by_request))
    tally = AnswerTally()
    kept: list[dict[str, Any]] = []
    judge_rejected = 0
    for row in candidates:
        request = by_request.get(row["id"]) if by_request is not None else None
        answer, version, model = _judged_answer(row, answers, request)
        tally.add(answer.kind, model, version)
        row.update(_judge_fields(answer, model, version))
        if answer.keeps(min_confidence):
            row.pop("reason", None)
            kept.append(row)
        else:
            if answer.ok:
                judge_rejected += 1
            row["reason"] = "judge" if answer.ok else "judge_unanswered"
    not_sent = _mark_not_sent(everything, candidates)
    settled = settle(kept, everything, settings)
    requests_made = len(by_request) if by_request is not None else len(answers)
    final = settled.questions
    summary = JudgeSummary(
        model=most_common(tally.models), prompt=most_common(tally.prompts),
        min_confidence=min_confidence, candidates=len(candidates), kinds=tally.kinds, judge_rejected=judge_rejected,
        judge_kept=len(kept), per_target_cap=settled.capped_target, per_article_cap=settled.capped_article,
        questions=len(final), requests=requests_made, not_sent=not_sent, unused_answers=unused,
        requests_per_kept=round(requests_made / len(final), 3) if final else None)
    return Judged(final, settled.others, summary, settled.reasons)


def judged_funnel(judged: Judged, base_funnel: Sequence[Mapping[str, Any]] | None = None,
                  candidates: int | None = None) -> list[dict[str, Any]]:
    """The funnel after the judge: ``[{filter, rejected, remaining, description}]``: the build's steps before
    the selector (the build's ``base_funnel`` rows when given, else counted from the records' reasons), then
    ``min_score`` (passed those steps but not sent to the judge), the judge's two steps and the caps applied
    again; the last ``remaining`` is the number of questions."""
    s = judged.summary
    known = {row["filter"]: int(row["rejected"]) for row in base_funnel or ()}
    counts = known if base_funnel is not None else dict(judged.reasons)
    total = candidates if candidates is not None else len(judged.questions) + len(judged.rejected)
    steps = [(reason, counts.get(reason, 0)) for reason in REASONS if reason not in SELECTOR_STAGES]
    passed = total - sum(n for _, n in steps)
    steps += [("min_score", passed - s.candidates),
              ("judge_unanswered", s.candidates - s.kinds.get("ok", 0)), ("judge", s.judge_rejected),
              ("per_target_cap", s.per_target_cap), ("per_article_cap", s.per_article_cap)]
    rows = []
    remaining = total
    for reason, n in steps:
        remaining -= n
        rows.append({"filter": reason, "rejected": n, "remaining": remaining,
                     "description": JUDGE_DESCRIPTIONS.get(reason) or DESCRIPTIONS.get(reason, "")})
    return rows


@dataclass(frozen=True)
class JudgeOutputs:
    """What :func:`apply_to_files` wrote (None: not written)."""

    judged: Judged
    funnel: list[dict[str, Any]]
    output: str
    rejected: str | None
    report: str | None
    card: str | None


def apply_to_files(questions: str, responses: str, output: str, *, rejected: str | None = None,
                   requests: str | None = None, min_confidence: float = DEFAULT_MIN_CONFIDENCE,
                   rejected_out: str | None = None, report: str | None = None, per_target: int | None = None,
                   per_article: int | None = None, seed: int | None = None,
                   build_report: str | None = None, supersedes: bool = False) -> JudgeOutputs:
    """Read the build's files and the responses, :func:`apply_judgement`, and write the judged questions (and
    ``rejected_out``) atomically. When the build's ``report.json`` is beside ``questions``, its caps and seed are
    the defaults, the judged report (the build's with the judge's funnel and a ``judge`` entry) is written to
    ``report`` (default ``<output stem>.report.json``) and a dataset card beside ``output`` (``build_report``
    names the build's report when it is elsewhere; ``supersedes``: the judged questions take the place of
    ``questions``, whose card beside them they may replace)."""

    base_path, base = read_build_report(questions, build_report)
    settings = (base or {}).get("settings") or {}
    if base is not None and report is None:
        report = str(Path(output).with_name(f"{Path(output).stem}.report.json"))

    # before any work: no output may overwrite another, the dataset card included
    card_target = card_path(output, also=questions if supersedes else None) if base is not None else None
    targets = {"output (-o)": output, "rejected output (--rejected-out)": rejected_out, "report": report,
               "dataset card": card_target}
    check_distinct_outputs(targets)

    read = [path for path in (questions, responses, rejected, requests, base_path) if path is not None]
    for label, target in targets.items():  # the build's report it reads included
        check_not_input(target, read, label=label)

    def setting(value: int | None, name: str, default: int) -> int:
        return build_setting(settings, value, name, default)

    answers = read_responses(responses)
    request_list = read_requests(requests) if requests is not None else None
    judged = apply_judgement(
        (row for _, row in read_jsonl(questions)), answers,
        rejected=(row for _, row in read_jsonl(rejected)) if rejected is not None else (),
        requests=request_list, min_confidence=min_confidence, per_target=setting(per_target, "per_target", 1),
        per_article=setting(per_article, "per_article", 4), seed=setting(seed, "seed", 0),
        responses_path=responses, requests_path=requests)
    funnel = judged_funnel(judged, base.get("funnel") if base else None,
                           int(base["candidates"]) if base else None)
    write_jsonl(output, judged.questions)
    if rejected_out is not None:
        write_jsonl(rejected_out, judged.rejected)
    card = None
    summary = judged.summary.to_dict()
    if report is not None:
        write_stage_report(report, base, len(judged.questions), funnel, {
            "judge": summary, "judged_from": {"questions": questions, "responses": responses, "report": base_path}})
    if base is not None:
        card = str(write_card(card_totals(judged.questions, base, funnel), output,
                              settings=card_settings(settings, base_path),
                              path=card_target, judge={**summary, "descriptions": JUDGE_DESCRIPTIONS,
                                                       "fields": JUDGE_FIELD_DOCS}))
    return JudgeOutputs(judged, funnel, output, rejected_out, report, card)


