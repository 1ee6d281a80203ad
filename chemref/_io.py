"""Small I/O helpers shared by every writer: outputs appear whole or not at all."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterable, Iterator

from chemref.errors import InputError, TooLargeError

__all__ = ["MAX_FILE_ENV", "MAX_LINE_BYTES", "atomic_write", "check_not_input", "check_output", "discard_pending",
           "iter_lines", "max_file_bytes", "read_limited", "regular_file", "write_text", "RunLock",
           "commit_renames", "staged_file"]

#: environment variable that raises (or lowers) the size limit of one input file, in MB
MAX_FILE_ENV = "CHEMREF_MAX_FILE_MB"
#: default largest input file read whole (JSON, JATS XML, .ann, .txt), in bytes
DEFAULT_MAX_FILE_BYTES = 512 * 2**20
#: largest line of a JSON Lines or column file, in characters
MAX_LINE_BYTES = 64 * 2**20

#: errors that only writing raises: the disk or the quota is full, or the file too large for it
_FULL = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name))

#: temporary files of the atomic writes in progress (see :func:`discard_pending`)
_PENDING: set[str] = set()


def max_file_bytes() -> int:
    """The size limit of one input file: ``$CHEMREF_MAX_FILE_MB`` megabytes, else 512 MB."""
    value = os.environ.get(MAX_FILE_ENV)
    if not value:
        return DEFAULT_MAX_FILE_BYTES
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not megabytes > 0:
        raise InputError(f"{MAX_FILE_ENV}={value!r} is not a positive number of megabytes")
    return int(megabytes * 2**20)


def _mb(size: int) -> str:
    return f"{size / 2**20:,.1f} MB"


def regular_file(path: str | os.PathLike[str], error: type[InputError] = InputError) -> os.stat_result:
    """``os.stat(path)`` of a regular file, else ``error`` saying what is there instead.

    Checked before opening, so a FIFO, a device or a socket never blocks a run.
    """
    where = os.fspath(path)
    try:
        info = os.stat(where)
    except FileNotFoundError:
        raise error("no such file", path=where, hint="check the path") from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=where) from None
    if stat.S_ISDIR(info.st_mode):
        raise error("is a folder, expected a file (it is a directory)", path=where)
    if not stat.S_ISREG(info.st_mode):
        raise error("not a regular file (a FIFO, socket or device); chemref reads only regular files",
                    path=where, hint="copy the data into a file first")
    return info


def _too_large(where: str, size: int | None, limit: int, what: str = "the file") -> TooLargeError:
    found = f" ({_mb(size)})" if size is not None else ""
    return TooLargeError(f"{what} is larger than the limit of {_mb(limit)}{found}", path=where,
                         hint=f"if it is genuine, raise the limit with {MAX_FILE_ENV}=<megabytes>")


def read_limited(path: str | os.PathLike[str], limit: int | None = None,
                 error: type[InputError] = InputError) -> bytes:
    """The bytes of the regular file ``path``; :class:`TooLargeError` beyond ``limit`` (default:
    :func:`max_file_bytes`), checked on the size before reading and on the bytes actually read."""
    where = os.fspath(path)
    info = regular_file(where, error)
    cap = max_file_bytes() if limit is None else limit
    if info.st_size > cap:
        raise _too_large(where, info.st_size, cap)
    try:
        with open(where, "rb") as handle:
            data = handle.read(cap + 1)
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=where) from None
    if len(data) > cap:  # the file grew after the stat
        raise _too_large(where, None, cap)
    return data


def line_and_column(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and byte column of ``offset`` in ``data`` (for messages about bytes read whole)."""
    return data.count(b"\n", 0, offset) + 1, offset - data.rfind(b"\n", 0, offset)


def undecodable_line(path: str | os.PathLike[str], encoding: str = "utf-8-sig") -> tuple[int, int] | None:
    """``(line, column)`` (1-based; the column counts bytes) of the first bytes of ``path`` that are not
    ``encoding``, or None. Read line by line in binary, for an error message: text files are decoded in blocks,
    so the decoder's own position says neither."""
    import codecs

    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    decoder.decode(raw)
                except UnicodeDecodeError as exc:
                    return number, exc.start + 1
    except OSError:
        return None
    return None


