"""The closed-book test: ``questions closed-book prepare | run | apply`` and ``build --closed-book-samples``.

Made-up records (the dev requests are checked in test_questions_closed_book_leak.py); the HTTP faults come from
the judge's test server (tests/judge_server.py), through the judge's runner, which both stages share.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chemref.cli import main
from chemref.errors import InputError
from chemref.questions.closed_book.answers import classify_recollection, parse_recollection, read_recollections
from chemref.questions.closed_book.apply import apply_closed_book, closed_book_funnel
from chemref.questions.closed_book.prepare import prepare_requests, split_sample_id
from chemref.questions.judge.client import read_requests
from chemref.scoring.benchmarks.citation_prediction import answer_hit, gold_question

sys.path.insert(0, str(Path(__file__).parent))
from judge_server import JudgeServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NONE = {"title": None, "first_author": None, "year": None, "doi": None}
TITLE = "Photocatalytic water oxidation on cobalt oxide clusters at neutral pH"


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def record(ident: str, *, title: str = TITLE, doi: str | None = "10.1000/cobalt.1", pmid: str | None = None,
           score: float = 0.8, reason: str | None = None, ref: str = "r1", excerpt: str | None = None) -> dict:
    row = {"id": ident, "excerpt": excerpt or f"Cobalt oxide clusters oxidise water at pH 7 ({ident}) [CITATION].",
           "sentence": "Cobalt oxide clusters oxidise water at pH 7 (Smith, 2009).", "citation_start": 0,
           "citation_end": 0, "citation_text": "(Smith, 2009)", "target_doi": doi, "target_pmid": pmid,
           "target_title": title, "target_authors": ["Smith", "Jones"], "target_year": 2009,
           "target_container": "J. Test", "target_type": "journal", "source_file": "a.nxml", "source_pmcid": None,
           "source_doi": "10.1000/source", "source_license": "http://creativecommons.org/licenses/by/4.0/",
           "ref_id": ref, "section": "introduction", "findability": 0.5, "score": score}
    if reason is not None:
        row["reason"] = reason
    return row


def line(custom_id: str, answer: dict | str | None = None, *, finish: str = "stop", status: int = 200,
         error: dict | None = None, model: str = "recall-model") -> dict:
    content = answer if isinstance(answer, str) or answer is None else json.dumps(answer)
    body = {"model": model, "choices": [{"index": 0, "finish_reason": finish,
                                         "message": {"role": "assistant", "content": content}}]}
    return {"id": "batch_req_1", "custom_id": custom_id,
            "response": None if error else {"status_code": status, "body": body}, "error": error}


# ------------------------------------------------------------------------------------------------ prepare


def test_prepare_writes_k_requests_per_question_at_a_temperature_above_zero():
    requests = list(prepare_requests([record("a-p1-s1"), record("a-p2-s1")], model="m", samples=3))
    assert [r["custom_id"] for r in requests] == ["a-p1-s1#1", "a-p1-s1#2", "a-p1-s1#3", "a-p2-s1#1",
                                                  "a-p2-s1#2", "a-p2-s1#3"]
    body = requests[0]["body"]
    assert list(requests[0]) == ["custom_id", "method", "url", "body"]
    assert body["temperature"] == 1.0 and body["response_format"] == {"type": "json_object"}
    assert body["messages"][0]["content"].splitlines()[0] == "chemref closed-book recall, prompt closed-book-v1"
    assert body["messages"][1]["content"].startswith("Sentence: Cobalt oxide clusters")
    with pytest.raises(ValueError, match="temperature"):
        list(prepare_requests([record("a-p1-s1")], model="m", temperature=0))


@pytest.mark.parametrize("custom_id, expected", [
    ("a-p1-s1#1", ("a-p1-s1", 1)), ("x#y-p1-s1#12", ("x#y-p1-s1", 12)), ("a-p1-s1", None), ("a#0", None),
    ("a#01", None), ("#1", None), ("a#١", None), ("a#-1", None)])
def test_sample_ids(custom_id, expected):
    assert split_sample_id(custom_id) == expected


def test_a_prompt_that_would_show_the_cited_work_is_refused():
    from chemref.questions.judge.prompt import _parse

    doc = {"version": "closed-book-v1", "system": ["chemref closed-book recall, prompt closed-book-v1"],
           "user": ["{excerpt} {title}"], "max_authors": 1, "unknown": "?"}
    with pytest.raises(ValueError, match="may not show"):
        _parse(doc, "x.json")


def test_prepare_cli_asks_about_questions_and_capped_candidates(tmp_path, capsys):
    questions = _write(tmp_path / "q.jsonl", [record("a-p1-s1")])
    rejected = _write(tmp_path / "r.jsonl", [record("a-p2-s1", reason="per_article_cap"),
                                              record("a-p3-s1", reason="no_author_named")])
    out = tmp_path / "requests.jsonl"
    assert main(["questions", "closed-book", "prepare", str(questions), "--rejected", str(rejected), "--model", "m",
                 "--samples", "2", "-o", str(out)]) == 0
    assert "4 requests: 2 questions x 2 samples" in capsys.readouterr().out
    assert [r["custom_id"] for r in _rows(out)] == ["a-p1-s1#1", "a-p1-s1#2", "a-p2-s1#1", "a-p2-s1#2"]


@pytest.mark.parametrize("extra, message", [
    (["--temperature", "0"], "--temperature must be above 0"),
    (["--model", "bad`name"], "no model name"),
])
def test_prepare_cli_bad_options_are_one_line_errors(tmp_path, capsys, extra, message):
    questions = _write(tmp_path / "q.jsonl", [record("a-p1-s1")])
    args = ["questions", "closed-book", "prepare", str(questions), "-o", str(tmp_path / "out.jsonl")]
    status = main(args + (extra if "--model" in extra else ["--model", "m", *extra]))
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("content, message", [
    ('{"excerpt": "x [CITATION]"}\n', "q.jsonl:1: the record has no id"),
    ('{"id": "a-p1-s1", "excerpt": "x"}\n{"id": "a-p1-s1", "excerpt": "y"}\n', "q.jsonl:2: id 'a-p1-s1' is given twice"),
    ('{"id": "a-p1-s1", "excerpt": "x"\n', "q.jsonl:1"),
])
def test_prepare_cli_bad_questions_are_one_line_errors_and_write_nothing(tmp_path, capsys, content, message):
    questions = tmp_path / "q.jsonl"
    questions.write_text(content, encoding="utf-8")
    status = main(["questions", "closed-book", "prepare", str(questions), "--model", "m", "-o",
                   str(tmp_path / "out.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "out.jsonl").exists()


# ------------------------------------------------------------------------------------------------ answers


@pytest.mark.parametrize("row, kind", [
    (line("x", NONE), "ok"),
    (line("x", {**NONE, "title": TITLE, "year": 2009}), "ok"),
    (line("x", "```json\n" + json.dumps(NONE) + "\n```"), "ok"),
    (line("x", {**NONE, "title": ""}), "ok"),
    (line("x", None, status=500), "http_error"),
    (line("x", error={"code": "timeout", "message": "slow"}), "http_error"),
    (line("x", '{"title": "Phot', finish="length"), "truncated"),
    (line("x", "", finish="content_filter"), "refused"),
    (line("x", "It is Smith et al. 2009."), "not_json"),
    (line("x", "[1]"), "not_json"),
    (line("x", '{"title": "\\ud800", "first_author": null, "year": null, "doi": null}'), "not_json"),
    (line("x", {**NONE, "confidence": 1}), "schema"),
    (line("x", {"title": None, "first_author": None, "year": None}), "schema"),
    (line("x", {**NONE, "year": "2009"}), "schema"),
    (line("x", {**NONE, "year": 2009.0}), "schema"),
    (line("x", {**NONE, "year": True}), "schema"),
    (line("x", {**NONE, "year": 99}), "schema"),
    (line("x", {**NONE, "title": ["a"]}), "schema"),
    (line("x", {**NONE, "doi": 10.1}), "schema"),
    (line("x", {**NONE, "title": "t" * 3000}), "schema"),
    (line("x", '{"title": null, "title": null, "first_author": null, "year": null, "doi": null}'), "schema"),
])
def test_every_answer_kind(row, kind):
    assert classify_recollection(row).kind == kind


def test_an_ok_answer_reads_its_fields():
    answer = parse_recollection(json.dumps({"title": f" {TITLE} ", "first_author": "", "year": 2009,
                                            "doi": "10.1000/X"}), "m")
    assert (answer.title, answer.first_author, answer.year, answer.doi, answer.model) == (TITLE, None, 2009,
                                                                                            "10.1000/X", "m")


def test_the_matcher_is_the_scorers():
    gold = gold_question(record("a-p1-s1", pmid="123456"))
    assert answer_hit(gold, identifiers=["https://doi.org/10.1000/COBALT.1"]) == "doi"
    assert answer_hit(gold, identifiers=["PMID: 0123456"]) == "pmid"
    assert answer_hit(gold, titles=[TITLE.upper() + "."]) == "title"
    assert answer_hit(gold, titles=[TITLE.replace("neutral", "neutrall")]) == "title"  # 0.99
    near = "Photocatalytic water oxidation on nickel oxide clusters at neutral pH"
    assert answer_hit(gold, titles=[near]) is None
    assert answer_hit(gold, titles=[near], threshold=0.8) == "title"
    assert answer_hit(gold, identifiers=["10.1000/other", None, "not a doi"], titles=[None, ""]) is None
    assert answer_hit(gold_question(record("a-p1-s1", doi=None)), identifiers=["10.1000/cobalt.1"]) is None


# ------------------------------------------------------------------------------------------------ apply


def _answers(tmp_path: Path, rows: list[dict]) -> dict:
    return read_recollections(_write(tmp_path / "responses.jsonl", rows))


def _requests(tmp_path: Path, records: list[dict], samples: int) -> list:
    return read_requests(_write(tmp_path / "requests.jsonl",
                                list(prepare_requests(records, model="m", samples=samples))))


def test_recalled_in_any_sample_is_dropped_and_its_slot_goes_to_a_capped_candidate(tmp_path):
    questions = [record("a-p1-s1", score=0.9), record("a-p2-s1", score=0.8, doi="10.1000/b", ref="r2")]
    rejected = [record("a-p3-s1", score=0.7, doi="10.1000/c", ref="r3", reason="per_article_cap"),
                record("a-p4-s1", reason="no_author_named", ref="r4")]
    requests = _requests(tmp_path, questions + rejected[:1], 2)
    answers = _answers(tmp_path, [
        line("a-p1-s1#1", NONE), line("a-p1-s1#2", {**NONE, "title": TITLE}),  # recalled in one sample of two
        line("a-p2-s1#1", {**NONE, "title": "Something else"}), line("a-p2-s1#2", NONE),
        line("a-p3-s1#1", NONE), line("a-p3-s1#2", {**NONE, "doi": "10.1000/other"})])
    result = apply_closed_book(questions, answers, rejected=rejected, requests=requests, per_article=2)
    assert [q["id"] for q in result.questions] == ["a-p2-s1", "a-p3-s1"]
    by_id = {r["id"]: r for r in (*result.questions, *result.rejected)}
    assert by_id["a-p1-s1"]["reason"] == "closed_book"
    assert (by_id["a-p1-s1"]["closed_book_hits"], by_id["a-p1-s1"]["closed_book_samples"],
            by_id["a-p1-s1"]["closed_book_match"]) == (1, 2, "title")
    assert by_id["a-p4-s1"]["reason"] == "no_author_named" and "closed_book_hits" not in by_id["a-p4-s1"]
    q = by_id["a-p2-s1"]
    assert (q["closed_book_hits"], q["closed_book_answered"], q["closed_book_model"], q["closed_book_prompt"],
            q["closed_book_status"]) == (0, 2, "recall-model", "closed-book-v1", "ok")
    s = result.summary
    assert (s.candidates, s.recalled, s.not_recalled, s.dropped, s.requests, s.questions) == (3, 1, 2, 1, 6, 2)
    assert (s.samples, s.temperature, s.recalled_share, s.requests_per_kept) == (2, 1.0, 0.3333, 3.0)
    funnel = closed_book_funnel(result)
    assert [(r["filter"], r["rejected"]) for r in funnel][-5:] == [
        ("no_author_named", 1), ("closed_book_unanswered", 0), ("closed_book", 1), ("per_target_cap", 0),
        ("per_article_cap", 0)]
    assert funnel[-1]["remaining"] == 2


def test_after_the_judge_only_the_capped_candidates_it_kept_take_freed_slots(tmp_path, capsys):
    judged = {"judge_status": "ok", "judge_confidence": 0.9}
    questions = _write(tmp_path / "q.jsonl", [{**record("a-p1-s1"), **judged}])
    rejected = _write(tmp_path / "r.jsonl", [
        {**record("a-p2-s1", ref="r2", doi="10.1000/b", reason="per_article_cap"), **judged},
        record("a-p3-s1", ref="r3", doi="10.1000/c", reason="per_article_cap"),  # capped by the build, never judged
        {**record("a-p4-s1", ref="r4", doi="10.1000/d", reason="judge"), **judged}])
    requests = tmp_path / "requests.jsonl"
    assert main(["questions", "closed-book", "prepare", str(questions), "--rejected", str(rejected), "--model", "m",
                 "--samples", "1", "-o", str(requests)]) == 0
    assert [r["custom_id"] for r in _rows(requests)] == ["a-p1-s1#1", "a-p2-s1#1"]
    answers = _answers(tmp_path, [line("a-p1-s1#1", {**NONE, "title": TITLE}), line("a-p2-s1#1", NONE),
                                  line("a-p3-s1#1", NONE)])
    result = apply_closed_book(_rows(questions), answers, rejected=_rows(rejected), per_article=1)
    assert [q["id"] for q in result.questions] == ["a-p2-s1"]
    assert {r["id"]: r["reason"] for r in result.rejected} == {"a-p1-s1": "closed_book", "a-p3-s1": "per_article_cap",
                                                               "a-p4-s1": "judge"}
    assert result.summary.unused_answers == 1


def test_keep_recalled_keeps_and_flags_them(tmp_path):
    questions = [record("a-p1-s1")]
    answers = _answers(tmp_path, [line("a-p1-s1#1", {**NONE, "doi": "doi:10.1000/COBALT.1"})])
    result = apply_closed_book(questions, answers, keep_recalled=True)
    assert [(q["id"], q["closed_book_hits"], q["closed_book_match"]) for q in result.questions] == [
        ("a-p1-s1", 1, "doi")]


@pytest.mark.parametrize("rows", [
    [line("a-p1-s1#1", NONE)],  # sample 2 missing
    [line("a-p1-s1#1", NONE), line("a-p1-s1#2", error={"code": "timeout", "message": "x"})],
    [line("a-p1-s1#1", NONE), line("a-p1-s1#2", "I do not know")],
    [line("a-p1-s1#1", NONE), line("a-p1-s1#2", '{"title": "Pho', finish="length")],
    [],
])
def test_an_unanswered_sample_holds_the_question_back_unless_asked(tmp_path, rows):
    questions = [record("a-p1-s1")]
    requests = _requests(tmp_path, questions, 2)
    answers = _answers(tmp_path, rows)
    held = apply_closed_book(questions, answers, requests=requests)
    assert held.questions == () and held.rejected[0]["reason"] == "closed_book_unanswered"
    assert held.rejected[0]["closed_book_status"] != "ok" and held.summary.unanswered_questions == 1
    assert held.summary.recalled_share is None
    kept = apply_closed_book(questions, answers, requests=requests, unanswered="keep")
    assert [q["id"] for q in kept.questions] == ["a-p1-s1"]


def test_a_recalling_sample_decides_even_when_another_is_unanswered(tmp_path):
    questions = [record("a-p1-s1")]
    answers = _answers(tmp_path, [line("a-p1-s1#1", {**NONE, "title": TITLE})])
    result = apply_closed_book(questions, answers, requests=_requests(tmp_path, questions, 2))
    assert result.rejected[0]["reason"] == "closed_book" and result.summary.kinds["missing"] == 1


def test_a_question_without_any_request_is_held_back(tmp_path):
    questions = [record("a-p1-s1"), record("a-p2-s1", ref="r2", doi="10.1000/b")]
    answers = _answers(tmp_path, [line("a-p1-s1#1", NONE)])
    result = apply_closed_book(questions, answers)
    assert [q["id"] for q in result.questions] == ["a-p1-s1"]
    assert result.rejected[0]["closed_book_status"] == "missing"


def test_a_changed_excerpt_makes_its_requests_stale(tmp_path):
    requests = _requests(tmp_path, [record("a-p1-s1")], 1)
    changed = [record("a-p1-s1", excerpt="Another excerpt entirely about nickel [CITATION].")]
    result = apply_closed_book(changed, _answers(tmp_path, [line("a-p1-s1#1", NONE)]), requests=requests)
    assert result.summary.kinds["stale"] == 1 and result.rejected[0]["reason"] == "closed_book_unanswered"


def test_the_title_threshold_is_an_option(tmp_path):
    near = "Photocatalytic water oxidation on nickel oxide clusters at neutral pH"
    answers = _answers(tmp_path, [line("a-p1-s1#1", {**NONE, "title": near})])
    # similarity 0.94: recalled at the stage's default (0.85, where a wrong drop costs a question, not validity),
    # not at the scorer's 0.95
    assert len(apply_closed_book([record("a-p1-s1")], answers).questions) == 0
    assert len(apply_closed_book([record("a-p1-s1")], answers, title_threshold=0.95).questions) == 1
    assert len(apply_closed_book([record("a-p1-s1")], answers, title_threshold=0.8).questions) == 0


@pytest.mark.parametrize("rows, message", [
    ([line("zzz-p1-s1#1", NONE)], "unknown custom_id"),
    ([line("a-p1-s1", NONE)], "unknown custom_id"),
])
def test_answers_for_no_sample_of_a_record_are_errors(tmp_path, rows, message):
    with pytest.raises(InputError, match=message):
        apply_closed_book([record("a-p1-s1")], _answers(tmp_path, rows))


def test_the_judges_requests_are_not_closed_book_requests(tmp_path):
    from chemref.questions.judge.prepare import prepare_requests as judge_requests

    requests = read_requests(_write(tmp_path / "judge.jsonl", list(judge_requests([record("a-p1-s1")], model="m"))))
    with pytest.raises(InputError, match="not a closed-book sample id"):
        apply_closed_book([record("a-p1-s1")], {}, requests=requests)


# ------------------------------------------------------------------------------------------------ CLI


def _files(tmp_path: Path, samples: int = 2) -> tuple[Path, Path]:
    questions = _write(tmp_path / "q.jsonl", [record("a-p1-s1"), record("a-p2-s1", ref="r2", doi="10.1000/b")])
    requests = tmp_path / "requests.jsonl"
    assert main(["questions", "closed-book", "prepare", str(questions), "--model", "m", "--samples", str(samples),
                 "-o", str(requests)]) == 0
    return questions, requests


def test_apply_cli_writes_the_kept_questions_and_the_rejected(tmp_path, capsys):
    questions, requests = _files(tmp_path)
    responses = _write(tmp_path / "responses.jsonl", [
        line("a-p1-s1#1", NONE), line("a-p1-s1#2", NONE),
        line("a-p2-s1#1", {**NONE, "doi": "10.1000/B"}), line("a-p2-s1#2", NONE)])
    out, rejected = tmp_path / "kept.jsonl", tmp_path / "rej.jsonl"
    assert main(["questions", "closed-book", "apply", str(questions), str(responses), "--requests", str(requests),
                 "-o", str(out), "--rejected-out", str(rejected)]) == 0
    printed = capsys.readouterr().out
    assert "recalled 1 (50.0% of those answered), dropped" in printed and "4.0 requests per kept question" in printed
    assert [q["id"] for q in _rows(out)] == ["a-p1-s1"]
    assert [(r["id"], r["reason"]) for r in _rows(rejected)] == [("a-p2-s1", "closed_book")]


@pytest.mark.parametrize("content, message", [
    ('{"custom_id": "a-p1-s1#1", "response": null, "error"\n', "responses.jsonl:1"),
    ('{"custom_id": "a-p1-s1#1"}\n', "neither response nor error"),
    ('{"custom_id": "a-p1-s1#1", "error": {"code": "x"}}\n{"custom_id": "a-p1-s1#1", "error": {"code": "x"}}\n',
     "answered twice"),
    ('{"custom_id": "q9#1", "error": {"code": "x"}}\n', "unknown custom_id"),
    ('{"custom_id": "a-p1-s1#1", "response": {"status_code": 200, "body": {"model": "a\\nb", "choices": []}}, '
     '"error": null}\n', "no model name"),
])
def test_apply_cli_bad_answers_are_one_line_errors_exit_2(tmp_path, capsys, content, message):
    questions, requests = _files(tmp_path)
    responses = tmp_path / "responses.jsonl"
    responses.write_text(content, encoding="utf-8")
    status = main(["questions", "closed-book", "apply", str(questions), str(responses), "--requests",
                   str(requests), "-o", str(tmp_path / "kept.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "kept.jsonl").exists()


def test_apply_cli_bad_files_are_one_line_errors_exit_2(tmp_path, capsys):
    questions, requests = _files(tmp_path)
    responses = _write(tmp_path / "responses.jsonl", [line("a-p1-s1#1", NONE)])
    base = ["questions", "closed-book", "apply", str(questions), str(responses), "-o", str(tmp_path / "k.jsonl")]
    assert main(base[:3] + [str(tmp_path / "absent.jsonl")] + base[4:]) == 2
    assert main(base + ["--requests", str(_write(tmp_path / "bad.jsonl", [{"custom_id": "a"}]))]) == 2
    assert main(base + ["--unanswered", "drop"]) == 2
    assert main(base + ["--title-threshold", "0"]) == 2
    assert main(base[:-1] + [str(responses)]) == 2  # -o over an input
    err = capsys.readouterr().err
    assert err.count("\n") == 5 and all(row.startswith("chemref: error: ") for row in err.splitlines())
    assert "absent.jsonl: no such file" in err and "bad.jsonl:1: missing method" in err
    assert "use hold or keep" in err and "--title-threshold must be above 0" in err
    assert "would overwrite the input" in err
    assert not (tmp_path / "k.jsonl").exists()


# ------------------------------------------------------------------------------------------------ HTTP, resume


@pytest.fixture()
def server():
    with JudgeServer(slow_seconds=1.5) as srv:
        yield srv


def _item_records(items: list[str]) -> list[dict]:
    return [record(f"a-p{i}-s1", ref=f"r{i}", doi=f"10.1000/{name}",
                   excerpt=f"Cobalt oxide oxidises water, item {name} [CITATION].")
            for i, name in enumerate(items, start=1)]


@pytest.mark.slow
def test_every_fault_of_the_judges_server_through_closed_book_run_and_apply(tmp_path, server, capsys):
    kinds = ["r429", "r500", "r503", "slow", "badjson", "cut", "refuse", "long", "filter", "prose", "bad", "fine"]
    questions = _write(tmp_path / "q.jsonl", _item_records(kinds))
    requests, responses = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    assert main(["questions", "closed-book", "prepare", str(questions), "--model", "test-model", "--samples", "1",
                 "-o", str(requests)]) == 0
    server.plan = {"r429": ["429", "ok"], "r500": ["500", "ok"], "r503": ["503", "ok"], "slow": ["slow", "ok"],
                   "badjson": ["bad_json", "ok"], "cut": ["truncated", "ok"], "refuse": ["refusal"],
                   "long": ["length"], "filter": ["content_filter"], "prose": ["not_json"], "bad": ["400"]}
    server.recall = lambda body: {**NONE, "doi": "10.1000/fine"}
    args = ["questions", "closed-book", "run", str(requests), "--endpoint", server.url, "-o", str(responses),
            "--timeout", "1.0", "--retry-wait", "0", "--no-progress"]
    assert main(args) == 1  # the 400 is an error line, sent again by the next run
    assert server.problems == []
    out = tmp_path / "kept.jsonl"
    assert main(["questions", "closed-book", "apply", str(questions), str(responses), "--requests", str(requests),
                 "-o", str(out), "--rejected-out", str(tmp_path / "rej.jsonl"), "--per-article", "20"]) == 0
    printed = capsys.readouterr().out
    assert "answers: ok 7, http_error 1, refused 2, truncated 1, not_json 1" in printed
    rejected = {r["id"]: r for r in _rows(tmp_path / "rej.jsonl")}
    status = {r["closed_book_status"] for r in rejected.values() if r["reason"] == "closed_book_unanswered"}
    assert status == {"http_error", "refused", "truncated", "not_json"}
    assert rejected["a-p12-s1"]["reason"] == "closed_book"  # "fine" is recalled by its DOI
    assert len(_rows(out)) == 6


@pytest.mark.slow
def test_closed_book_run_resumes_after_sigkill_with_each_sample_once(tmp_path):
    names = [f"q{i}" for i in range(15)]
    questions = _write(tmp_path / "q.jsonl", _item_records(names))
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    assert main(["questions", "closed-book", "prepare", str(questions), "--model", "test-model", "--samples", "2",
                 "-o", str(requests)]) == 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with JudgeServer(hold_after=10) as srv:
        args = [sys.executable, "-m", "chemref", "questions", "closed-book", "run", str(requests), "--endpoint",
                srv.url, "-o", str(out), "--concurrency", "4", "--no-progress"]
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n") >= 10):
            time.sleep(0.01)
        while time.monotonic() < deadline and srv.in_flight < 4:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert out.read_bytes().count(b"\n") == 10
        with out.open("a", encoding="utf-8") as handle:
            handle.write('{"id": "batch_req_x", "custom_id": "a-p1-s1#2", "resp')
        srv.release.set()
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "30 requests, 10 already answered, 20 sent: 20 answered, 0 failed" in done.stdout
    rows = _rows(out)
    assert sorted(r["custom_id"] for r in rows) == sorted(f"a-p{i}-s1#{k}" for i in range(1, 16) for k in (1, 2))
    assert main(["questions", "closed-book", "apply", str(questions), str(out), "--requests", str(requests),
                 "-o", str(tmp_path / "kept.jsonl"), "--per-article", "20"]) == 0
    assert len(_rows(tmp_path / "kept.jsonl")) == 15


@pytest.mark.slow
def test_build_with_the_judge_and_the_closed_book_test_in_one_run(tmp_path, server, capsys):
    out = tmp_path / "out" / "questions.jsonl"
    selector_titles: dict[str, str] = {}

    def recall(body):  # remembers the cited work of every other excerpt it is shown
        excerpt = body["messages"][1]["content"]
        title = selector_titles.get(excerpt)
        return {**NONE, "title": title} if title is not None else NONE

    server.recall = recall
    args = ["questions", "build", "-o", str(out), "--min-score", "0", "--rejected", str(tmp_path / "out" / "rej.jsonl"),
            "--judge-endpoint", server.url, "--judge-model", "test-model", "--no-progress", "--judge-min-score", "0",
            "--closed-book-samples", "2", "--report", str(tmp_path / "out" / "report.json")]
    assert main(["questions", "build", "-o", str(tmp_path / "plain" / "q.jsonl"), "--min-score", "0",
                 "--rejected", str(tmp_path / "plain" / "r.jsonl"), "--no-progress"]) == 0
    from chemref.questions.judge.prompt import render_messages

    plain = [r for r in _rows(tmp_path / "plain" / "r.jsonl") if r["reason"] in ("per_target_cap", "per_article_cap")]
    plain += _rows(tmp_path / "plain" / "q.jsonl")
    for i, row in enumerate(sorted(plain, key=lambda r: r["id"])):
        if i % 2 == 0:
            selector_titles[render_messages(row, "closed-book-v1")[1]["content"]] = row["target_title"]
    capsys.readouterr()
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert server.problems == []
    requests = _rows(tmp_path / "out" / "questions.closed-book-requests.jsonl")
    judged = _rows(tmp_path / "out" / "questions.judged.jsonl")
    judged_rejected = _rows(tmp_path / "out" / "questions.judged.rejected.jsonl")
    asked = len(judged) + sum(1 for r in judged_rejected if r["reason"] in ("per_target_cap", "per_article_cap"))
    assert len(requests) == 2 * asked
    kept = _rows(out)
    assert kept and all(q["closed_book_hits"] == 0 and q["closed_book_samples"] == 2 for q in kept)
    assert all(q["judge_status"] == "ok" for q in kept)
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    steps = [row["filter"] for row in report["funnel"]]
    assert steps[-6:] == ["judge_unanswered", "judge", "closed_book_unanswered", "closed_book", "per_target_cap",
                          "per_article_cap"]
    assert report["funnel"][-1]["remaining"] == len(kept) == report["questions"]
    assert report["closed_book"]["recalled"] > 0 and "closed-book apply:" in printed
    card = (tmp_path / "out" / "README.md").read_text()
    assert "## Judge" in card and "## Closed-book test" in card and "`closed_book_hits`" in card
    rejected = _rows(tmp_path / "out" / "rej.jsonl")
    assert {r["reason"] for r in rejected} >= {"closed_book"}
    sent = server.requests
    assert main(args) == 0  # again: every answer is already there, nothing is sent
    assert server.requests == sent


def test_build_closed_book_options_need_the_judge(capsys):
    assert main(["questions", "build", "-o", "x.jsonl", "--closed-book-samples", "2"]) == 2
    assert "needs --judge-endpoint" in capsys.readouterr().err
    assert main(["questions", "build", "-o", "x.jsonl", "--closed-book-model", "m"]) == 2
    assert "needs --closed-book-samples" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------ real answers

SAMPLE = Path(__file__).parent / "data" / "closed_book" / "dev_responses_sample.jsonl"


def test_the_stored_answers_of_helper_sessions_are_read_strictly():
    answers = read_recollections(SAMPLE)
    assert len(answers) == 29 and {a.kind for _, a in answers.values()} == {"ok"}
    assert {a.model for _, a in answers.values()} == {"claude-helper-session"}
    assert all(split_sample_id(ident)[1] == 1 for ident in answers)


@pytest.mark.shared
def test_the_stored_answers_against_the_dev_articles():
    from chemref.questions.funnel.builder import build_article
    from chemref.questions.funnel.settings import BuildSettings
    from tests.helpers import shared_path

    answers = read_recollections(SAMPLE)
    wanted = {split_sample_id(ident)[0] for ident in answers}
    folder = shared_path("corpora", "jats", "dev")
    records = []
    for path in sorted(folder.glob("*.nxml")):
        if not any(ident.startswith(path.stem) for ident in wanted):
            continue
        result = build_article(str(path), BuildSettings(min_score=0.0))
        records += [{k: v for k, v in r.to_dict().items() if k != "reason"}
                    for r in (*result.questions, *result.rejected) if r.id in wanted]
    assert len(records) == 29
    options = {"keep_recalled": True, "per_target": 100, "per_article": 100, "author_year": False}
    strict = apply_closed_book(records, answers, title_threshold=0.95, **options).summary
    assert (strict.recalled, dict(strict.matches)) == (13, {"doi": 6, "pmid": 0, "title": 7, "author_year": 0})
    titles = apply_closed_book(records, answers, **options).summary  # 0.85: 5 near titles more
    assert (titles.recalled, dict(titles.matches)) == (18, {"doi": 6, "pmid": 0, "title": 12, "author_year": 0})
    loose = apply_closed_book(records, answers, title_threshold=0.8, **options).summary
    assert (loose.recalled, dict(loose.matches)) == (18, {"doi": 6, "pmid": 0, "title": 12, "author_year": 0})
    options["author_year"] = True  # the default: the first author's surname with the year names the work too
    default = apply_closed_book(records, answers, **options).summary
    assert default.recalled >= titles.recalled and default.matches["author_year"] == default.recalled - 18


def test_what_is_wrong_with_an_answer_is_kept_without_credentials():
    answer = classify_recollection(line("x", error={"code": "connection",
                                                     "message": "at http://user:pw-SECRET-1@h/v1 Bearer sk-abcdefghijklmnop"}))
    assert answer.kind == "http_error" and "pw-SECRET-1" not in answer.detail and "sk-abcdefghijklmnop" not in answer.detail
