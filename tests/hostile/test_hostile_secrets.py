"""The API key, Bearer tokens and URL credentials are never written: every scenario of the judge's test server,
with a server that echoes the ``Authorization`` header in its error bodies and headers, run through ``judge
run``, ``judge apply`` and ``build --judge-endpoint`` with a known fake key; then every file left in the work
folder (outputs, cards, reports, hidden files) and every line printed is searched for the key, a Bearer token
and the URL's password. Keys and URLs that cannot be used (a trailing newline, a non-ASCII character,
credentials, a bad port, a malformed Dask address) are one error line that does not show them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.golden import hostile_recipes as recipes
from tests.hostile.cli_runner import ROOT, assert_refused, chemref

pytest.importorskip("httpx")
sys.path.insert(0, str(ROOT / "tests"))
from judge_server import JudgeServer, item_of, write_requests

#: a fake key: random letters and digits, no word (its pieces must never match ordinary text)
KEY = "sk-Mr4kW8zTq2Nv6Bx9Lp3Jd7Hc5Gy1Fs"
PASSWORD = "pw-SECRET-4242"
#: every kind of answer the test server gives, errors echoing the key first
KINDS = ["401", "403", "429", "500", "503", "400", "nan", "bad_json", "truncated", "refusal", "length",
         "content_filter", "not_json", "gzip2", "deep", "deep401", "key_pieces", "key_header", "ok"]
#: the key's letters and digits after its "sk": 12 of them in a row, whatever separates them, is a leak
_LETTERS = re.sub(r"[^a-z0-9]", "", KEY.lower())[2:]


def _leaks(texts: dict[str, str]) -> list[str]:
    """Where a secret shows: the key (or its first 20 characters, or 12 of its letters and digits in a row,
    whatever separates them), a Bearer token that is not the redaction mark, or the URL's password."""
    found = []
    for where, text in texts.items():
        for needle in (KEY[:20], PASSWORD, "Bearer sk", "Bearer%20sk", "Bearer+sk"):
            if needle in text:
                found.append(f"{where}: {needle!r}")
        letters = re.sub(r"[^a-z0-9]", "", text.lower())
        found += [f"{where}: {_LETTERS[i:i + 12]!r}" for i in range(len(_LETTERS) - 11) if _LETTERS[i:i + 12] in letters]
    return found


def _everything(folder: Path, *procs: subprocess.CompletedProcess) -> dict[str, str]:
    texts = {str(p): p.read_bytes().decode("utf-8", "replace") for p in folder.rglob("*") if p.is_file()}
    for n, proc in enumerate(procs):
        texts[f"stdout {n}"], texts[f"stderr {n}"] = proc.stdout, proc.stderr
    return texts


def test_no_scenario_of_the_judge_writes_or_prints_the_key(tmp_path: Path) -> None:
    work = tmp_path / "work"
    built = recipes.judge_files(work)
    env = {"OPENAI_API_KEY": KEY, "MY_KEY": KEY}
    procs = []
    with JudgeServer(model="m", api_key=KEY, echo_auth=True) as server:
        rows = [json.loads(line) for line in built["requests"].read_text(encoding="utf-8").splitlines()]
        for n, row in enumerate(rows):  # every kind, each twice with one retry: error lines for the failing ones
            kind = KINDS[n % len(KINDS)]
            server.plan[item_of(row["body"])] = [kind, kind]
        run = chemref("questions", "judge", "run", "requests.jsonl", "--endpoint", server.url, "-o",
                      "responses.jsonl", "--api-key-env", "MY_KEY", "--max-retries", "1", "--retry-wait", "0",
                      "--no-progress", cwd=work, env=env, timeout=120)
        procs.append(run)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
        assert server.problems == []
        responses = (work / "responses.jsonl").read_text(encoding="utf-8")
        lines = [json.loads(line) for line in responses.splitlines()]  # every line valid JSON (NaN included)
        assert len(lines) == len(rows)
        assert "[redacted]" in responses  # the echoes were there, and are gone
        procs.append(chemref("questions", "judge", "apply", "questions.jsonl", "responses.jsonl", "--rejected",
                             "rejected.jsonl", "--requests", "requests.jsonl", "-o", "judged.jsonl",
                             "--rejected-out", "judged-rejected.jsonl", "--report", "judged-report.json",
                             cwd=work, env=env, timeout=120))
        assert procs[-1].returncode == 0, procs[-1].stderr
        notes = (work / "judged-rejected.jsonl").read_text(encoding="utf-8")
        assert "[redacted]" in notes

        # the build with the judge in one run, against the same echoing server (every answer an error)
        server.fallback = ["401", "429", "500", "403", "nan"]
        build = tmp_path / "build"
        build.mkdir()
        procs.append(chemref("questions", "build", ROOT / "corpora" / "jats", "-o", "out/q.jsonl", "--min-score",
                             "0", "--judge-endpoint", server.url, "--judge-model", "m", "--judge-min-score", "0",
                             "--no-progress", cwd=build, env=env, timeout=180))
        assert procs[-1].returncode == 1 and "Traceback" not in procs[-1].stderr, procs[-1].stderr
        assert "[redacted]" in (build / "out" / "q.judge-responses.jsonl").read_text(encoding="utf-8")

    # keys and URLs that cannot be used: one line each, showing neither
    bad = tmp_path / "bad"
    bad.mkdir()
    write_requests(bad / "req.jsonl", ["a", "b"])
    for key in (KEY + "\n", KEY + "é", " " + KEY):
        proc = chemref("questions", "judge", "run", "req.jsonl", "--endpoint", "http://127.0.0.1:9/v1", "-o",
                       "o.jsonl", "--no-progress", cwd=bad, env={"OPENAI_API_KEY": key})
        assert_refused(proc, "OPENAI_API_KEY")
        procs.append(proc)
        proc = chemref("questions", "build", ROOT / "corpora" / "jats" / "sample_zinc_knuckle.xml", "-o",
                       "q.jsonl", "--judge-endpoint", "http://127.0.0.1:9/v1", "--judge-model", "m",
                       "--no-progress", cwd=bad, env={"OPENAI_API_KEY": key})
        assert_refused(proc, "OPENAI_API_KEY")
        procs.append(proc)
    for endpoint in (f"http://user:{PASSWORD}@127.0.0.1:9/v1", f"https://{PASSWORD}@example.org/v1",
                     f"http://user:{PASSWORD}@127.0.0.1:99999/v1", f"http://user:{PASSWORD}@[::1/v1"):
        proc = chemref("questions", "judge", "run", "req.jsonl", "--endpoint", endpoint, "-o", "o.jsonl",
                       "--no-progress", cwd=bad, env=env)
        assert_refused(proc, "--endpoint")
        procs.append(proc)
        proc = chemref("questions", "build", ROOT / "corpora" / "jats" / "sample_zinc_knuckle.xml", "-o",
                       "q.jsonl", "--judge-endpoint", endpoint, "--judge-model", "m", "--no-progress", cwd=bad,
                       env=env)
        assert_refused(proc, "--judge-endpoint")
        procs.append(proc)
    assert not (bad / "o.jsonl").exists() and not (bad / "q.jsonl").exists()

    leaks = _leaks(_everything(tmp_path, *procs))
    assert leaks == []


