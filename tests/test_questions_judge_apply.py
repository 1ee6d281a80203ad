"""The judge's requests (golden), the strict answer parser on every kind of answer, and ``judge apply`` /
``questions evaluate`` on the stored responses in tests/data/judge (made-up records; numbers checked by hand,
see make_data.py there)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chemref.cli import main
from chemref.errors import InputError
from chemref.questions.labels.evaluate import evaluate
from chemref.scoring.stats.agreement import cohen_kappa
from chemref.questions.judge.answers import classify, parse_content, read_responses
from chemref.questions.judge.apply import apply_judgement, judged_funnel
from chemref.questions.judge.client import read_requests
from chemref.questions.judge.prepare import prepare_requests
from chemref.questions.labels.label import read_labels

DATA = Path(__file__).parent / "data" / "judge"
OK = {"good_question": True, "author_named": False, "function": "CLAIM", "sentence_ok": True, "note": "x",
      "confidence": 0.9}


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_request_format_golden():
    record = _rows(DATA / "questions.jsonl")[0]
    assert list(prepare_requests([record], model="golden-model")) == _rows(DATA / "requests_golden.jsonl")
    request = _rows(DATA / "requests_golden.jsonl")[0]
    assert list(request) == ["custom_id", "method", "url", "body"]
    assert request["body"]["messages"][0]["content"].splitlines()[0] == "chemref question judge, prompt judge-v1"
    assert request["body"]["temperature"] == 0 and request["body"]["response_format"] == {"type": "json_object"}


def _completion(content, finish="stop", refusal=None, status=200, error=None):
    message = {"role": "assistant", "content": content}
    if refusal is not None:
        message["refusal"] = refusal
    body = {"model": "m", "choices": [{"index": 0, "finish_reason": finish, "message": message}]}
    return {"custom_id": "x", "response": None if error else {"status_code": status, "body": body}, "error": error}


@pytest.mark.parametrize("row, kind", [
    (_completion(json.dumps(OK)), "ok"),
    (_completion("```json\n" + json.dumps(OK) + "\n```"), "ok"),
    (_completion("```\n" + json.dumps(OK) + "\n```"), "ok"),
    (_completion(json.dumps({**OK, "good_question": None})), "ok"),
    (_completion(json.dumps({**OK, "confidence": 1})), "ok"),
    (_completion(None, error=None, status=500), "http_error"),
    (_completion(None, error={"code": "timeout", "message": "slow"}), "http_error"),
    ({"custom_id": "x", "response": {"status_code": 200, "body": {"object": "list"}}, "error": None}, "http_error"),
    ({"custom_id": "x", "response": {"status_code": 200, "body": "text"}, "error": None}, "http_error"),
    (_completion(None, refusal="I cannot help"), "refused"),
    (_completion("", finish="content_filter"), "refused"),
    (_completion('{"good_question": tr', finish="length"), "truncated"),
    (_completion("Yes, a good question."), "not_json"),
    (_completion(""), "not_json"),
    (_completion(None), "not_json"),
    (_completion("[1, 2]"), "not_json"),
    (_completion(json.dumps(OK) + " and more"), "not_json"),
    (_completion("```json\n" + json.dumps(OK) + "\n```\n```json\n{}\n```"), "not_json"),
    (_completion(json.dumps({**OK, "extra": 1})), "schema"),
    (_completion(json.dumps({k: v for k, v in OK.items() if k != "note"})), "schema"),
    (_completion(json.dumps({**OK, "good_question": "yes"})), "schema"),
    (_completion(json.dumps({**OK, "author_named": None})), "schema"),
    (_completion(json.dumps({**OK, "function": "claim"})), "schema"),
    (_completion(json.dumps({**OK, "sentence_ok": 1})), "schema"),
    (_completion(json.dumps({**OK, "note": None})), "schema"),
    (_completion(json.dumps({**OK, "confidence": 1.5})), "schema"),
    (_completion(json.dumps({**OK, "confidence": True})), "schema"),
    (_completion(json.dumps({**OK, "confidence": "0.9"})), "schema"),
    (_completion('{"good_question": true, "author_named": false, "function": "CLAIM", "sentence_ok": true, '
                 '"note": "x", "confidence": NaN}'), "schema"),
])
def test_every_answer_kind(row, kind):
    assert classify(row).kind == kind


def test_ok_answer_fields_and_the_keep_rule():
    answer = parse_content(json.dumps(OK), "m")
    assert (answer.good_question, answer.confidence, answer.model) == (True, 0.9, "m")
    assert answer.keeps(0.5) and not answer.keeps(0.95)
    for change in ({"good_question": None}, {"author_named": True}, {"function": "PASSING"}, {"sentence_ok": False}):
        assert not parse_content(json.dumps({**OK, **change})).keeps(0.0)


@pytest.mark.parametrize("text, message", [
    ('{"custom_id": "a", "response": null, "error": null}\n{"custom_id": "a", "error": {"code": "x"}}\n',
     "answered twice"),
    ('{"response": null, "error": null}\n', "custom_id must be"),
    ('{"custom_id": "a"}\n', "neither response nor error"),
    ('{"custom_id": "a", "response": null, "error"\n', "not valid JSON"),
])
def test_invalid_responses_files_are_errors(tmp_path, text, message):
    path = tmp_path / "responses.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_responses(path)


def _apply(**options):
    return apply_judgement(_rows(DATA / "questions.jsonl"), read_responses(DATA / "responses.jsonl"),
                           rejected=_rows(DATA / "rejected.jsonl"), requests=read_requests(DATA / "requests.jsonl"),
                           **options)


def test_apply_on_the_stored_responses():
    judged = _apply()
    s = judged.summary
    assert dict(s.kinds) == {"ok": 9, "missing": 1, "stale": 1, "http_error": 1, "refused": 1, "truncated": 1,
                             "not_json": 1, "schema": 1}
    assert (s.candidates, s.judge_rejected, s.judge_kept, s.per_target_cap, s.per_article_cap, s.questions) == \
        (16, 4, 5, 1, 0, 4)
    assert (s.model, s.prompt, s.requests, s.requests_per_kept) == ("judge-model", "judge-v1", 16, 4.0)
    assert [q["id"] for q in judged.questions] == ["artA-p1-s1", "artA-p3-s1", "artA-p6-s1", "artB-p8-s1"]
    reasons = {r["id"]: r["reason"] for r in judged.rejected}
    assert reasons == {
        "artA-p1-s2": "judge", "artA-p2-s1": "per_target_cap", "artA-p4-s1": "judge", "artA-p5-s1": "length",
        "artB-p1-s1": "judge_unanswered", "artB-p1-s2": "judge_unanswered", "artB-p2-s1": "judge",
        "artB-p3-s1": "judge_unanswered", "artB-p4-s1": "judge_unanswered", "artB-p5-s1": "judge_unanswered",
        "artB-p6-s1": "judge_unanswered", "artB-p7-s1": "judge", "artB-p9-s1": "judge_unanswered"}
    status = {r["id"]: r.get("judge_status") for r in [*judged.questions, *judged.rejected]}
    assert status["artB-p9-s1"] == "stale" and status["artB-p1-s2"] == "missing" and status["artA-p5-s1"] is None
    first = judged.questions[0]
    assert {k: first[k] for k in first if k.startswith("judge_")} == {
        "judge_good_question": True, "judge_author_named": False, "judge_function": "CLAIM",
        "judge_sentence_ok": True, "judge_note": "specific finding", "judge_confidence": 0.9,
        "judge_model": "judge-model", "judge_prompt": "judge-v1", "judge_status": "ok"}
    funnel = {row["filter"]: (row["rejected"], row["remaining"]) for row in judged_funnel(judged)}
    assert funnel["length"] == (1, 16) and funnel["min_score"] == (0, 16)
    assert funnel["judge_unanswered"] == (7, 9) and funnel["judge"] == (4, 5)
    assert funnel["per_target_cap"] == (1, 4) and funnel["per_article_cap"] == (0, 4)


def test_apply_caps_again_ranked_by_confidence():
    judged = _apply(per_article=2)
    assert [q["id"] for q in judged.questions] == ["artA-p1-s1", "artA-p3-s1", "artB-p8-s1"]
    assert {r["id"]: r["reason"] for r in judged.rejected}["artA-p6-s1"] == "per_article_cap"
    stricter = _apply(min_confidence=0.92)
    assert [q["id"] for q in stricter.questions] == ["artA-p3-s1"]


def test_apply_without_requests_takes_questions_and_answered_records():
    judged = apply_judgement(_rows(DATA / "questions.jsonl"), read_responses(DATA / "responses.jsonl"),
                             rejected=_rows(DATA / "rejected.jsonl"))
    s = judged.summary
    assert s.kinds["stale"] == 0 and s.kinds["missing"] == 1 and s.candidates == 16
    assert "artB-p9-s1" in [q["id"] for q in judged.questions]  # without the requests it cannot be seen as stale


def test_answers_for_candidates_an_earlier_filter_rejects_decide_nothing():
    """Responses kept from an earlier build still apply when a filter before the selector now rejects some of
    their candidates: those answers are counted, never used to keep the candidate."""
    rejected = _rows(DATA / "rejected.jsonl")
    questions = _rows(DATA / "questions.jsonl")
    moved = questions.pop(0)  # artA-p1-s1, a kept question the judge calls good, now rejected for its length
    rejected.append({**moved, "reason": "length"})
    for requests in (None, read_requests(DATA / "requests.jsonl")):
        judged = apply_judgement(questions, read_responses(DATA / "responses.jsonl"), rejected=rejected,
                                 requests=requests)
        assert moved["id"] not in [q["id"] for q in judged.questions]
        assert {r["id"]: r["reason"] for r in judged.rejected}[moved["id"]] == "length"
        assert judged.summary.unused_answers == 1 and judged.summary.candidates == 15


def test_evaluate_a_judged_build(tmp_path):
    judged = _apply()
    result = evaluate(read_labels(DATA / "labels.jsonl"), judged.questions, judged.rejected)
    k, j = result.kept, result.judge
    assert (k.labelled, k.good, k.good_share) == (4, 3, 0.75)
    assert (j.reached, j.reached_good, j.answered_ok, j.kept, j.kept_good) == (10, 6, 9, 4, 3)
    assert (j.good_kept_share, j.kept_by_judge_good, j.good_kept_by_judge_share) == (0.5, 4, 0.6667)
    agreement = {a.field: (a.n, a.agree, a.raw, a.kappa) for a in j.agreement}
    assert agreement == {"good_question": (9, 6, 0.6667, 0.2703), "author_named": (9, 9, 1.0, 1.0),
                         "function": (9, 8, 0.8889, 0.6087), "sentence_ok": (9, 9, 1.0, None)}
    assert (j.model, j.prompt) == ("judge-model", "judge-v1")
    assert result.to_dict()["judge"]["agreement"][0]["kappa"] == 0.2703
    assert "good_question       9       6   0.667   0.270" in result.to_text()
    assert evaluate(read_labels(DATA / "labels.jsonl"), _rows(DATA / "questions.jsonl"),
                    _rows(DATA / "rejected.jsonl")).judge is None


def test_cohen_kappa():
    assert cohen_kappa([(1, 1), (1, 1), (0, 0), (0, 1)]) == 0.5
    assert cohen_kappa([(1, 1), (1, 1)]) is None and cohen_kappa([]) is None
    assert cohen_kappa([(1, 0), (0, 1)]) == -1.0


def _cli_files(tmp_path: Path) -> Path:
    build = tmp_path / "build"
    build.mkdir()
    for name in ("questions.jsonl", "rejected.jsonl", "responses.jsonl", "requests.jsonl", "labels.jsonl"):
        shutil.copy(DATA / name, build / name)
    return build


def test_apply_and_evaluate_from_the_command_line(tmp_path, capsys):
    b = _cli_files(tmp_path)
    status = main(["questions", "judge", "apply", str(b / "questions.jsonl"), str(b / "responses.jsonl"),
                   "--rejected", str(b / "rejected.jsonl"), "--requests", str(b / "requests.jsonl"),
                   "-o", str(b / "judged.jsonl"), "--rejected-out", str(b / "judged_rejected.jsonl"),
                   "--report", str(b / "judged.report.json")])
    out = capsys.readouterr().out
    assert status == 0 and "4 questions" in out and "4.00 per kept question" in out
    assert len(_rows(b / "judged.jsonl")) == 4 and len(_rows(b / "judged_rejected.jsonl")) == 13
    report = json.loads((b / "judged.report.json").read_text())
    assert report["judge"]["requests_per_kept"] == 4.0 and report["funnel"][-1]["remaining"] == 4
    assert main(["questions", "evaluate", str(b / "labels.jsonl"), "--questions", str(b / "judged.jsonl"),
                 "--rejected", str(b / "judged_rejected.jsonl"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["judge"]["good_kept_share"] == 0.5 and data["kept"]["good_share"] == 0.75


def test_apply_beside_a_build_report_writes_the_judged_report_and_card(tmp_path, capsys):
    b = _cli_files(tmp_path)
    funnel = [{"filter": "length", "rejected": 1, "remaining": 16}]
    (b / "report.json").write_text(json.dumps({
        "settings": {"per_article": 4, "per_target": 1, "seed": 0, "min_score": 0.0, "min_chars": 120,
                     "max_chars": 600, "authors": "drop", "min_findability": None, "answer_key": "doi",
                     "selector": None},
        "articles": 2, "articles_read": 2, "articles_skipped": {}, "candidates": 17, "questions": 5,
        "funnel": funnel, "per_article": [], "errors": []}))
    assert main(["questions", "judge", "apply", str(b / "questions.jsonl"), str(b / "responses.jsonl"),
                 "--rejected", str(b / "rejected.jsonl"), "--requests", str(b / "requests.jsonl"),
                 "-o", str(b / "judged.jsonl")]) == 0
    report = json.loads((b / "judged.report.json").read_text())
    rows = {r["filter"]: r["remaining"] for r in report["funnel"]}
    assert rows["length"] == 16 and rows["judge"] == 5 and rows["per_article_cap"] == 4
    card = (b / "README.md").read_text()
    assert "## Judge" in card and "`judge-model`, prompt `judge-v1`" in card and "4.0 requests per kept" in card
    assert "| judge | 4 | 5 |" in card and "path: judged.jsonl" in card
    from chemref.questions.judge.apply import JUDGE_FIELD_DOCS, JUDGE_FIELDS

    assert tuple(JUDGE_FIELD_DOCS) == JUDGE_FIELDS and all(f"| `{name}` |" in card for name in JUDGE_FIELDS)


@pytest.mark.parametrize("change, message", [
    ("unknown", "unknown custom_id 'nobody'"),
    ("duplicate", "answered twice"),
    ("not_jsonl", "not valid JSON"),
])
def test_apply_bad_responses_are_one_line_errors_exit_2(tmp_path, capsys, change, message):
    b = _cli_files(tmp_path)
    responses = b / "responses.jsonl"
    lines = responses.read_text().splitlines()
    if change == "unknown":
        lines.append(json.dumps({"custom_id": "nobody", "response": None, "error": {"code": "x"}}))
    elif change == "duplicate":
        lines.append(lines[0])
    else:
        lines.append("{oops")
    responses.write_text("\n".join(lines) + "\n")
    status = main(["questions", "judge", "apply", str(b / "questions.jsonl"), str(responses), "--rejected",
                   str(b / "rejected.jsonl"), "-o", str(b / "judged.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err
    assert not (b / "judged.jsonl").exists()


def test_prepare_from_the_command_line(tmp_path, capsys):
    b = _cli_files(tmp_path)
    out = b / "requests_new.jsonl"
    assert main(["questions", "judge", "prepare", str(b / "questions.jsonl"), "--rejected", str(b / "rejected.jsonl"),
                 "--min-score", "0.5", "--model", "judge-model", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    ids = [r["custom_id"] for r in _rows(out)]
    assert ids == ["artA-p1-s1", "artA-p1-s2", "artA-p2-s1", "artB-p1-s1", "artB-p1-s2", "artA-p3-s1",
                   "artA-p6-s1", "artB-p2-s1", "artB-p7-s1", "artB-p8-s1", "artB-p9-s1"]
    assert "11 requests from 17 records" in printed and "5 below --min-score 0.5" in printed
    assert main(["questions", "judge", "prepare", str(b / "questions.jsonl"), "--model", "m", "-o", str(out)]) == 0
    assert len(_rows(out)) == 5


def test_prepare_starts_the_cascade_at_the_selectors_judge_threshold(tmp_path, capsys):
    import json as _json

    b = _cli_files(tmp_path)
    weights = _json.loads((Path(__file__).parents[1] / "chemref" / "questions" / "data" / "selector.json").read_text())
    weights["meta"]["judge_threshold"] = 0.5
    selector = tmp_path / "selector.json"
    selector.write_text(_json.dumps(weights), encoding="utf-8")
    out = b / "requests_cascade.jsonl"
    assert main(["questions", "judge", "prepare", str(b / "questions.jsonl"), "--rejected", str(b / "rejected.jsonl"),
                 "--selector", str(selector), "--model", "judge-model", "-o", str(out)]) == 0
    assert "5 below --min-score 0.5" in capsys.readouterr().out and len(_rows(out)) == 11
    del weights["meta"]["judge_threshold"]  # a selector without one sends every candidate
    selector.write_text(_json.dumps(weights), encoding="utf-8")
    assert main(["questions", "judge", "prepare", str(b / "questions.jsonl"), "--rejected", str(b / "rejected.jsonl"),
                 "--selector", str(selector), "--model", "judge-model", "-o", str(out)]) == 0
    assert len(_rows(out)) == 16


def test_a_request_for_no_record_is_an_error(tmp_path):
    b = _cli_files(tmp_path)
    requests = b / "requests.jsonl"
    row = _rows(requests)[0]
    with requests.open("a") as handle:
        handle.write(json.dumps({**row, "custom_id": "nobody"}) + "\n")
    with pytest.raises(InputError, match="requests custom_id 'nobody'"):
        apply_judgement(_rows(b / "questions.jsonl"), read_responses(b / "responses.jsonl"),
                        rejected=_rows(b / "rejected.jsonl"), requests=read_requests(requests))


def test_a_question_changed_since_its_request_is_stale_and_never_kept():
    questions = _rows(DATA / "questions.jsonl")
    questions[0] = {**questions[0], "excerpt": "A rewritten excerpt [CITATION]."}
    judged = apply_judgement(questions, read_responses(DATA / "responses.jsonl"),
                             rejected=_rows(DATA / "rejected.jsonl"), requests=read_requests(DATA / "requests.jsonl"))
    assert judged.summary.kinds["stale"] == 2
    assert "artA-p1-s1" not in [q["id"] for q in judged.questions]
    assert {r["id"]: r["judge_status"] for r in judged.rejected if r.get("judge_status")}["artA-p1-s1"] == "stale"


def test_a_record_twice_is_an_error():
    questions = _rows(DATA / "questions.jsonl")
    with pytest.raises(InputError, match="in two records"):
        apply_judgement(questions + questions[:1], {})


def test_answers_no_request_asks_for_are_counted_not_errors():
    """Answers kept from a wider cascade apply to the requests of a narrower one."""
    requests = [r for r in read_requests(DATA / "requests.jsonl") if r.custom_id != "artA-p1-s1"]
    judged = apply_judgement(_rows(DATA / "questions.jsonl"), read_responses(DATA / "responses.jsonl"),
                             rejected=_rows(DATA / "rejected.jsonl"), requests=requests)
    assert judged.summary.unused_answers == 1 and "artA-p1-s1" not in [q["id"] for q in judged.questions]


def test_the_judged_sets_card_is_where_hugging_face_reads_it(tmp_path, capsys):
    """Beside the build's own card the judged set's card cannot be README.md, and the command says so; in a
    folder of its own (as the docs show it) the card is README.md."""
    from tests.helpers import CORPORA, ROOT

    b = tmp_path / "judged"
    assert main(["questions", "build", str(CORPORA / "jats"), "-o", str(b / "questions.jsonl"), "--rejected",
                 str(b / "rejected.jsonl"), "--report", str(b / "report.json"), "--min-score", "0",
                 "--no-progress"]) == 0
    assert main(["questions", "judge", "prepare", str(b / "questions.jsonl"), "--rejected", str(b / "rejected.jsonl"),
                 "--model", "my-model", "-o", str(b / "requests.jsonl")]) == 0
    common = ["questions", "judge", "apply", str(b / "questions.jsonl"),
              str(ROOT / "corpora" / "judge" / "sample_responses.jsonl"), "--rejected", str(b / "rejected.jsonl"),
              "--requests", str(b / "requests.jsonl")]
    capsys.readouterr()
    assert main([*common, "-o", str(b / "judged.jsonl")]) == 0
    out = capsys.readouterr().out
    assert (b / "judged.README.md").is_file() and "Hugging Face reads a dataset's card from README.md" in out
    assert main([*common, "-o", str(b / "final" / "questions.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "## Judge" in (b / "final" / "README.md").read_text(encoding="utf-8") and "Hugging Face" not in out
