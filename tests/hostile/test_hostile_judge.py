"""The judge's files as untrusted input: answers, responses and the build's records read strictly (a key given
twice, a lone surrogate, a model name that would forge lines), every output on its own path (the dataset card
included), each record id once in a batch; and JSON strings that no UTF-8 file can hold, refused on reading by
every command. Through the CLI under a 1 GB address-space limit (the build is made once, in this process)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import CORPORA, assert_refused, chemref


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return recipes.judge_files(tmp_path_factory.mktemp("judge-build"))


@pytest.fixture
def files(built: dict[str, Path], tmp_path: Path) -> dict[str, Path]:
    """A fresh copy of the build and its requests in the test's folder (named as the build names them)."""
    copies = {}
    for name, path in built.items():
        copies[name] = tmp_path / path.name
        shutil.copyfile(path, copies[name])
    return copies


def _apply(tmp: Path, responses: Path, *outputs: str):  # type: ignore[no-untyped-def]
    return chemref("questions", "judge", "apply", "questions.jsonl", responses.name, "--rejected", "rejected.jsonl",
                   "--requests", "requests.jsonl", *(outputs or ("-o", "out/j.jsonl", "--rejected-out",
                                                                 "out/r.jsonl")), cwd=tmp, timeout=60)


def _statuses(*paths: Path) -> dict[str, str]:
    rows = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
    return {row["id"]: row.get("judge_status") for row in rows}


def _first_answer(rows: list[dict]) -> tuple[str, dict]:
    return rows[0]["custom_id"], recipes.answer_of(rows[0])


# -- a judge's answer read strictly
def test_an_answer_giving_a_key_twice_is_a_wrong_schema(files: dict[str, Path], tmp_path: Path) -> None:
    ident = []

    def twice(rows: list[dict]) -> None:
        custom_id, message = _first_answer(rows)
        ident.append(custom_id)
        answer = json.loads(message["content"])
        # the first value would keep the candidate, the last rejects it: which was meant cannot be told
        message["content"] = json.dumps({**answer, "good_question": True})[:-1] + ', "good_question": false}'

    responses = recipes.judge_responses(tmp_path / "twice.jsonl", twice)
    proc = _apply(tmp_path, responses)
    assert proc.returncode == 0, proc.stderr
    assert _statuses(tmp_path / "out" / "j.jsonl", tmp_path / "out" / "r.jsonl")[ident[0]] == "schema"


def test_an_answer_holding_a_lone_surrogate_is_no_json_answer(files: dict[str, Path], tmp_path: Path) -> None:
    ident = []

    def lone(rows: list[dict]) -> None:
        custom_id, message = _first_answer(rows)
        ident.append(custom_id)
        answer = json.loads(message["content"])
        message["content"] = json.dumps({**answer, "note": "half \ud83d a pair"})  # escaped as \ud83d

    responses = recipes.judge_responses(tmp_path / "lone.jsonl", lone)
    proc = _apply(tmp_path, responses)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert _statuses(tmp_path / "out" / "j.jsonl", tmp_path / "out" / "r.jsonl")[ident[0]] == "not_json"


