"""``chemref questions closed-book apply``: the closed-book answers joined to the questions, and those kept.

Each sample's answer is read strictly (:mod:`chemref.questions.closed_book.answers`) and matched to the question's
cited work by the stage's one rule (:func:`chemref.questions.closed_book.recall.names_cited_work`: the DOI or PMID
after normalisation, the title at ``title_threshold``, or the first author's surname with the year unless
``author_year`` is off). Every record asked about gets :data:`CLOSED_BOOK_FIELDS`.
A question is:

- **recalled** when any sample names its cited work (CiteME's rule): rejected with the reason ``closed_book``, or
  kept and flagged with ``keep_recalled``;
- **unanswered** when no sample names it and at least one sample has no usable answer (missing, stale, an HTTP
  error, refused, truncated, not JSON, wrong schema; or no request at all): held back with the reason
  ``closed_book_unanswered`` (``unanswered="keep"`` keeps it, flagged by ``closed_book_status``): a sample never
  answered might have recalled it;
- otherwise **not recalled**, and kept.

The per-target and per-article caps of the build are then applied again
(:func:`chemref.questions.judge.apply.apply_caps`) to the kept questions and the candidates that a cap had
rejected and that were asked about too, so that an article's slots go to questions that stay (when the questions
are the judge's, only a candidate the judge kept before a cap rejected it:
:func:`~chemref.questions.closed_book.prepare.reaches_closed_book`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from chemref._io.outputs import check_distinct_outputs
from chemref.errors import InputError
from chemref.jsonl import read_jsonl, write_jsonl
from chemref.questions.closed_book.answers import Recollection, read_recollections
from chemref.questions.closed_book.defaults import AUTHOR_YEAR
from chemref.questions.closed_book.prepare import (
    CAP_REASONS,
    JUDGED_FIELD,
    TITLE_THRESHOLD,
    reaches_closed_book,
    split_sample_id,
)
from chemref.questions.closed_book.recall import MATCH_KINDS, names_cited_work
from chemref.questions.funnel.filters import DESCRIPTIONS, REASONS
from chemref.questions.funnel.settings import BuildSettings
from chemref.questions.judge.apply import JUDGE_DESCRIPTIONS, JUDGE_FIELD_DOCS, JUDGE_REASONS
from chemref.questions.judge.client import read_requests
from chemref.questions.judge.prompt import CLOSED_BOOK_PROMPT_VERSION, prompt_version, render_messages
from chemref.questions.judge.stage import (
    AnswerTally,
    Settled,
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
from chemref.scoring.benchmarks.citation_prediction import gold_question

__all__ = ["CLOSED_BOOK_FIELDS", "CLOSED_BOOK_REASONS", "CLOSED_BOOK_DESCRIPTIONS", "CLOSED_BOOK_FIELD_DOCS",
           "UNANSWERED_POLICIES", "ClosedBookSummary", "ClosedBook", "apply_closed_book", "closed_book_funnel",
           "apply_to_files", "ClosedBookOutputs"]

#: The fields the closed-book test adds to every record it asks about, in output order.
CLOSED_BOOK_FIELDS = ("closed_book_hits", "closed_book_samples", "closed_book_answered", "closed_book_match",
                      "closed_book_model", "closed_book_prompt", "closed_book_status")
#: The funnel steps of the closed-book test, in order (the caps follow them again).
CLOSED_BOOK_REASONS = ("closed_book_unanswered", "closed_book")
#: What to do with a question some sample of which has no usable answer.
UNANSWERED_POLICIES = ("hold", "keep")
CLOSED_BOOK_DESCRIPTIONS = {
    "closed_book_unanswered": "the closed-book test has no usable answer for some sample (missing, stale, HTTP "
                              "error, refused, truncated, not JSON or wrong schema) and no sample recalls the "
                              "cited work: held back, not counted as not recalled",
    "closed_book": "a model names the cited work from the excerpt alone, from memory, in some sample (DOI, PMID or "
                   "title): the question measures recall, not finding",
}
#: What each of :data:`CLOSED_BOOK_FIELDS` holds (for the dataset card).
CLOSED_BOOK_FIELD_DOCS = {
    "closed_book_hits": "closed-book samples whose answer names the cited work (0: not recalled)",
    "closed_book_samples": "closed-book samples asked for this question",
    "closed_book_answered": "closed-book samples with a usable answer",
    "closed_book_match": "how the first recalling answer matched: doi, pmid or title (null: none did)",
    "closed_book_model": "the model that answered the closed-book test",
    "closed_book_prompt": "the version of the closed-book prompt (chemref.questions.judge.prompt)",
    "closed_book_status": "ok when every sample has a usable answer, else the first failing kind (missing, "
                          "stale, http_error, refused, truncated, not_json, schema)",
}


@dataclass(frozen=True, slots=True)
class ClosedBookSummary:
    """Counts of one ``apply``: ``kinds`` counts the samples per answer kind, ``matches`` the recalled questions
    per way of matching; ``requests`` is the number of requests made (without a requests file: the answers for
    the records asked about)."""
    model: str | None
    prompt: str | None
    samples: int | None
    temperature: float | None
    title_threshold: float
    author_year: bool
    keep_recalled: bool
    unanswered: str
    candidates: int
    requests: int
    kinds: Mapping[str, int]
    recalled: int
    not_recalled: int
    unanswered_questions: int
    matches: Mapping[str, int]
    dropped: int
    held: int
    kept_before_caps: int
    per_target_cap: int
    per_article_cap: int
    questions: int
    recalled_share: float | None = None
    removed_share: float | None = None
    requests_per_kept: float | None = None
    #: answers that no request asks for, or for records the test does not ask about (they decide nothing)
    unused_answers: int = 0

    def to_dict(self) -> dict[str, Any]:
        row = asdict(self)
        row["kinds"] = dict(self.kinds)
        row["matches"] = dict(self.matches)
        return row

    def to_text(self) -> str:
        kinds = ", ".join(f"{kind} {n}" for kind, n in self.kinds.items() if n) or "none"
        share = "" if self.recalled_share is None else f" ({self.recalled_share:.1%} of those answered)"
        fate = "kept and flagged" if self.keep_recalled else "dropped"
        cost = "no question kept" if self.requests_per_kept is None else \
            f"{self.requests_per_kept} requests per kept question"
        return (f"closed-book apply: {self.candidates} questions asked, {self.requests} requests (model "
                f"{self.model or 'unknown'}, prompt {self.prompt or 'unknown'}; answers: {kinds}); recalled "
                f"{self.recalled}{share}, {fate}; unanswered {self.unanswered_questions} "
                f"({'kept' if self.unanswered == 'keep' else 'held back'}); not recalled {self.not_recalled}; "
                f"caps again: {self.per_target_cap} per target, {self.per_article_cap} per article; "
                f"{self.questions} questions; {cost}")


@dataclass(frozen=True)
class ClosedBook:
    """The result of :func:`apply_closed_book`: the kept questions, every other record (with ``reason``), in
    document order, and the counts."""
    questions: tuple[dict[str, Any], ...]
    rejected: tuple[dict[str, Any], ...]
    summary: ClosedBookSummary
    reasons: Mapping[str, int] = field(default_factory=dict)
    #: how many of the records asked about had each reason before the test (a cap, or None: a question)
    prior: Mapping[str | None, int] = field(default_factory=dict)


def _request_samples(requests: Sequence[Any], records: Mapping[str, Any],
                     requests_path: str | None) -> dict[str, list[str]]:

    samples: dict[str, list[str]] = {}
    for request in requests:
        split = split_sample_id(request.custom_id)
        if split is None:
            raise InputError(f"custom_id {request.custom_id!r} is not a closed-book sample id (ID#1 ... ID#K)",
                             path=requests_path, line=request.line,
                             hint="give the requests of 'closed-book prepare' (not the judge's)")
        if split[0] not in records:
            raise InputError(f"requests custom_id {request.custom_id!r}, whose question is no record of the "
                             "questions or the rejected file", path=requests_path, line=request.line,
                             hint="give the files the requests were prepared from (--rejected too)")
        samples.setdefault(split[0], []).append(request.custom_id)
    return samples


def _stale(request: Any, record: Mapping[str, Any]) -> tuple[bool, str | None]:
    """``(stale, version)``: the request was rendered from another excerpt (or from a prompt this chemref lacks)."""
    version = prompt_version(request.body.get("messages"), "closed-book")
    if version is None:
        return True, None
    try:
        current = render_messages(record, version)
    except KeyError:
        return True, version
    return user_message(request.body.get("messages")) != user_message(current), version


class _SampleTally(AnswerTally):
    """The samples' answers counted (:class:`~chemref.questions.judge.apply.AnswerTally`), with the temperatures
    of their requests and the number of samples asked per question."""

    def __init__(self) -> None:
        super().__init__()
        self.temperatures: dict[float, int] = {}
        self.samples: dict[int, int] = {}

    def temperature(self, value: Any) -> None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.temperatures[float(value)] = self.temperatures.get(float(value), 0) + 1


@dataclass
class _Decisions:
    """How the test decided the records asked about, counted."""

    recalled: int = 0
    not_recalled: int = 0
    unanswered: int = 0
    dropped: int = 0
    held: int = 0
    matches: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MATCH_KINDS, 0))


def _checked_threshold(title_threshold: float | None, unanswered: str) -> float:
    threshold = TITLE_THRESHOLD if title_threshold is None else title_threshold
    if not 0.0 < threshold <= 1.0:
        raise InputError(f"the title threshold must be above 0 and at most 1, got {threshold}")
    if unanswered not in UNANSWERED_POLICIES:
        raise InputError(f"unanswered must be one of {', '.join(UNANSWERED_POLICIES)}, got {unanswered!r}")
    return threshold


def _answered_samples(answers: Mapping[str, tuple[int, Recollection]], records: Mapping[str, Any],
                      responses_path: str | None) -> dict[str, list[str]]:
    """The answered sample ids of each record, in sample order; an answer for no sample of a record is an error."""
    answered: dict[str, list[tuple[int, str]]] = {}
    for ident, (line, _) in answers.items():
        split = split_sample_id(ident)
        if split is None or split[0] not in records:
            raise InputError(f"unknown custom_id {ident!r}: no sample (ID#k) of a record of the questions or the "
                             "rejected file", path=responses_path, line=line,
                             hint="give the requests and the files the responses were made for")
        answered.setdefault(split[0], []).append((split[1], ident))
    return {ident: [sid for _, sid in sorted(ids)] for ident, ids in answered.items()}


def _sample_answer(sid: str, row: Mapping[str, Any], answers: Mapping[str, tuple[int, Recollection]],
                   request: Any, tally: _SampleTally) -> tuple[Recollection, str | None, str | None]:
    """``(answer, model, prompt version)`` of one sample, counted in ``tally``: a missing answer when there is
    none, a stale one when its request was rendered from another excerpt."""
    answer = answers[sid][1] if sid in answers else Recollection("missing", detail="no response line")
    version: str | None = CLOSED_BOOK_PROMPT_VERSION
    if request is not None:
        stale, version = _stale(request, row)
        if sid in answers and stale:
            answer = Recollection("stale", model=answer.model,
                                  detail="the question changed since the request was prepared")
        tally.temperature(request.body.get("temperature"))
    name = answer.model or (request.body.get("model") if request is not None else None)
    tally.add(answer.kind, name, version)
    return answer, name, version


def _recollection_fields(row: Mapping[str, Any], asked: Sequence[str],
                         answers: Mapping[str, tuple[int, Recollection]], by_request: Mapping[str, Any] | None,
                         threshold: float, author_year: bool, tally: _SampleTally) -> dict[str, Any]:
    """:data:`CLOSED_BOOK_FIELDS` of one record from the answers to its samples ``asked``."""
    gold = gold_question(row)
    hits = good = 0
    first_match = model = prompt = None
    status = "ok"
    for sid in asked:
        request = by_request.get(sid) if by_request is not None else None
        answer, name, version = _sample_answer(sid, row, answers, request, tally)
        if name:
            model = model or name
        if version:
            prompt = prompt or version
        if not answer.ok:
            if status == "ok":
                status = answer.kind
            continue
        good += 1
        hit = names_cited_work(row, gold, answer, title_threshold=threshold, author_year=author_year)
        if hit is not None:
            hits += 1
            first_match = first_match or hit
    if not asked:
        status = "missing"
    return {"closed_book_hits": hits, "closed_book_samples": len(asked), "closed_book_answered": good,
            "closed_book_match": first_match, "closed_book_model": model, "closed_book_prompt": prompt,
            "closed_book_status": status}


def _decide(row: dict[str, Any], keep_recalled: bool, unanswered: str, decisions: _Decisions) -> bool:
    """Whether the test keeps ``row`` (else its ``reason`` says why not), counted in ``decisions``."""
    if row["closed_book_match"] is not None:
        decisions.recalled += 1
        decisions.matches[row["closed_book_match"]] += 1
        if not keep_recalled:
            row["reason"] = "closed_book"
            decisions.dropped += 1
            return False
    elif row["closed_book_status"] != "ok":
        decisions.unanswered += 1
        if unanswered == "hold":
            row["reason"] = "closed_book_unanswered"
            decisions.held += 1
            return False
    else:
        decisions.not_recalled += 1
    row.pop("reason", None)
    return True


def apply_closed_book(questions: Iterable[Mapping[str, Any]],
                      answers: Mapping[str, tuple[int, Recollection]], *,
                      rejected: Iterable[Mapping[str, Any]] = (), requests: Sequence[Any] | None = None,
                      keep_recalled: bool = False, unanswered: str = "hold",
                      title_threshold: float | None = None, author_year: bool = AUTHOR_YEAR,
                      per_target: int = 1, per_article: int = 4,
                      seed: int = 0, responses_path: str | None = None,
                      requests_path: str | None = None) -> ClosedBook:
    """Join ``answers`` (:func:`~chemref.questions.closed_book.answers.read_recollections`) to the records and
    keep what is not recalled (see the module). An answer or a request whose id is no ``ID#k`` of a record, or
    an id in two records, is an :class:`InputError`."""
    threshold = _checked_threshold(title_threshold, unanswered)
    settings = BuildSettings(per_article=per_article, per_target=per_target, seed=seed, min_score=0.0)
    records, everything = join_records(questions, rejected)
    by_request = {r.custom_id: r for r in requests} if requests is not None else None
    answered = _answered_samples(answers, records, responses_path)
    samples = _request_samples(requests or (), records, requests_path) if by_request is not None else answered
    judged = any(JUDGED_FIELD in row for row in everything if "reason" not in row)
    candidates = [row for row in everything if "reason" not in row
                  or (reaches_closed_book(row, judged=judged) and row["id"] in samples)]
    used: set[str] = set()
    tally = _SampleTally()
    decisions = _Decisions()
    prior: dict[str | None, int] = {}
    kept: list[dict[str, Any]] = []
    for row in candidates:
        prior[row.get("reason")] = prior.get(row.get("reason"), 0) + 1
        asked = samples.get(row["id"], [])
        used.update(asked)
        tally.samples[len(asked)] = tally.samples.get(len(asked), 0) + 1
        row.update(_recollection_fields(row, asked, answers, by_request, threshold, author_year, tally))
        if _decide(row, keep_recalled, unanswered, decisions):
            kept.append(row)
    settled = settle(kept, everything, settings)
    # answers for records the test does not ask about, or that no request asks for, decide nothing
    unused = sum(1 for ident in answers if ident not in used)
    requests_made = len(by_request) if by_request is not None else len(answers) - unused
    summary = _summary(tally, decisions, settled, threshold=threshold, author_year=author_year,
                       keep_recalled=keep_recalled,
                       unanswered=unanswered, candidates=len(candidates), kept=len(kept),
                       requests_made=requests_made, unused=unused)
    return ClosedBook(settled.questions, settled.others, summary, settled.reasons, prior)


def _summary(tally: _SampleTally, decisions: _Decisions, settled: Settled, *, threshold: float,
             author_year: bool, keep_recalled: bool, unanswered: str, candidates: int, kept: int,
             requests_made: int, unused: int) -> ClosedBookSummary:
    final = settled.questions
    decided = decisions.recalled + decisions.not_recalled
    return ClosedBookSummary(
        model=most_common(tally.models), prompt=most_common(tally.prompts), samples=most_common(tally.samples),
        temperature=most_common(tally.temperatures),
        title_threshold=threshold, author_year=author_year, keep_recalled=keep_recalled, unanswered=unanswered,
        candidates=candidates, requests=requests_made, kinds=tally.kinds, recalled=decisions.recalled,
        not_recalled=decisions.not_recalled, unanswered_questions=decisions.unanswered, matches=decisions.matches,
        dropped=decisions.dropped, held=decisions.held, kept_before_caps=kept,
        per_target_cap=settled.capped_target, per_article_cap=settled.capped_article,
        questions=len(final), recalled_share=round(decisions.recalled / decided, 4) if decided else None,
        removed_share=round((decisions.dropped + decisions.held) / candidates, 4) if candidates else None,
        requests_per_kept=round(requests_made / len(final), 3) if final else None, unused_answers=unused)


def closed_book_funnel(result: ClosedBook, base_funnel: Sequence[Mapping[str, Any]] | None = None,
                       candidates: int | None = None) -> list[dict[str, Any]]:
    """The funnel after the closed-book test: ``[{filter, rejected, remaining, description}]``: the steps before
    the caps (the ``base_funnel`` rows of the build or the judge when given, else counted from the records'
    reasons), the test's two steps, then the caps applied again (the records a cap had rejected and that were
    not asked about keep their cap); the last ``remaining`` is the number of questions."""
    s = result.summary
    total = candidates if candidates is not None else len(result.questions) + len(result.rejected)
    steps, caps = (_steps_of_funnel(base_funnel, result) if base_funnel is not None else
                   _steps_of_reasons(result))
    steps += [("closed_book_unanswered", s.held), ("closed_book", s.dropped),
              ("per_target_cap", caps["per_target_cap"] + s.per_target_cap),
              ("per_article_cap", caps["per_article_cap"] + s.per_article_cap)]
    rows = []
    remaining = total
    for reason, n in steps:
        remaining -= n
        rows.append({"filter": reason, "rejected": n, "remaining": remaining,
                     "description": CLOSED_BOOK_DESCRIPTIONS.get(reason) or JUDGE_DESCRIPTIONS.get(reason)
                     or DESCRIPTIONS.get(reason, "")})
    return rows


def _steps_of_funnel(base_funnel: Sequence[Mapping[str, Any]], result: ClosedBook
                     ) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The steps before the caps, from the rows of the build's (or the judge's) funnel, and what each cap
    removed of the records the test did not ask about."""
    steps = [(str(row["filter"]), int(row["rejected"])) for row in base_funnel
             if row["filter"] not in CAP_REASONS and row["filter"] not in CLOSED_BOOK_REASONS]
    base_caps = {reason: sum(int(row["rejected"]) for row in base_funnel if row["filter"] == reason)
                 for reason in CAP_REASONS}
    return steps, {reason: base_caps[reason] - result.prior.get(reason, 0) for reason in CAP_REASONS}


