"""The one process-pool helper: the JATS reader, the question builder and the scorers run their work here.

- :func:`ordered_map` streams ``fn(item)`` over any iterable, in input order, with a bounded number of
  tasks in flight (memory does not grow with the number of items);
- :func:`map_chunks` splits a list into one chunk per forked process (for work whose per-process setup
  is costly and whose inputs should not be pickled, as the scorers do).

Errors raised in a worker arrive in the parent with their type (:class:`~chemref.errors.ChemrefError`
pickles whole). Workers ignore Ctrl-C: the parent acts on it between results (never inside the pool's own
locks), cancels the queued work and waits for the running tasks.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections import deque
from typing import TYPE_CHECKING, Callable, Generic, Iterable, Iterator, Sequence, TypeVar

from chemref.errors import ChemrefError, WorkerError

if TYPE_CHECKING:
    from concurrent.futures import Future
import signal
import time

__all__ = ["ordered_map", "map_chunks", "auto_jobs", "resolve_jobs", "cap_workers", "usable_cpus", "MIN_DOCS_PER_JOB",
           "MAX_WORKERS_PER_CPU", "WorkerError"]

T = TypeVar("T")
R = TypeVar("R")

#: below this many documents a fork costs more than it saves (map_chunks)
MIN_DOCS_PER_JOB = 500
#: the most processes a pool starts per usable CPU, whatever is asked: more only add forks and memory
MAX_WORKERS_PER_CPU = 4


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cap_workers(workers: int, tasks: int | None = None) -> int:
    """The processes a pool starts for ``workers`` asked: at least 1, at most ``tasks`` (when the number of
    tasks is known) and at most :data:`MAX_WORKERS_PER_CPU` per usable CPU."""
    capped = min(workers, MAX_WORKERS_PER_CPU * usable_cpus())
    if tasks is not None:
        capped = min(capped, tasks)
    return max(1, capped)


class _Init:
    """Pool initializer: ignore Ctrl-C (the parent's to handle), leave when the parent has gone, then run
    the caller's set-up."""

    def __init__(self, setup: Callable[[], None] | None) -> None:
        self.setup = setup
        # the process whose end ends the workers: this one when it forks them; else their own parent (this
        # one again with "spawn", a fork server that ends with this one with "forkserver")
        import multiprocessing  # (loaded only when work goes to processes)

        self.parent = os.getpid() if multiprocessing.get_start_method() == "fork" else None

    def __call__(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        parent = os.getppid() if self.parent is None else self.parent
        threading.Thread(target=_leave_with, args=(parent,), name="chemref-parent-watch", daemon=True).start()
        if self.setup is not None:
            self.setup()


#: how often a worker looks whether its parent is still there (seconds)
_PARENT_POLL = 0.5


def _leave_with(parent: int) -> None:
    """In a worker: exit once the parent process has gone (killed with ``kill -9``, nothing told the workers;
    they would otherwise wait for work for ever, holding their memory)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL)
    os._exit(1)


class _Chunk(Generic[T, R]):
    """``[fn(item) for item in chunk]`` in a worker: one task, one pickled round trip for several items."""

    def __init__(self, fn: Callable[[T], R]) -> None:
        self.fn = fn

    def __call__(self, chunk: list[T]) -> list[R]:
        return [self.fn(item) for item in chunk]


def _started() -> None:
    """The no-op task that makes the pool start its workers."""


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def ordered_map(fn: Callable[[T], R], items: Iterable[T], *, workers: int = 1,
                initializer: Callable[[], None] | None = None, window: int | None = None,
                chunk: int = 1, total: int | None = None) -> Iterator[R]:
    """Yield ``fn(item)`` for each item, in input order; ``workers > 1`` runs ``fn`` in that many processes
    with at most ``window`` (default ``4 * workers``) tasks of ``chunk`` items each submitted and not yet
    yielded. The processes are capped (:func:`cap_workers`) at the number of tasks, when ``items`` has a
    length or ``total`` says how many items there are, and at a few per CPU.

    ``fn`` and the items must be picklable. ``items`` is consumed lazily (a generator over millions of
    files is fine). ``chunk > 1`` sends items to the workers that many at a time (fewer, larger round
    trips when one item takes milliseconds). An exception from ``fn`` is raised when its item's turn comes
    (its chunk's, with ``chunk > 1``); an error, Ctrl-C or an abandoned generator drops the queued work
    without finishing it.
    """
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    workers = cap_workers(workers, None if total is None else -(-total // max(1, chunk)))
    if workers <= 1:
        for item in items:
            yield fn(item)
        return

    from concurrent.futures import ProcessPoolExecutor  # (loaded only when work goes to processes)

    window = window or 4 * workers
    interrupt = _DeferredInterrupt()
    try:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_Init(initializer))
        pending: deque = deque()
        task = _Chunk(fn)
        # every worker forks now, before the first item is read (an input read ahead in a thread, such as a
        # package being unpacked, must not be running when the workers fork)
        pool.submit(_started)
        try:
            for group in _chunks(items, max(1, chunk)):
                interrupt.check()
                pending.append(pool.submit(task, group))
                if len(pending) >= window:
                    yield from _result(pending.popleft(), interrupt)
            while pending:
                yield from _result(pending.popleft(), interrupt)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
    finally:
        interrupt.restore()
    interrupt.check()  # a Ctrl-C while the caller handled the last results, or while the pool shut down


class _DeferredInterrupt:
    """Ctrl-C while a pool runs: a flag, turned into ``KeyboardInterrupt`` by :func:`ordered_map` at a safe point.

    Raised where the signal lands, ``KeyboardInterrupt`` can leave a lock of ``concurrent.futures`` held
    (a future's condition taken but never released), and shutting the pool down then waits forever. A
    second Ctrl-C raises at once. A worker forked before its initializer has run ignores Ctrl-C here too.
    Nothing is installed outside the main thread, or when Ctrl-C is already ignored.
    """

    def __init__(self) -> None:
        self.requested = False
        self.pid = os.getpid()
        self.installed = (threading.current_thread() is threading.main_thread()
                          and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)
        if self.installed:
            self.previous = signal.signal(signal.SIGINT, self._on_sigint)

    def _on_sigint(self, signum: int, frame: object) -> None:
        if os.getpid() != self.pid:  # a worker not yet initialised: Ctrl-C is the parent's
            return
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def check(self) -> None:
        if self.requested:
            raise KeyboardInterrupt

    def restore(self) -> None:
        if self.installed:
            signal.signal(signal.SIGINT, self.previous if self.previous is not None else signal.SIG_DFL)
            self.installed = False


#: how often a wait for a worker's result looks for a deferred Ctrl-C (seconds)
_INTERRUPT_POLL = 0.2


def _result(future: Future, interrupt: _DeferredInterrupt) -> list:
    """A task's results, waiting in short steps so that a deferred Ctrl-C is acted on promptly."""
    from concurrent.futures import BrokenExecutor
    from concurrent.futures import TimeoutError as ResultTimeout  # not the built-in one before Python 3.11

    while True:
        interrupt.check()
        try:
            return future.result(timeout=_INTERRUPT_POLL)
        except ResultTimeout:
            continue
        except BrokenExecutor:
            raise WorkerError() from None


def auto_jobs(n_items: int) -> int:
    """How many processes to use for ``n_items`` documents when the caller did not say."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork") or threading.active_count() > 1:
        return 1
    return max(1, min(usable_cpus(), 2, n_items // MIN_DOCS_PER_JOB))


def resolve_jobs(jobs: int | None, n_items: int) -> int:
    """``None`` -> 1 process, ``0`` -> :func:`auto_jobs`, otherwise ``jobs`` capped by :func:`cap_workers`."""
    if jobs is None:
        return 1
    if jobs == 0:
        return auto_jobs(n_items)
    return cap_workers(jobs, n_items)


def _child(read_fd: int, write_fd: int, fn: Callable[[Sequence[T]], R], chunk: Sequence[T],
           child_setup: Callable[[], None] | None) -> None:
    """In a forked child: ``fn(chunk)`` sent to the parent through the pipe; always ends with ``os._exit``,
    whatever fails (even sending: the parent may have gone), so the child never runs the caller's code."""
    status = 0
    try:
        os.close(read_fd)
        try:
            if child_setup is not None:
                child_setup()
            payload = pickle.dumps(("ok", fn(chunk)), protocol=pickle.HIGHEST_PROTOCOL)
        except ChemrefError as exc:
            # without the exception it was raised while handling: picklers that keep __context__ (tblib's,
            # which Dask installs) would pickle that too, and it may not pickle
            exc.__context__ = exc.__cause__ = exc.__traceback__ = None
            payload = pickle.dumps(("error", exc))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which re-raises
            payload = pickle.dumps(("crash", f"{type(exc).__name__}: {exc}"))
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(payload)
    except BaseException:  # noqa: BLE001 - nothing can be reported: the parent sees a child that died
        status = 1
    finally:
        os._exit(status)


def _stop(children: list[tuple[int, int]]) -> None:
    """Kill and reap the forked children still listed, and close their pipes."""
    for pid, read_fd in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if read_fd >= 0:
            try:
                os.close(read_fd)
            except OSError:
                pass
    for pid, _ in children:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def map_chunks(fn: Callable[[Sequence[T]], R], items: Sequence[T], jobs: int,
               child_setup: Callable[[], None] | None = None) -> list[R]:
    """``[fn(chunk) for chunk in chunks]`` with chunk 0 in this process and the others in forked children
    (Linux; the children inherit the parent's state, so nothing but the results is pickled)."""
    jobs = cap_workers(jobs, len(items))
    if jobs <= 1:
        return [fn(items)]
    n = len(items)
    chunks = [items[k * n // jobs:(k + 1) * n // jobs] for k in range(jobs)]
    children: list[tuple[int, int]] = []
    try:
        for chunk in chunks[1:]:
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # child: compute, send, leave: never returns into the caller's code
                _child(read_fd, write_fd, fn, chunk, child_setup)
            os.close(write_fd)
            children.append((pid, read_fd))
        first_error: BaseException | None = None
        results: list = []
        try:
            results.append(("ok", fn(chunks[0])))
        except ChemrefError as exc:
            first_error = exc
        while children:
            pid, read_fd = children[0]
            children[0] = (pid, -1)  # the pipe is closed by the read below, whatever happens
            with os.fdopen(read_fd, "rb") as pipe:
                data = pipe.read()
            os.waitpid(pid, 0)
            children.pop(0)
            results.append(pickle.loads(data) if data else ("died", None))
    except BaseException:
        _stop(children)  # any failure here (not only a ChemrefError): no child outlives it unreaped
        raise
    if first_error is not None:
        raise first_error
    out: list[R] = []
    for res in results:
        if res[0] == "error":
            raise res[1]
        if res[0] == "died":
            raise WorkerError()
        if res[0] == "crash":
            raise RuntimeError(f"a worker process failed: {res[1]}")
        out.append(res[1])
    return out