def not_utf8(path: str | os.PathLike[str], what: str = "not UTF-8 text", hint: str = "save the file as UTF-8",
             encoding: str = "utf-8-sig") -> InputError:
    """The error for a text file with bytes that are not UTF-8, naming the line and the byte (as the column)."""
    line, column = undecodable_line(path, encoding) or (None, None)
    return InputError(what, path=os.fspath(path), line=line, column=column, hint=hint)


def iter_lines(path: str | os.PathLike[str], *, encoding: str = "utf-8-sig",
               max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str]]:
    """``(line_number, line)`` of a text file read one line at a time (CR, LF and CRLF all end a line;
    the line ending is stripped). A line longer than ``max_line`` characters is a :class:`TooLargeError`;
    undecodable bytes are an :class:`InputError` naming the line."""
    where = os.fspath(path)
    regular_file(where)
    number = 0
    try:
        with open(where, encoding=encoding, newline=None) as handle:
            while True:
                try:
                    line = handle.readline(max_line + 1)
                except UnicodeDecodeError:
                    raise not_utf8(where, encoding=encoding) from None
                if not line:
                    return
                number += 1
                if len(line) > max_line and not line.endswith("\n"):
                    raise TooLargeError(f"the line is longer than the limit of {_mb(max_line)}", path=where,
                                        line=number, hint="is this really a line-oriented file?")
                yield number, line.rstrip("\n")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=where) from None


def _cannot_write(target: Path, exc: OSError) -> InputError:
    """An OSError met while creating or finishing ``target``, as a one-line error naming the output."""
    reason = exc.strerror or str(exc)
    hint = "choose another output path"
    if isinstance(exc, PermissionError):
        hint = "choose a folder you can write to"
    elif exc.errno in _FULL:
        hint = "free some space there or write the output elsewhere; the previous output is unchanged"
    return InputError(f"cannot write the output: {reason}", path=str(target), hint=hint)


def _file_mode(target: Path) -> int:
    """Permissions for the finished file: those of the file it replaces, else 0o666 minus the umask
    (a temporary file is created 0o600, which would hide the output from the user's group)."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def check_output(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputError` now if ``path`` can never be written (a folder, or under a file).

    Commands call it before any work, so a long run does not end with an unwritable output.
    """
    target = Path(path)
    if target.is_dir():
        raise InputError("the output path is a folder", path=str(target), hint="give a file name")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"cannot write the output: {parent} is a file, not a folder", path=str(target),
                                 hint="choose another output path")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(f"cannot write the output: no permission to write in {parent}", path=str(target),
                                 hint="choose a folder you can write to")
            return


