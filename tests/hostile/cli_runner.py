"""Running the CLI on hostile inputs: a subprocess under a 1 GB address-space limit, timed; and the one
assertion every refusal meets (one ``chemref: error:`` line on stderr, exit 2, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "corpora"
PREVIOUS = "previous output\n"

resource = pytest.importorskip("resource")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def chemref(*args: object, cwd: Path, timeout: float = 30.0, env: dict[str, str] | None = None,
            limits: Callable[[], None] = _limit_memory, **popen: Any) -> subprocess.CompletedProcess:
    """``python -m chemref ARGS`` in ``cwd`` (this checkout's code), under a 1 GB address-space limit (``limits``
    sets the child's resource limits: it must keep that one)."""
    environ = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "chemref", *map(str, args)], cwd=cwd, env=environ, text=True,
                          capture_output=True, timeout=timeout, preexec_fn=limits, **popen)
    proc.seconds = time.monotonic() - started  # type: ignore[attr-defined]
    return proc


def assert_refused(proc: subprocess.CompletedProcess, *needles: str) -> None:
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("chemref: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
