"""PMC Open Access bulk packages (``*.tar.gz``, ``*.tgz``, ``*.tar``): every JATS member, in archive order,
streamed without extracting the archive (members whose file-list licence is not CC BY are skipped unread)."""

from __future__ import annotations

import queue
import tarfile
import threading
import zlib
from pathlib import Path
from typing import Iterator

from chemref.inputs.kinds import JATS_SUFFIXES
from chemref.inputs.package_lists import package_licences
from chemref.inputs.source import Source, path_text
from chemref.licence import is_cc_by_name

__all__ = ["MAX_MEMBER_BYTES", "READ_AHEAD", "package_sources"]

#: largest package member read (a JATS article is rarely above a few MB)
MAX_MEMBER_BYTES = 256 * 1024 * 1024


#: package members read ahead of the article being built (decompression overlaps with the build)
READ_AHEAD = 8


def _read_ahead(items: Iterator[Source], depth: int = READ_AHEAD) -> Iterator[Source]:
    """``items`` produced by a background thread at most ``depth`` ahead: zlib decompresses without the
    GIL, so a package is unpacked on the other core while this one builds the articles already read.
    Errors arrive in order; closing this generator stops the thread and closes ``items``."""
    channel: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry: tuple[str, object]) -> bool:
        while not stop.is_set():
            try:
                channel.put(entry, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(("item", item)):
                    return
            put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the consumer, in order
            put(("error", exc))
        finally:
            close = getattr(items, "close", None)
            if close is not None:
                close()

    thread = threading.Thread(target=produce, name="chemref-package-reader", daemon=True)
    thread.start()
    try:
        while True:
            kind, value = channel.get()
            if kind == "item":
                yield value  # type: ignore[misc]
            elif kind == "end":
                return
            else:
                raise value  # type: ignore[misc]
    finally:
        stop.set()
        # bounded: a Ctrl-C that lands just after this generator took the queue's lock leaves the lock held, and the
        # reader (a daemon thread) would then wait for it forever
        thread.join(timeout=_READER_JOIN)


#: seconds to wait for the package reader to stop once its consumer has gone
_READER_JOIN = 5.0


def package_sources(package: Path, label: str, licences: bool = True) -> Iterator[Source]:
    """Stream a tar archive's JATS members (read ahead in a thread); a damaged archive ends with one error
    Source saying where."""
    return _read_ahead(_package_members(package, label, licences))


_MEMBER_KINDS = {tarfile.CHRTYPE: "character device", tarfile.BLKTYPE: "block device", tarfile.FIFOTYPE: "FIFO"}


def _not_a_file(member_label: str, member: tarfile.TarInfo) -> str:
    """Why a package member named like an article is not read: a link (streamed, its target has gone by) or
    another member that holds no file (a device, a FIFO, a type tar does not know)."""
    if member.islnk() or member.issym():
        kind = "hard link" if member.islnk() else "symbolic link"
        return (f"{member_label}: a {kind} to {path_text(member.linkname)!r} in the package; not read (its "
                "target is read under its own name)")
    kind = _MEMBER_KINDS.get(member.type) or f"member of type {member.type!r}"
    return f"{member_label}: a {kind} in the package, not a file; not read"


def _package_members(package: Path, label: str, use_licences: bool = True) -> Iterator[Source]:
    licences = package_licences(package) if use_licences else None
    last = None
    done = 0
    seen: set[str] = set()  # the article members' names so far: a name met again is not read
    try:
        with tarfile.open(package, mode="r|*") as archive:
            for member in archive:
                if not member.name.lower().endswith(JATS_SUFFIXES) or member.isdir():
                    continue  # a folder's members come as members of their own, as in a folder walk
                member_label = path_text(f"{label}:{member.name}")
                if not member.isfile():  # named like an article but no file: said, never dropped quietly
                    yield Source(None, member_label, error=_not_a_file(member_label, member), stops=False)
                    continue
                licence = licences.get(member.name) if licences is not None else None
                if member.name in seen:  # tar keeps both; extracting would keep the last: neither is clear
                    yield Source(None, member_label, error=f"{member_label}: a second member of this name in the "
                                 "package; not read (the first one is)", stops=False)
                    continue
                seen.add(member.name)
                if licence is not None and not is_cc_by_name(licence):
                    last = member.name
                    done += 1
                    yield Source(None, member_label, skip="cc_by")
                    continue
                if member.size > MAX_MEMBER_BYTES:
                    yield Source(None, member_label, error=f"{member_label}: member of {member.size} bytes is "
                                 f"larger than the {MAX_MEMBER_BYTES >> 20} MB limit for one article")
                    continue
                handle = archive.extractfile(member)
                data = handle.read() if handle is not None else b""
                last = member.name
                done += 1
                yield Source(None, member_label, data)
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        where = f"after {done} complete article(s), the last {last}" if last else "before its first article"
        reason = str(exc) or type(exc).__name__
        yield Source(None, label, error=f"{label}: damaged or truncated package, stopped {where} ({reason})")