def check_not_input(output: str | os.PathLike[str] | None, inputs: Iterable[str | os.PathLike[str]], *,
                    label: str = "output") -> None:
    """Raise :class:`InputError` if writing ``output`` would replace one of ``inputs``.

    An input file is matched as the same file (``os.stat`` identity: the same path, a symlink or a hard
    link to it); an input folder is matched when ``output`` is an existing file anywhere inside it. An
    output that does not exist yet cannot replace anything. Commands call it before any work.
    """
    if output is None:
        return
    target = Path(output)
    try:
        out_stat = os.stat(target)
    except (OSError, ValueError):
        return  # nothing there yet (or not even a valid path: check_output reports that)
    resolved: Path | None = None
    for item in inputs:
        try:
            in_stat = os.stat(item)
        except (OSError, ValueError):
            continue  # a missing input is reported by the reader, with its own message
        if os.path.samestat(in_stat, out_stat):
            raise InputError(f"the {label} would overwrite the input {os.fspath(item)!r} (the same file)",
                             path=str(target), hint="write the output to another file")
        if stat.S_ISDIR(in_stat.st_mode):
            if resolved is None:
                resolved = target.resolve()
            if resolved.is_relative_to(Path(item).resolve()):
                raise InputError(f"the {label} would overwrite a file inside the input folder "
                                 f"{os.fspath(item)!r}", path=str(target),
                                 hint="write the output outside the input folders")


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new temporary file ``.<name>.<random>.tmp`` beside ``target``: descriptor and path."""
    return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)


def remove_stale_temporaries(target: str | os.PathLike[str]) -> None:
    """Remove the temporary files that :func:`atomic_write` or :func:`staged_file` left beside ``target`` in a
    run that was killed before it could (call it only while no other run writes ``target``)."""
    import glob

    target = Path(target)
    for path in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file next to ``path``; rename it over ``path`` only if the block succeeds.

    A crash, Ctrl-C or an exception inside the block leaves any earlier ``path`` untouched and no
    half-written file behind. A missing parent folder is created (like ``mkdir -p``). An output that
    cannot be created (a folder in the way, no permission, disk full) raises :class:`InputError`.
    """
    target = Path(path)
    check_output(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temporary_beside(target)
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    _PENDING.add(tmp)
    try:
        binary = "b" in mode
        handle = os.fdopen(fd, mode, encoding=None if binary else encoding, newline=None if binary else newline)
        try:
            try:
                yield handle
            except OSError as exc:
                if exc.errno in _FULL and exc.filename is None:  # a write of the block hit a full disk
                    raise _cannot_write(target, exc) from None
                raise
            try:
                handle.flush()
                if hasattr(os, "fchmod"):  # POSIX
                    os.fchmod(handle.fileno(), _file_mode(target))
                os.fsync(handle.fileno())
            except OSError as exc:
                raise _cannot_write(target, exc) from None
        finally:
            # flushed above when all went well; after a failure, whatever it still buffers goes with the file
            with contextlib.suppress(OSError):
                handle.close()
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise _cannot_write(target, exc) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        _PENDING.discard(tmp)


def discard_pending() -> None:
    """Remove the temporary files of every atomic write still in progress.

    For a process that must stop at once (the CLI on SIGTERM) and cannot unwind its ``with`` blocks.
    """
    for tmp in list(_PENDING):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _PENDING.discard(tmp)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_write(path) as handle:
        handle.write(text)


#: file descriptors of the run locks this process holds (see :func:`_drop_locks_in_child`)
_HELD_LOCKS: set[int] = set()


def _drop_locks_in_child() -> None:
    """In a forked child (a pool worker): close its copies of the run locks' descriptors. An ``flock`` lock
    lasts while any copy is open, so a worker outliving its parent (``kill -9``) would otherwise keep the
    lock and refuse the ``--resume`` run."""
    for fd in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_locks_in_child)


class RunLock:
    """An exclusive lock on ``path`` for the length of one run: a second writer gets :class:`InputError`.

    ``flock`` locks die with their process, so a run killed with ``kill -9`` never leaves a stale lock
    (its empty file stays, and the next run takes it); forked workers do not hold it. A run that ends, well
    or not, removes the lock file while it still holds the lock; a run that opened the file just before is
    then holding a removed file, sees it, and takes the lock again on the path.
    """

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def __enter__(self) -> "RunLock":
        import fcntl

        while True:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise _cannot_write(self.path, exc) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                os.close(fd)
                raise InputError(f"another chemref run is writing {self.what}"
                                 + (f" (process {holder})" if holder else ""), path=str(self.path),
                                 hint="wait for it to finish, or write elsewhere") from None
            if self._is_current(fd):
                break
            os.close(fd)  # the run before removed this file as it ended: lock the one now at the path
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd
        _HELD_LOCKS.add(fd)
        return self

    def _is_current(self, fd: int) -> bool:
        """Whether ``fd`` is still the file at ``self.path`` (not one a finished run removed)."""
        try:
            at_path = os.stat(self.path)
        except OSError:
            return False
        held = os.fstat(fd)
        return (held.st_dev, held.st_ino) == (at_path.st_dev, at_path.st_ino)

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                if self._is_current(self._fd):
                    os.unlink(self.path)  # still held: no other run can be using this file
            _HELD_LOCKS.discard(self._fd)
            os.close(self._fd)  # releases the lock
            self._fd = None


def commit_renames(pairs: list[tuple[Path, Path]]) -> None:
    """Rename every finished temporary file over its output, with SIGINT/SIGTERM held back until all are in
    place, so a signal cannot leave a new output beside old ones (each file is already complete on disk)."""
    import signal

    blockable = hasattr(signal, "pthread_sigmask")
    if blockable:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for tmp, target in pairs:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise _cannot_write(target, exc) from None
            _PENDING.discard(str(tmp))
    finally:
        if blockable:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def staged_file(target: str | os.PathLike[str]) -> Path:
    """A new temporary file beside ``target`` (same folder, so :func:`commit_renames` is a rename), removed by
    :func:`discard_pending` on SIGTERM."""
    target = Path(target)
    check_output(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temporary_beside(target)
        os.close(fd)
        os.chmod(tmp, _file_mode(target))
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    _PENDING.add(tmp)
    return Path(tmp)
