"""``chemref questions judge run`` over real HTTP, against a local OpenAI-compatible server (127.0.0.1, port 0)
that checks every request and answers with faults: 429 with Retry-After, 5xx, slow answers, bodies that are
not JSON or cut short, refusals; resume after a SIGKILL; the number of requests in flight."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("httpx")

from chemref.cli import main  # noqa: E402
from chemref.errors import InputError  # noqa: E402
from chemref.questions.judge.answers import read_responses  # noqa: E402
from chemref.questions.judge.client import answered_ids, backoff, request_url, run_requests  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from judge_server import JudgeServer, write_requests  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _run(requests: Path, output: Path, server: JudgeServer, **options):
    options.setdefault("concurrency", 4)
    options.setdefault("timeout", 2.0)
    options.setdefault("max_retries", 3)
    options.setdefault("first_wait", 0.01)
    return run_requests(requests, output, endpoint=server.url, progress=False, **options)


@pytest.fixture()
def server():
    with JudgeServer(slow_seconds=1.5) as srv:
        yield srv


@pytest.mark.parametrize("endpoint, expected", [
    ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/chat/completions"),
    ("http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1/chat/completions"),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000/v1/chat/completions"),
    ("https://api.example.org/openai/v1", "https://api.example.org/openai/v1/chat/completions"),
])
def test_endpoint_with_or_without_v1(endpoint, expected):
    assert request_url(endpoint, "/v1/chat/completions") == expected


@pytest.mark.parametrize("endpoint", ["127.0.0.1:8000", "ftp://host/v1", "http://host/v1?x=1"])
def test_bad_endpoint_is_an_input_error(endpoint):
    with pytest.raises(InputError):
        request_url(endpoint, "/v1/chat/completions")


def test_backoff_doubles_with_jitter_and_honours_retry_after():
    low = [backoff(a, 1.0, rand=lambda lo, hi: lo) for a in range(4)]
    high = [backoff(a, 1.0, rand=lambda lo, hi: hi) for a in range(4)]
    assert low == [0.5, 1.0, 2.0, 4.0] and high == [1.0, 2.0, 4.0, 8.0]
    assert backoff(0, 1.0, retry_after=7.0) >= 7.0
    assert backoff(30, 1.0) == 600.0


def test_every_request_checked_and_answered(tmp_path, server):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    items = [f"q{i}" for i in range(12)]
    write_requests(requests, items)
    summary = _run(requests, out, server)
    assert server.problems == []
    assert (summary.sent, summary.answered, summary.failures, summary.retries) == (12, 12, 0, 0)
    rows = _lines(out)
    assert sorted(r["custom_id"] for r in rows) == sorted(items)
    for row in rows:
        assert set(row) == {"id", "custom_id", "response", "error"} and row["error"] is None
        assert row["id"].startswith("batch_req_")
        assert row["response"]["status_code"] == 200 and row["response"]["request_id"]
        assert row["response"]["body"]["object"] == "chat.completion"
    assert {a.kind for _, a in read_responses(out).values()} == {"ok"}
    assert server.connections <= 4  # keep-alive: one connection per worker


def test_api_key_sent_from_the_environment_variable_and_never_written(tmp_path, monkeypatch):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    write_requests(requests, ["a", "b"])
    secret = "sk-Hb3nY7qR2wK9mT5xV1cL8"  # random letters and digits, no word
    monkeypatch.setenv("MY_JUDGE_KEY", secret)
    with JudgeServer(api_key=secret) as srv:
        status = main(["questions", "judge", "run", str(requests), "--endpoint", srv.url, "-o", str(out),
                       "--api-key-env", "MY_JUDGE_KEY", "--no-progress"])
        assert status == 0 and srv.problems == []
    assert secret not in out.read_text(encoding="utf-8")
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and secret in p.read_text(errors="replace")]


@pytest.mark.slow
def test_faults_are_retried(tmp_path, server):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    write_requests(requests, ["r429", "r500", "r503", "slow", "badjson", "cut", "fine"])
    server.plan = {"r429": ["429", "429", "ok"], "r500": ["500", "ok"], "r503": ["503", "ok"], "slow": ["slow", "ok"],
                   "badjson": ["bad_json", "ok"], "cut": ["truncated", "ok"]}
    summary = _run(requests, out, server, timeout=1.0)
    assert summary.failures == 0 and summary.answered == 7
    assert summary.retries == 7
    assert server.seen == {"r429": 3, "r500": 2, "r503": 2, "slow": 2, "badjson": 2, "cut": 2, "fine": 1}
    assert {a.kind for _, a in read_responses(out).values()} == {"ok"}


@pytest.mark.slow
def test_failures_after_the_retries_get_error_lines_and_exit_1_then_a_rerun_retries_them(tmp_path, server, capsys):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    write_requests(requests, ["down", "slow", "fine", "bad"])
    server.plan = {"down": ["500"] * 3, "slow": ["slow"] * 3, "bad": ["400"]}
    args = ["questions", "judge", "run", str(requests), "--endpoint", server.url, "-o", str(out), "--max-retries",
            "2", "--timeout", "0.8", "--retry-wait", "0", "--no-progress"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert "3 request(s) failed after 2 retries" in captured.err and "run the same command again" in captured.err
    assert "http_5xx 1" in captured.out and "timeout 1" in captured.out and "http_4xx 1" in captured.out
    rows = {r["custom_id"]: r for r in _lines(out)}
    assert rows["down"]["response"] is None and rows["down"]["error"]["code"] == "http_5xx"
    assert rows["slow"]["error"]["code"] == "timeout"
    assert rows["bad"]["response"]["status_code"] == 400 and rows["bad"]["error"] is None
    assert server.seen["bad"] == 1  # a 400 is not tried again within the run
    kinds = {i: a.kind for i, (_, a) in read_responses(out).items()}
    assert kinds == {"down": "http_error", "slow": "http_error", "fine": "ok", "bad": "http_error"}
    # the next run sends only the failed ones, and the file ends with one line per id
    assert main(args) == 0
    assert server.seen == {"down": 4, "slow": 4, "fine": 1, "bad": 2}
    rows = _lines(out)
    assert sorted(r["custom_id"] for r in rows) == ["bad", "down", "fine", "slow"]
    assert {a.kind for _, a in read_responses(out).values()} == {"ok"}


def test_refusals_truncations_and_non_json_answers_are_answers_not_retried(tmp_path, server):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    write_requests(requests, ["refuse", "long", "filter", "prose"])
    server.plan = {"refuse": ["refusal"], "long": ["length"], "filter": ["content_filter"], "prose": ["not_json"]}
    summary = _run(requests, out, server)
    assert summary.answered == 4 and summary.retries == 0
    kinds = {i: a.kind for i, (_, a) in read_responses(out).items()}
    assert kinds == {"refuse": "refused", "long": "truncated", "filter": "refused", "prose": "not_json"}


def test_concurrency_keeps_n_requests_in_flight(tmp_path):
    import threading

    for n, count in ((1, 3), (6, 18)):
        requests = tmp_path / f"requests{n}.jsonl"
        write_requests(requests, [f"q{i}" for i in range(count)])
        with JudgeServer(hold_after=0) as srv:  # every request waits until n are in flight at once
            def release() -> None:
                deadline = time.monotonic() + 30
                while srv.in_flight < n and time.monotonic() < deadline:
                    time.sleep(0.005)
                srv.release.set()

            threading.Thread(target=release, daemon=True).start()
            summary = _run(requests, tmp_path / f"responses{n}.jsonl", srv, concurrency=n, timeout=30)
            assert srv.max_in_flight == n and summary.max_in_flight == n
            assert summary.answered == count


def test_resume_skips_answered_ids_and_cuts_a_torn_last_line(tmp_path, server):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    write_requests(requests, ["a", "b", "c", "d"])
    _run(requests, out, server)
    rows = out.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [r for r in rows if json.loads(r)["custom_id"] in ("a", "b")]
    torn = next(r for r in rows if json.loads(r)["custom_id"] == "c")[:57]
    out.write_text("".join(kept) + torn, encoding="utf-8")
    server.seen.clear()
    summary = _run(requests, out, server)
    assert (summary.already, summary.sent) == (2, 2)
    assert server.seen == {"c": 1, "d": 1}
    assert sorted(r["custom_id"] for r in _lines(out)) == ["a", "b", "c", "d"]


def test_resume_refuses_a_damaged_or_foreign_output(tmp_path):
    out = tmp_path / "responses.jsonl"
    out.write_text('{"id": "x", "custom_id": "a", "response": {"status_code": 200}, "error": null}\nnot json\n{}\n')
    with pytest.raises(InputError, match=r"responses.jsonl:2: not a JSON object"):
        answered_ids(out, ["a"])
    out.write_text('{"custom_id": "zzz", "response": {"status_code": 200}, "error": null}\n')
    with pytest.raises(InputError, match="not in the requests file"):
        answered_ids(out, ["a"])


@pytest.mark.slow
def test_resume_after_sigkill_ends_complete_with_each_id_once(tmp_path):
    requests, out = tmp_path / "requests.jsonl", tmp_path / "responses.jsonl"
    items = [f"q{i}" for i in range(40)]
    write_requests(requests, items)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with JudgeServer(hold_after=12) as srv:  # 12 answers, then the run hangs with 4 requests in flight
        args = [sys.executable, "-m", "chemref", "questions", "judge", "run", str(requests), "--endpoint", srv.url,
                "-o", str(out), "--concurrency", "4", "--no-progress"]
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n") >= 12):
            time.sleep(0.01)
        while time.monotonic() < deadline and srv.in_flight < 4:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert out.read_bytes().count(b"\n") == 12  # the answers written before the kill, and only those
        with out.open("a", encoding="utf-8") as handle:  # as if the kill had cut a line being written
            handle.write('{"id": "batch_req_x", "custom_id": "q39", "resp')
        srv.release.set()
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "40 requests, 12 already answered, 28 sent: 28 answered, 0 failed" in done.stdout
    rows = _lines(out)
    assert sorted(r["custom_id"] for r in rows) == sorted(items)
    assert all(r["error"] is None for r in rows)


def test_without_httpx_run_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    requests = tmp_path / "requests.jsonl"
    write_requests(requests, ["a"])
    monkeypatch.setitem(sys.modules, "httpx", None)  # import httpx raises ImportError
    status = main(["questions", "judge", "run", str(requests), "--endpoint", "http://127.0.0.1:9/v1", "-o",
                   str(tmp_path / "out.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "pip install 'chemref[judge]'" in err


def test_importing_chemref_and_other_commands_never_import_httpx():
    code = ("import sys; import chemref, chemref.questions, chemref.questions.judge; from chemref.cli import main; "
            "main(['questions', 'judge', '--help']); main(['questions', 'build', '--help']); "
            "assert 'httpx' not in sys.modules, 'httpx imported'")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("line, message", [
    ('{"custom_id": "a", "method": "GET", "url": "/v1/chat/completions", "body": {}}', "method must be"),
    ('{"custom_id": "a", "method": "POST", "url": "http://x/v1", "body": {}}', "url must be a path"),
    ('{"custom_id": "", "method": "POST", "url": "/v1/chat/completions", "body": {}}', "custom_id must be"),
    ('{"custom_id": "a", "method": "POST", "url": "/v1/chat/completions"}', "missing body"),
    ('[1, 2]', "expected a JSON object"),
])
def test_invalid_requests_are_one_line_errors_exit_2(tmp_path, capsys, line, message):
    requests = tmp_path / "requests.jsonl"
    requests.write_text(line + "\n", encoding="utf-8")
    status = main(["questions", "judge", "run", str(requests), "--endpoint", "http://127.0.0.1:9/v1", "-o",
                   str(tmp_path / "out.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err and "requests.jsonl:1" in err


def test_duplicate_request_ids_are_an_error(tmp_path, capsys):
    requests = tmp_path / "requests.jsonl"
    write_requests(requests, ["a", "a"])
    status = main(["questions", "judge", "run", str(requests), "--endpoint", "http://127.0.0.1:9/v1", "-o",
                   str(tmp_path / "out.jsonl")])
    err = capsys.readouterr().err
    assert status == 2 and "requested twice" in err


@pytest.mark.slow
def test_build_with_the_judge_in_one_run(tmp_path, server, capsys):
    out = tmp_path / "out" / "questions.jsonl"
    args = ["questions", "build", "-o", str(out), "--min-score", "0", "--rejected", str(tmp_path / "out" / "rej.jsonl"),
            "--judge-endpoint", server.url, "--judge-model", "test-model", "--no-progress", "--judge-min-score", "0"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert server.problems == [] and server.requests == 21
    requests = _lines(tmp_path / "out" / "questions.judge-requests.jsonl")
    selector = _lines(tmp_path / "out" / "questions.selector.jsonl")
    judged = _lines(out)
    assert len(requests) == 21 and len(selector) == 16 and len(judged) == 16
    assert all(q["judge_status"] == "ok" for q in judged)
    assert "1.31 per kept question" in printed
    assert "## Judge" in (tmp_path / "out" / "README.md").read_text()
    assert main(args) == 0  # again: every answer is already there, nothing is sent
    assert server.requests == 21 and "21 already answered" in capsys.readouterr().out


def test_build_with_the_judge_sends_candidates_from_the_selectors_cascade_start(tmp_path, server, capsys):
    from chemref.questions.funnel.selector import default_selector

    out = tmp_path / "out" / "questions.jsonl"
    assert main(["questions", "build", "-o", str(out), "--judge-endpoint", server.url, "--judge-model", "test-model",
                 "--no-progress"]) == 0
    start = default_selector().meta["judge_threshold"]
    records = [*_lines(tmp_path / "out" / "questions.selector.jsonl"),
               *_lines(tmp_path / "out" / "questions.selector.rejected.jsonl")]
    expected = [r["id"] for r in records if r.get("reason") in (None, "min_score", "per_target_cap", "per_article_cap")
                and r["score"] >= start]
    requests = _lines(tmp_path / "out" / "questions.judge-requests.jsonl")
    assert sorted(r["custom_id"] for r in requests) == sorted(expected) and 0 < len(expected) < 21
    assert server.requests == len(expected)


def test_build_judge_options_go_together(capsys):
    assert main(["questions", "build", "-o", "x.jsonl", "--judge-model", "m"]) == 2
    assert "go together" in capsys.readouterr().err


def test_build_with_the_judge_prints_the_funnel_after_the_judge(tmp_path, server, capsys):
    out = tmp_path / "out" / "questions.jsonl"
    assert main(["questions", "build", "-o", str(out), "--judge-endpoint", server.url, "--judge-model", "test-model",
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    kept = len(_lines(out))
    assert "survival rate" not in printed  # the build's own funnel (before the judge) is not printed as a result
    last = [line for line in printed.splitlines() if line.startswith("questions ")][-1]
    assert last.split()[1] == str(kept) and "after the judge" in last
