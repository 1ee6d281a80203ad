"""Ctrl-C while :func:`chemref.pool.ordered_map` runs workers: raised at a safe point, the pool shut down,
the caller's SIGINT handler back in place."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from chemref.pool import ordered_map

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool forks its workers (Linux)")


def _slow(n: int) -> int:
    time.sleep(0.05)
    return n


@pytest.mark.slow  # asserts a timing
def test_ctrl_c_during_a_pool_raises_keyboard_interrupt_and_restores_the_handler():
    before = signal.getsignal(signal.SIGINT)
    seen: list[int] = []
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for n in ordered_map(_slow, range(10_000), workers=2):
            seen.append(n)
            if n == 5:
                os.kill(os.getpid(), signal.SIGINT)
    assert time.monotonic() - started < 10
    assert seen[:6] == list(range(6)) and len(seen) < 100
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.slow  # asserts a timing
def test_ctrl_c_while_waiting_for_a_result_is_acted_on():
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in ordered_map(time.sleep, [0.2] * 200, workers=2, window=2):
                pass
    finally:
        timer.cancel()
    assert time.monotonic() - started < 10


def test_an_ignored_ctrl_c_stays_ignored():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert list(ordered_map(abs, [-1, -2, -3], workers=2)) == [1, 2, 3]
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_while_the_caller_handles_the_last_result_is_not_lost():
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        for n in ordered_map(abs, [1, 2, 3], workers=2):
            if n == 3:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
    assert signal.getsignal(signal.SIGINT) is before


_KILLED_PARENT = """
import os, sys, time
from chemref._io.lock import RunLock
from chemref.pool import ordered_map

def pid(_):
    time.sleep(0.3)
    return os.getpid()

with RunLock(sys.argv[1], "to out"):
    seen = set()
    for worker in ordered_map(pid, range(10_000), workers=2):
        seen.add(worker)
        if len(seen) == 2:
            print(*seen, flush=True)
            seen.add(None)
"""


@pytest.mark.slow
def test_workers_of_a_parent_killed_with_sigkill_leave_and_do_not_hold_its_lock(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from chemref._io.lock import RunLock

    lock = tmp_path / ".chemref.lock"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_PARENT, str(lock)], stdout=subprocess.PIPE, text=True,
                            env=env)
    try:
        workers = [int(p) for p in proc.stdout.readline().split()]
    finally:
        proc.kill()
        proc.wait()
    alive = workers
    try:
        assert len(workers) == 2
        with RunLock(lock, "to out"):  # the --resume run may start at once
            pass
        deadline = time.monotonic() + 10
        while alive and time.monotonic() < deadline:
            time.sleep(0.1)
            alive = [w for w in workers if _state(w) != "Z"]
        assert not alive, "workers outlived their parent"
    finally:
        for w in alive:
            if _state(w) != "Z":
                os.kill(w, signal.SIGKILL)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_a_task_longer_than_the_interrupt_poll_returns_its_result(monkeypatch):
    import chemref.pool

    monkeypatch.setattr(chemref.pool, "_INTERRUPT_POLL", 0.01)  # Python 3.10: the wait's timeout is not TimeoutError
    assert list(ordered_map(time.sleep, [0.2, 0.1], workers=2)) == [None, None]


@pytest.mark.slow
def test_workers_started_by_a_fork_server_stay_while_their_parent_runs(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    code = ("import multiprocessing, time\n"
            "from chemref.pool import ordered_map\n"
            "if __name__ == '__main__':\n"
            "    multiprocessing.set_start_method('forkserver')\n"
            "    print(list(ordered_map(time.sleep, [0.7] * 4, workers=2)))\n")
    (tmp_path / "main.py").write_text(code, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, str(tmp_path / "main.py")], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[None, None, None, None]", done.stderr
