"""PMC Open Access bulk packages (``*.tar.gz``, ``*.tgz``, ``*.tar``): every JATS member, in archive order,
streamed without extracting the archive (members whose file-list licence is not CC BY are skipped unread).

A compressed stream cannot skip a member without inflating it, so what a package may inflate to is bounded:
:data:`MAX_INFLATION` times its size on disk (at least :data:`MIN_INFLATED_BYTES`). The first member that would
take it past that bound ends the package with an error naming the member (a decompression bomb); members
before it are read. A member over :data:`MAX_MEMBER_BYTES` within the bound is refused and skipped. Members named
like articles that hold no file (a FIFO, a device) are named in a warning and are not articles given; a link is
an article given under another name, read under its target's name (an error row of its own); a folder is
structure only (its files are members of their own)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import queue
import tarfile
import threading
import warnings
import zlib
from pathlib import Path
from typing import Iterator

from chemref.inputs.contained import MAX_NAME_CHARS
from chemref.inputs.kinds import JATS_SUFFIXES
from chemref.inputs.package_lists import package_licences
from chemref.inputs.source import Source, path_text
from chemref.inputs.tar_headers import BoundedTarInfo, TarHeaderError, shown_name
from chemref.licence import is_cc_by_name

__all__ = ["MAX_INFLATION", "MAX_MEMBER_BYTES", "MIN_INFLATED_BYTES", "READ_AHEAD", "package_sources"]

#: largest package member read (a JATS article is rarely above a few MB)
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: most a package inflates to, as a multiple of its size on disk (XML packages inflate 4 to 10 times)
MAX_INFLATION = 200
#: what any package may inflate to, whatever its size on disk
MIN_INFLATED_BYTES = 1024 * 1024 * 1024


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
        return (f"{member_label}: a {kind} to {path_text(shown_name(member.linkname))!r} in the package; not read (its "
                "target is read under its own name)")
    kind = _MEMBER_KINDS.get(member.type) or f"member of type {member.type!r}"
    return f"{member_label}: a {kind} in the package, not a file; not read"


def _decompressed(raw) -> object:  # type: ignore[no-untyped-def]
    """The tar stream inside ``raw`` (an open binary file), decompressed by C code in large reads."""
    magic = raw.read(6)
    raw.seek(0)
    if magic[:2] == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if magic[:3] == b"BZh":
        return bz2.BZ2File(raw, mode="rb")
    if magic == b"\xfd7zXZ\x00":
        return lzma.LZMAFile(raw, mode="rb")
    return raw


def _package_members(package: Path, label: str, use_licences: bool = True) -> Iterator[Source]:
    licences = package_licences(package) if use_licences else None
    last = None
    done = 0
    seen: set[str] = set()  # the article members' names so far: a name met again is not read
    try:
        with open(package, "rb") as raw:
            bound = max(MIN_INFLATED_BYTES, MAX_INFLATION * os.fstat(raw.fileno()).st_size)
            # "r:" over the decompressed file, not tarfile's stream mode: its buffer copies up to ``bufsize`` bytes
            # per member header and skips a member's data 10 kB at a time; seeks here only go forward
            with tarfile.open(fileobj=_decompressed(raw), mode="r:",  # type: ignore[call-overload]
                              tarinfo=BoundedTarInfo) as archive:
                for member in archive:
                    archive.members.clear()  # every member seen stays listed otherwise: memory per member
                    if member.offset_data + member.size > bound:
                        member_label = _member_label(label, member)
                        yield Source(None, member_label, error=_bomb(member_label, member, bound, done, last))
                        return
                    for source in _member(archive, member, label, licences, seen):
                        if source.error is None:
                            last = member.name
                            done += 1
                        yield source
    except TarHeaderError as exc:
        yield Source(None, label, error=f"{label}: {exc}; stopped {_where(done, last)}, the rest of the package is "
                     "not read")
    except (tarfile.TarError, EOFError, zlib.error, lzma.LZMAError, OSError) as exc:
        where = _where(done, last)
        reason = str(exc) or type(exc).__name__
        yield Source(None, label, error=f"{label}: damaged or truncated package, stopped {where} ({reason})")


def _where(done: int, last: str | None) -> str:
    """Where a package stopped: after how many articles, the last one named."""
    return f"after {done} complete article(s), the last {shown_name(last)}" if last else "before its first article"


def _member_label(label: str, member: tarfile.TarInfo) -> str:
    """The label of a package member (its name cut short in a message when it is too long to be read)."""
    return path_text(f"{label}:{shown_name(member.name) if len(member.name) > MAX_NAME_CHARS else member.name}")


def _bomb(member_label: str, member: tarfile.TarInfo, bound: int, done: int, last: str | None) -> str:
    where = _where(done, last)
    return (f"{member_label}: a member of {member.size:,} bytes would inflate the package past {bound:,} bytes "
            f"({MAX_INFLATION} times its size on disk): a decompression bomb; stopped {where}, the rest of the "
            "package is not read")


def _member(archive: tarfile.TarFile, member: tarfile.TarInfo, label: str, licences: dict[str, str] | None,
            seen: set[str]) -> Iterator[Source]:
    """The Source of one package member named like an article (nothing for other members)."""
    if not member.name.lower().endswith(JATS_SUFFIXES):
        return
    member_label = _member_label(label, member)
    if member.isdir():
        return  # structure only: the folder's files are members of their own
    if len(member.name) > MAX_NAME_CHARS:
        yield Source(None, member_label, error=f"{member_label}: a member name of {len(member.name):,} characters, "
                     f"longer than the limit of {MAX_NAME_CHARS:,}; not read", stops=False)
        return
    if not (member.isfile() or member.islnk() or member.issym()):
        # named like an article but holds no file: said, never dropped quietly, and no article given
        warnings.warn(_not_a_file(member_label, member), UserWarning, stacklevel=2)
        return
    if not member.isfile():  # a link: an error row of its own
        yield Source(None, member_label, error=_not_a_file(member_label, member), stops=False)
        return
    if member.name in seen:  # tar keeps both; extracting would keep the last: neither is clear
        yield Source(None, member_label, error=f"{member_label}: a second member of this name in the "
                     "package; not read (the first one is)", stops=False)
        return
    seen.add(member.name)
    licence = licences.get(member.name) if licences is not None else None
    if licence is not None and not is_cc_by_name(licence):
        yield Source(None, member_label, skip="cc_by")
        return
    if member.size > MAX_MEMBER_BYTES:
        yield Source(None, member_label, error=f"{member_label}: member of {member.size} bytes is "
                     f"larger than the {MAX_MEMBER_BYTES >> 20} MB limit for one article")
        return
    handle = archive.extractfile(member)
    yield Source(None, member_label, handle.read() if handle is not None else b"")
