"""A server whose bodies never end (chunked, or without Content-Length, until the client hangs up) costs memory
bounded by the concurrency, not by the number of requests: 300 requests at concurrency 8 stay under 300 MB of
peak resident memory, whether the endless body comes with a refusal (read only as far as its excerpt) or with
a 200 (read up to the size limit, then dropped)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.cli_runner import ROOT

pytest.importorskip("httpx")
resource = pytest.importorskip("resource")

SCRIPT = r'''
import socket, sys, threading
from chemref.questions.judge.client import Request, run_requests

status, framing, output = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
chunk = b"x" * 65536


def endless(conn):
    try:
        conn.recv(65536)
        framing_header = b"Transfer-Encoding: chunked" if framing == "chunked" else b"Connection: close"
        conn.sendall(b"HTTP/1.1 " + status + b" Whatever\r\n" + framing_header + b"\r\n\r\n")
        piece = b"%x\r\n" % len(chunk) + chunk + b"\r\n" if framing == "chunked" else chunk
        while True:
            conn.sendall(piece)
    except OSError:
        pass
    finally:
        conn.close()


server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(64)


def accept():
    while True:
        conn, _ = server.accept()
        threading.Thread(target=endless, args=(conn,), daemon=True).start()


threading.Thread(target=accept, daemon=True).start()
requests = [Request(f"r{i}", "/v1/chat/completions", {"model": "m", "messages": []}) for i in range(300)]
summary = run_requests(requests, output, endpoint=f"http://127.0.0.1:{server.getsockname()[1]}", concurrency=8,
                       max_retries=0, first_wait=0, progress=False, timeout=60)
# VmHWM: this process's own peak (ru_maxrss would also count the parent's size when it forked this process)
with open("/proc/self/status", encoding="ascii") as status_file:
    peak_kb = next(int(line.split()[1]) for line in status_file if line.startswith("VmHWM:"))
print(sum(summary.failed.values()), peak_kb // 1024)
'''


@pytest.mark.parametrize(("status", "framing"), [("500", "chunked"), ("503", "close"), ("200", "close")])
def test_memory_does_not_grow_with_the_requests(tmp_path: Path, status: str, framing: str) -> None:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, status, framing, str(tmp_path / "out.jsonl")],
                          cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0, proc.stderr
    failed, peak_mb = map(int, proc.stdout.split())
    assert failed == 300
    assert peak_mb < 300, f"peak resident memory {peak_mb} MB for 300 endless bodies"
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 300