# -- a lone surrogate in any JSON Lines file read: one error line naming the file and the line
@pytest.mark.parametrize("command", ["judge prepare", "evaluate", "judge apply"])
def test_a_lone_surrogate_in_a_records_file_is_one_error_line(files: dict[str, Path], tmp_path: Path,
                                                               command: str) -> None:
    lines = files["questions"].read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    record["target_title"] = "a title \udfff cut"
    lines[1] = json.dumps(record)  # ASCII JSON: the surrogate as the escape \udfff
    files["questions"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    recipes.judge_responses(tmp_path / "responses.jsonl", lambda rows: None)
    args = {"judge prepare": ("questions", "judge", "prepare", "questions.jsonl", "--model", "m", "-o", "req.jsonl"),
            "evaluate": ("questions", "evaluate", CORPORA / "labels" / "sample_labels.jsonl", "--questions",
                         "questions.jsonl", "--rejected", "rejected.jsonl"),
            "judge apply": ("questions", "judge", "apply", "questions.jsonl", "responses.jsonl", "--rejected",
                            "rejected.jsonl", "-o", "j.jsonl")}
    proc = chemref(*args[command], cwd=tmp_path, timeout=60)
    assert_refused(proc, "questions.jsonl:2", "surrogate")
    assert not (tmp_path / "req.jsonl").exists() and not (tmp_path / "j.jsonl").exists()


# -- names from the responses and the requests: one line of printable text, or refused
@pytest.mark.parametrize("name", ["evil\n\n# A forged heading\rchemref: error: forged", "a\x1b[2Jname",
                                  "back`tick", "x" * 500])
def test_a_model_name_that_would_forge_lines_is_refused(files: dict[str, Path], tmp_path: Path, name: str) -> None:
    def rename(rows: list[dict]) -> None:
        for row in rows:
            row["response"]["body"]["model"] = name

    responses = recipes.judge_responses(tmp_path / "named.jsonl", rename)
    proc = _apply(tmp_path, responses)
    assert_refused(proc, "named.jsonl:1", "model name")
    assert not (tmp_path / "out").exists()


def test_a_model_name_in_the_requests_that_would_forge_lines_is_refused(files: dict[str, Path],
                                                                         tmp_path: Path) -> None:
    recipes.edit_json_lines(files["requests"], 1, lambda row: row["body"].update(model="m\nchemref: error: x"))
    responses = recipes.judge_responses(tmp_path / "responses.jsonl", lambda rows: None)
    proc = _apply(tmp_path, responses)
    assert_refused(proc, "requests.jsonl:1", "model name")


# -- every output on its own path, the dataset card included: refused before any work
@pytest.mark.parametrize("outputs", [("-o", "same.jsonl", "--rejected-out", "same.jsonl"),
                                     ("-o", "j.jsonl", "--rejected-out", "README.md"),
                                     ("-o", "j.jsonl", "--rejected-out", "j.report.json"),
                                     ("-o", "README.md")])
def test_two_judge_outputs_on_one_path_are_refused(files: dict[str, Path], tmp_path: Path,
                                                   outputs: tuple[str, ...]) -> None:
    for name in ("same.jsonl", "j.report.json"):
        (tmp_path / name).write_text("previous\n")
    responses = recipes.judge_responses(tmp_path / "responses.jsonl", lambda rows: None)
    proc = _apply(tmp_path, responses, *outputs)
    assert_refused(proc, "would be the same file")
    assert (tmp_path / "same.jsonl").read_text() == "previous\n"
    assert not (tmp_path / "README.md").exists() and not (tmp_path / "j.jsonl").exists()


# -- each record once in a batch: custom_id must be unique
@pytest.mark.parametrize("how", ["the questions as --rejected", "a record twice in one file"])
def test_a_record_given_twice_to_prepare_is_refused(files: dict[str, Path], tmp_path: Path, how: str) -> None:
    if how == "the questions as --rejected":
        extra = ("--rejected", "questions.jsonl")
    else:
        rows = files["rejected"].read_text(encoding="utf-8").splitlines()
        files["rejected"].write_text("\n".join(rows + rows[:1]) + "\n", encoding="utf-8")
        extra = ("--rejected", "rejected.jsonl")
    proc = chemref("questions", "judge", "prepare", "questions.jsonl", *extra, "--model", "m", "--min-score", "0",
                   "-o", "req.jsonl", cwd=tmp_path, timeout=60)
    assert_refused(proc, "given twice")
    assert not (tmp_path / "req.jsonl").exists()


# -- judge run: a server's answers are bounded in time and size
class _Server:
    """A hostile OpenAI-compatible server on 127.0.0.1 (port 0): ``"wait"`` answers 429 asking for a day's
    wait; ``"endless"`` answers 200 with a body that never ends (until the client hangs up)."""

    def __init__(self, mode: str) -> None:
        import http.server
        import threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if mode == "wait":
                    self.send_response(429)
                    self.send_header("Retry-After", "86400")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.end_headers()
                try:
                    self.wfile.write(b'{"choices": [{"message": {"content": "')
                    block = b"a" * (1 << 20)
                    for _ in range(4096):
                        self.wfile.write(block)
                except OSError:
                    pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("mode", ["wait", "endless"])
def test_judge_run_is_bounded_by_a_hostile_server(files: dict[str, Path], tmp_path: Path, mode: str) -> None:
    pytest.importorskip("httpx")
    lines = files["requests"].read_text(encoding="utf-8").splitlines()[:2]
    (tmp_path / "two.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with _Server(mode) as url:
        proc = chemref("questions", "judge", "run", "two.jsonl", "--endpoint", url, "-o", "answers.jsonl",
                       "--max-retries", "1", "--retry-wait", "0.1", "--timeout", "20", "--no-progress",
                       cwd=tmp_path, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.seconds < 45  # type: ignore[attr-defined]
    errors = [json.loads(line)["error"] for line in (tmp_path / "answers.jsonl").read_text().splitlines()]
    assert len(errors) == 2 and {e["code"] for e in errors} == {"http_429" if mode == "wait" else "invalid_json"}


@pytest.mark.parametrize("command", ["judge prepare", "build"])
def test_a_model_name_given_as_an_option_is_checked_before_any_work(files: dict[str, Path], tmp_path: Path,
                                                                     command: str) -> None:
    if command == "judge prepare":
        args = ("questions", "judge", "prepare", "questions.jsonl", "--model", "m\nchemref: error: x", "-o",
                "req.jsonl")
    else:
        args = ("questions", "build", CORPORA / "jats" / "sample_zinc_knuckle.xml", "-o", "req.jsonl",
                "--judge-endpoint", "http://127.0.0.1:9/v1", "--judge-model", "m\nchemref: error: x", "--no-progress")
    proc = chemref(*args, cwd=tmp_path, timeout=60)
    assert_refused(proc, "model name")
    assert not (tmp_path / "req.jsonl").exists()
