"""Split a list of documents over forked worker processes (Linux), results merged in input order.

Scoring one document is a pure function of its files, so big collections can use both cores of a
small machine. Children return pickled results through a pipe; the first error (in input order) is
re-raised in the parent with its type, file and line. Anything that makes forking unsafe (no
``os.fork``, other threads running, one core, few documents) falls back to one process.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from typing import Callable, Sequence, TypeVar

from chemref.errors import ChemrefError

T = TypeVar("T")
R = TypeVar("R")

#: below this many documents a fork costs more than it saves
MIN_DOCS_PER_JOB = 500


def auto_jobs(n_items: int) -> int:
    """How many processes to use for ``n_items`` documents when the caller did not say."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 2, n_items // MIN_DOCS_PER_JOB))


def resolve_jobs(jobs: int | None, n_items: int) -> int:
    """``None`` -> 1 process, ``0`` -> :func:`auto_jobs`, otherwise ``jobs`` (at least 1)."""
    if jobs is None:
        return 1
    if jobs == 0:
        return auto_jobs(n_items)
    return max(1, jobs)


def map_chunks(fn: Callable[[Sequence[T]], R], items: Sequence[T], jobs: int,
               child_setup: Callable[[], None] | None = None) -> list[R]:
    """``[fn(chunk) for chunk in chunks]`` with chunk 0 in this process and the others in forked children."""
    if jobs <= 1 or len(items) < 2:
        return [fn(items)]
    n = len(items)
    chunks = [items[k * n // jobs:(k + 1) * n // jobs] for k in range(jobs)]
    children: list[tuple[int, int]] = []
    for chunk in chunks[1:]:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: compute, send, leave without running the parent's cleanup
            os.close(read_fd)
            try:
                if child_setup is not None:
                    child_setup()
                payload = pickle.dumps(("ok", fn(chunk)), protocol=pickle.HIGHEST_PROTOCOL)
            except ChemrefError as exc:
                payload = pickle.dumps(("error", type(exc), exc.message, exc.path, exc.line, exc.hint))
            except BaseException as exc:  # noqa: BLE001 - reported to the parent, which re-raises
                payload = pickle.dumps(("crash", f"{type(exc).__name__}: {exc}"))
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(payload)
            os._exit(0)
        os.close(write_fd)
        children.append((pid, read_fd))
    results: list = []
    try:
        first_error: BaseException | None = None
        try:
            results.append(("ok", fn(chunks[0])))
        except ChemrefError as exc:
            first_error = exc
        for pid, read_fd in children:
            with os.fdopen(read_fd, "rb") as pipe:
                data = pipe.read()
            os.waitpid(pid, 0)
            results.append(pickle.loads(data) if data else ("crash", "worker process died"))
    finally:
        for pid, _ in children:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
    if first_error is not None:
        raise first_error
    out: list[R] = []
    for res in results:
        if res[0] == "error":
            _, cls, message, path, line, hint = res
            raise cls(message, path=path, line=line, hint=hint)
        if res[0] == "crash":
            raise RuntimeError(f"a scoring worker failed: {res[1]}")
        out.append(res[1])
    return out