@pytest.mark.parametrize("endpoint, needle", [
    ("http://127.0.0.1:99999/v1", "65535"), ("http://[::1/v1", "not a valid URL"), ("http://h:/v1", "port"),
    ("ftp://h/v1", "http"), ("http:///v1", "host"), ("http://h/v1 x", "spaces")])
def test_an_endpoint_that_cannot_be_used_is_one_line_before_any_request(tmp_path: Path, endpoint: str,
                                                                         needle: str) -> None:
    write_requests(tmp_path / "req.jsonl", ["a"])
    proc = chemref("questions", "judge", "run", "req.jsonl", "--endpoint", endpoint, "-o", "o.jsonl",
                   "--no-progress", cwd=tmp_path)
    assert_refused(proc, "--endpoint", needle)
    assert not (tmp_path / "o.jsonl").exists()


@pytest.mark.parametrize("address", [
    f"tcp://u:{PASSWORD}@127.0.0.1:99999", f"tcp://u:{PASSWORD}@[::1", "tcp://:", "foo://x", "tcp://host:abc",
    "://", "", "tcp://"])
def test_a_dask_address_that_cannot_be_used_is_one_line_without_credentials(tmp_path: Path, address: str) -> None:
    pytest.importorskip("distributed")
    proc = chemref("questions", "build", ROOT / "corpora" / "jats" / "sample_zinc_knuckle.xml", "-o", "q.jsonl",
                   "--dask", address, "--no-progress", cwd=tmp_path, timeout=60)
    assert_refused(proc, "--dask")
    assert PASSWORD not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_dask_scheduler_that_does_not_answer_is_one_line_without_credentials(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    proc = chemref("questions", "build", ROOT / "corpora" / "jats" / "sample_zinc_knuckle.xml", "-o", "q.jsonl",
                   "--dask", f"tcp://u:{PASSWORD}@127.0.0.1:9", "--no-progress", cwd=tmp_path, timeout=120,
                   env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert_refused(proc, "Dask")
    assert PASSWORD not in proc.stderr and not (tmp_path / "q.jsonl").exists()


def test_the_library_refuses_a_key_it_cannot_send() -> None:
    from chemref.errors import InputError
    from chemref.questions.judge.client import run_requests

    with pytest.raises(InputError) as caught:
        run_requests([], "unused.jsonl", endpoint="http://127.0.0.1:9/v1", api_key=KEY + "\n")
    assert KEY not in str(caught.value)


def test_scrub_removes_every_form_of_a_registered_key() -> None:
    import base64
    from urllib.parse import quote

    from chemref._io.secrets import excerpt, register_secret, scrub

    key = "sk-Xw5Pq8-Kt3+Zm7/Rb2=Hn4\n"
    register_secret(key)
    forms = [key, key.strip(), json.dumps(key)[1:-1], repr(key.encode())[2:-1], quote(key, safe=""),
             base64.b64encode(b":" + key.encode()).decode()]
    for form in forms:
        assert "Xw5Pq8" not in scrub(f"before {form} after") and "Kt3+Zm7" not in scrub(f"x{form}x")
    assert scrub("Authorization: Token abc123") == "Authorization: [redacted]"
    assert scrub("see tcp://me:hunter2@host:8786 now") == "see tcp://[redacted]@host:8786 now"
    assert scrub("the token count is 20; basic authentication") == "the token count is 20; basic authentication"
    long = "x" * 1990 + key + "y" * 5000
    cut = excerpt(long.encode())
    assert len(cut) <= 2000 and "Xw5Pq8" not in cut and "\n" not in cut


def test_a_judge_note_from_a_responses_file_is_scrubbed(tmp_path: Path) -> None:
    built = recipes.judge_files(tmp_path / "b")
    for path in built.values():
        shutil.copyfile(path, tmp_path / path.name)

    def echo(rows: list[dict]) -> None:
        rows[0]["response"] = {"status_code": 401, "request_id": "r",
                               "body": {"error": {"message": f"bad key: Bearer {KEY}"}}}
        rows[1]["response"] = None
        rows[1]["error"] = {"code": "connection", "message": f"at http://u:{PASSWORD}@h/v1 with {KEY}"}

    recipes.judge_responses(tmp_path / "responses.jsonl", echo)
    proc = chemref("questions", "judge", "apply", "questions.jsonl", "responses.jsonl", "--rejected",
                   "rejected.jsonl", "-o", "j.jsonl", "--rejected-out", "r.jsonl", cwd=tmp_path, timeout=60,
                   env={"OPENAI_API_KEY": KEY})
    assert proc.returncode == 0, proc.stderr
    written = (tmp_path / "r.jsonl").read_text(encoding="utf-8") + (tmp_path / "j.jsonl").read_text(encoding="utf-8")
    assert "[redacted]" in written
    assert _leaks({"outputs": written, "stderr": proc.stderr, "stdout": proc.stdout}) == []


# -- bounded peers: a body is read as sent, never inflated
# VmHWM: this process's own peak (ru_maxrss would also count the parent's size when it forked this process)
_PEAK = ("import sys\nfrom chemref.cli import main\nstatus = main(sys.argv[1:])\n"
         "peak = next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
         "print(f'peak-kb {peak}', file=sys.stderr)\nsys.exit(status)\n")


@pytest.mark.parametrize("kinds", [["gzip2"], ["bomb", "deflate_bomb"]])
def test_an_encoded_body_is_refused_unread_and_memory_stays_small(tmp_path: Path, kinds: list[str]) -> None:
    items = [f"q{i}" for i in range(16)]
    write_requests(tmp_path / "req.jsonl", items)
    with JudgeServer() as server:
        for n, item in enumerate(items):
            server.plan[item] = [kinds[n % len(kinds)]] * 2
        proc = subprocess.run([sys.executable, "-c", _PEAK, "questions", "judge", "run", "req.jsonl", "--endpoint",
                               server.url, "-o", "o.jsonl", "--concurrency", "8", "--max-retries", "1",
                               "--retry-wait", "0", "--no-progress"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    peak_mb = int(proc.stderr.rsplit("peak-kb ", 1)[1].split()[0]) / 1024
    assert peak_mb < 300, peak_mb
    rows = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 16 and all(row["error"] and "Content-Encoding" in row["error"]["message"] for row in rows)


def test_a_bare_nan_in_a_body_never_makes_the_responses_invalid_json(tmp_path: Path) -> None:
    write_requests(tmp_path / "req.jsonl", ["a", "b"])
    with JudgeServer() as server:
        server.plan = {"a": ["nan", "nan"], "b": ["nan", "ok"]}
        proc = chemref("questions", "judge", "run", "req.jsonl", "--endpoint", server.url, "-o", "o.jsonl",
                       "--max-retries", "1", "--retry-wait", "0", "--no-progress", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    text = (tmp_path / "o.jsonl").read_text(encoding="utf-8")
    from chemref._io.secrets import finite_json

    rows = {row["custom_id"]: row for row in map(finite_json, text.splitlines())}  # strict JSON: no bare NaN
    assert rows["a"]["error"]["code"] == "invalid_json" and rows["b"]["response"]["status_code"] == 200


def test_a_refused_request_body_is_stored_bounded_and_scrubbed() -> None:
    from chemref._io.secrets import register_secret
    from chemref.questions.judge.client import _error_body, _Reply

    register_secret(KEY)
    for body in (json.dumps({"error": {"message": KEY + " " + "x" * 50_000}}).encode(),
                 (KEY + "\n<html>" + "y" * 50_000).encode(), b'{"error": {"message": NaN}}'):
        stored = json.dumps(_error_body(_Reply(401, {}, body)), allow_nan=False)
        assert len(stored) <= 2100 and KEY[:20] not in stored