def _steps_of_reasons(result: ClosedBook) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The steps before the caps counted from the records' reasons (funnel order, then any other reason), and
    what each cap removed before the test."""
    s = result.summary
    order = [r for r in REASONS if r not in CAP_REASONS] + list(JUDGE_REASONS)
    order += sorted(r for r in result.reasons if r not in order and r not in CAP_REASONS
                    and r not in CLOSED_BOOK_REASONS)
    steps = [(reason, result.reasons.get(reason, 0)) for reason in order if reason in result.reasons]
    again = {"per_target_cap": s.per_target_cap, "per_article_cap": s.per_article_cap}
    return steps, {reason: result.reasons.get(reason, 0) - again[reason] for reason in CAP_REASONS}


@dataclass(frozen=True)
class ClosedBookOutputs:
    """What :func:`apply_to_files` wrote (None: not written)."""
    result: ClosedBook
    funnel: list[dict[str, Any]]
    output: str
    rejected: str | None
    report: str | None
    card: str | None


def apply_to_files(questions: str, responses: str, output: str, *, rejected: str | None = None,
                   requests: str | None = None, keep_recalled: bool = False, unanswered: str = "hold",
                   title_threshold: float | None = None, author_year: bool = AUTHOR_YEAR,
                   rejected_out: str | None = None, report: str | None = None, per_target: int | None = None,
                   per_article: int | None = None,
                   seed: int | None = None, build_report: str | None = None,
                   supersedes: bool = False) -> ClosedBookOutputs:
    """Read the questions (and ``rejected``), the responses (and ``requests``), :func:`apply_closed_book`, and
    write the kept questions (and ``rejected_out``) atomically. When the report of the build (or of ``judge
    apply``) is beside ``questions`` (``report.json``, or ``<stem>.report.json``; ``build_report`` names it when
    it is elsewhere), its caps and seed are the defaults, the report after the test is written to ``report``
    (default ``<output stem>.report.json``) and a dataset card beside ``output`` (``supersedes``: the kept
    questions take the place of ``questions``, whose card beside them they may replace)."""

    given = build_report
    if given is None:
        stem_report = Path(questions).with_name(f"{Path(questions).stem}.report.json")
        given = str(stem_report) if stem_report.is_file() else None
    base_path, base = read_build_report(questions, given)
    settings = (base or {}).get("settings") or {}
    if base is not None and report is None:
        report = str(Path(output).with_name(f"{Path(output).stem}.report.json"))
    card_target = card_path(output, also=questions if supersedes else None) if base is not None else None
    check_distinct_outputs({"output (-o)": output, "rejected output (--rejected-out)": rejected_out,
                            "report": report, "dataset card": card_target})

    answers = read_recollections(responses)
    request_list = read_requests(requests) if requests is not None else None
    result = apply_closed_book(
        (row for _, row in read_jsonl(questions)), answers,
        rejected=(row for _, row in read_jsonl(rejected)) if rejected is not None else (),
        requests=request_list, keep_recalled=keep_recalled, unanswered=unanswered,
        title_threshold=title_threshold, author_year=author_year,
        per_target=build_setting(settings, per_target, "per_target", 1),
        per_article=build_setting(settings, per_article, "per_article", 4),
        seed=build_setting(settings, seed, "seed", 0), responses_path=responses, requests_path=requests)
    funnel = closed_book_funnel(result, base.get("funnel") if base else None,
                                int(base["candidates"]) if base else None)
    write_jsonl(output, result.questions)
    if rejected_out is not None:
        write_jsonl(rejected_out, result.rejected)
    summary = result.summary.to_dict()
    if report is not None:
        write_stage_report(report, base, len(result.questions), funnel, {
            "closed_book": summary,
            "closed_book_from": {"questions": questions, "responses": responses, "report": base_path}})
    card = None
    if base is not None:

        judge = base.get("judge")
        card = str(write_card(
            card_totals(result.questions, base, funnel),
            output, settings=card_settings(settings, base_path), path=card_target,
            judge={**judge, "descriptions": JUDGE_DESCRIPTIONS, "fields": JUDGE_FIELD_DOCS}
            if isinstance(judge, dict) else None,
            closed_book={**summary, "descriptions": CLOSED_BOOK_DESCRIPTIONS, "fields": CLOSED_BOOK_FIELD_DOCS}))
    return ClosedBookOutputs(result, funnel, output, rejected_out, report, card)
