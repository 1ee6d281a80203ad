"""What the inputs of a command stand for: one streaming rule for files, folders, file lists and PMC packages.

:func:`iter_sources` yields one :class:`Source` per article, in a fixed order, holding at most one folder's
entries (or one package member's bytes) at a time, so a folder tree of millions of articles or a 10 GB
``oa_comm_xml.*.tar.gz`` is never listed whole in memory:

- a JATS file (``*.xml``, ``*.nxml``) is one article;
- a folder is every JATS file under it, subfolders included, sorted by path;
- a PMC Open Access bulk package (``*.tar.gz``, ``*.tgz``, ``*.tar``) is every JATS member, in archive order,
  read by streaming the archive without extracting it. When the package's file list sits beside it
  (``oa_comm_xml.X.filelist.csv`` for ``oa_comm_xml.X.tar.gz``), members whose ``License`` column is not CC BY
  are skipped before parsing (``Source.skip``);
- ``files_from``: a text file naming one input per line (blank lines and ``#`` comments ignored).

``Source.label`` is what a build writes as ``source_file``. It never holds an absolute path of the machine:
a relative input keeps the path as given (``corpus/PMC1.nxml``), an absolute one is named from its last
component (``/data/corpus`` -> ``corpus/PMC1.nxml``), a package member is ``package.tar.gz:member/path.xml``.
"""

from __future__ import annotations

import csv
import os
import tarfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from chemref._io import not_utf8
from chemref.errors import InputError

__all__ = ["SAMPLE_CORPUS", "JATS_SUFFIXES", "PACKAGE_SUFFIXES", "Source", "iter_sources", "expand_inputs",
           "walk_jats", "is_package", "read_file_list", "count_sources", "check_inputs", "sample_corpus",
           "sample_sources", "path_text"]

#: The sample articles shipped with the project (written by the project; CC BY 4.0).
SAMPLE_CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "jats"
#: file name endings read as JATS XML (compared case-insensitively)
JATS_SUFFIXES = (".nxml", ".xml")
#: file name endings read as article packages (tar archives, gzip-compressed or not)
PACKAGE_SUFFIXES = (".tar.gz", ".tgz", ".tar")
#: largest package member read (a JATS article is rarely above a few MB)
MAX_MEMBER_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Source:
    """One input article: a path (or its bytes) and the label written as ``source_file``.

    ``skip`` names a funnel step that rejects the whole article before it is read (``"cc_by"`` for a package
    member whose file list gives another licence); ``error`` is an input that could not be read at all
    (a damaged package: the message says where it stopped).
    """

    path: str | None
    label: str
    data: bytes | None = None
    skip: str | None = None
    error: str | None = None


def is_package(path: str | os.PathLike[str]) -> bool:
    """True for a tar archive of articles (``.tar.gz``, ``.tgz``, ``.tar``)."""
    return str(path).lower().endswith(PACKAGE_SUFFIXES)


def walk_jats(folder: str | os.PathLike[str], _root: str | None = None) -> Iterator[Path]:
    """Every ``*.nxml`` / ``*.xml`` file under ``folder`` (subfolders included), in sorted path order: the one
    folder walk of every command that takes folders.

    One folder's entries are held at a time (the order equals ``sorted(Path(folder).rglob(...))``).
    Symbolic links never lead out of ``folder``: a link to a folder, a link to a file outside it, a broken or
    looping link, a FIFO, socket or device named like an article and a subfolder that cannot be listed are
    left out with a :class:`UserWarning` each (the CLI prints them as warning lines). ``folder`` itself that
    cannot be listed is an :class:`InputError`.
    """
    import stat
    import warnings

    root = _root or os.path.realpath(folder)
    try:
        with os.scandir(folder) as it:
            entries = sorted(((e.name, e.is_dir(follow_symlinks=False), e.is_symlink()) for e in it))
    except OSError as exc:
        if _root is None:
            raise InputError(f"cannot list the folder: {exc.strerror or exc}", path=str(folder)) from None
        warnings.warn(f"{os.fspath(folder)!r}: cannot list the folder ({exc.strerror or exc}); skipped", UserWarning)
        return
    base = Path(folder)
    for name, is_dir, is_link in entries:
        path = base / name
        if is_dir:
            yield from walk_jats(path, root)
            continue
        if not is_link and not name.lower().endswith(JATS_SUFFIXES):
            continue
        try:
            info = os.stat(path)
        except OSError:
            if name.lower().endswith(JATS_SUFFIXES):
                warnings.warn(f"{os.fspath(path)!r}: a broken or looping symbolic link; skipped", UserWarning)
            continue
        if stat.S_ISDIR(info.st_mode):
            warnings.warn(f"{os.fspath(path)!r}: a symbolic link to a folder; not followed", UserWarning)
        elif not name.lower().endswith(JATS_SUFFIXES):
            continue
        elif is_link and not os.path.realpath(path).startswith(root.rstrip(os.sep) + os.sep):
            warnings.warn(f"{os.fspath(path)!r}: a symbolic link to a file outside {os.fspath(folder)!r}; "
                          "not followed", UserWarning)
        elif not stat.S_ISREG(info.st_mode):
            warnings.warn(f"{os.fspath(path)!r}: not a regular file (a FIFO, socket or device); skipped", UserWarning)
        else:
            yield path


def _label(given: str, path: Path | None = None) -> str:
    """``source_file`` for ``path`` found under the input ``given`` (no absolute machine path)."""
    root = Path(given)
    if path is None:
        return path_text(root.name if root.is_absolute() else Path(given).as_posix())
    rel = path.relative_to(root)
    if root.is_absolute():
        return path_text((Path(root.name) / rel).as_posix() if root.name else rel.as_posix())
    return path_text((root / rel).as_posix())


def path_text(name: str) -> str:
    """A file name as text that can be written out: bytes that are not UTF-8 (which Python holds as lone
    surrogates) as ``\\xNN``."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return name


def read_file_list(path: str | os.PathLike[str]) -> Iterator[str]:
    """The inputs named in a ``--files-from`` list, one per line; relative names are taken from the list's
    folder when they do not exist from the working folder. Every missing file is named in one error,
    before any work. The list is read twice (checked, then streamed), never held in memory."""
    missing: list[str] = []
    count = 0
    for number, name in _listed(path):
        if not os.path.exists(name):
            count += 1
            if len(missing) < 5:
                missing.append(f"line {number}: {name}")
    if count:
        shown = "; ".join(missing) + (f"; and {count - 5} more" if count > 5 else "")
        raise InputError(f"{count} listed file(s) do not exist: {shown}", path=str(path),
                         hint="fix the list or remove those lines")
    return (name for _, name in _listed(path))


def _listed(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """``(line number, input)`` of each entry of a file list (see :func:`read_file_list`)."""
    base = Path(path).parent
    try:
        handle = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read the file list: {exc.strerror or exc}", path=str(path)) from None
    number = 0
    with handle:
        try:
            for number, raw in enumerate(handle, start=1):
                name = raw.strip()
                if not name or name.startswith("#"):
                    continue
                if not os.path.exists(name) and not os.path.isabs(name) and (base / name).exists():
                    name = (base / name).as_posix()
                yield number, name
        except UnicodeDecodeError:
            raise not_utf8(path, "the file list is not UTF-8 text", "save it as UTF-8") from None


def _package_licences(package: Path) -> dict[str, str] | None:
    """``{member path: licence}`` from the package's ``.filelist.csv`` beside it, or None when there is none."""
    name = package.name
    for suffix in PACKAGE_SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    listing = package.with_name(name + ".filelist.csv")
    if not listing.is_file():
        return None
    out: dict[str, str] = {}
    with open(listing, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = [h.strip().lower() for h in next(reader, [])]
        try:
            file_col = next(i for i, h in enumerate(header) if "file" in h)
            licence_col = next(i for i, h in enumerate(header) if h.startswith("licen"))
        except StopIteration:
            raise InputError("package file list has no 'Article File' and 'License' columns", path=str(listing),
                             hint="remove the file list to read every member") from None
        for row in reader:
            if len(row) > max(file_col, licence_col):
                out[row[file_col].strip()] = row[licence_col].strip()
    return out


def _is_cc_by(licence: str) -> bool:
    """A file-list licence such as ``CC BY`` or ``CC BY 4.0`` (not NC/ND/SA, not CC0)."""
    words = licence.upper().replace("-", " ").split()
    return words[:2] == ["CC", "BY"] and all(w[:1].isdigit() for w in words[2:])


#: package members read ahead of the article being built (decompression overlaps with the build)
READ_AHEAD = 8


def _read_ahead(items: Iterator[Source], depth: int = READ_AHEAD) -> Iterator[Source]:
    """``items`` produced by a background thread at most ``depth`` ahead: zlib decompresses without the
    GIL, so a package is unpacked on the other core while this one builds the articles already read.
    Errors arrive in order; closing this generator stops the thread and closes ``items``."""
    import queue
    import threading

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


def _package_sources(package: Path, label: str, licences: bool = True) -> Iterator[Source]:
    """Stream a tar archive's JATS members (read ahead in a thread); a damaged archive ends with one error
    Source saying where."""
    return _read_ahead(_package_members(package, label, licences))


def _package_members(package: Path, label: str, use_licences: bool = True) -> Iterator[Source]:
    licences = _package_licences(package) if use_licences else None
    last = None
    done = 0
    try:
        with tarfile.open(package, mode="r|*") as archive:
            for member in archive:
                if not member.isfile() or not member.name.lower().endswith(JATS_SUFFIXES):
                    continue
                member_label = path_text(f"{label}:{member.name}")
                licence = licences.get(member.name) if licences is not None else None
                if licence is not None and not _is_cc_by(licence):
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


def iter_sources(inputs: Iterable[str | os.PathLike[str] | bytes | Source], *,
                 files_from: str | os.PathLike[str] | None = None, licences: bool = True) -> Iterator[Source]:
    """One :class:`Source` per input file of ``inputs`` (then of ``files_from``), in order; see the module doc.
    ``licences=False`` reads every package member whatever its file list says (``chemref jats``).

    Missing paths and folders without articles raise :class:`InputError` when they are reached; call
    :func:`check_inputs` first to fail before any work.
    """
    items: Iterable = inputs
    if files_from is not None:
        items = _chain(inputs, read_file_list(files_from))
    for n, item in enumerate(items):
        if isinstance(item, Source):
            yield item
        elif isinstance(item, (bytes, bytearray)):
            yield Source(None, f"<bytes {n}>", bytes(item))
        else:
            given = os.fspath(item)
            path = Path(given)
            if path.is_dir():
                found = False
                for file in walk_jats(path):
                    found = True
                    yield Source(str(file), _label(given, file))
                if not found:
                    raise InputError("folder holds no .nxml or .xml files", path=given,
                                     hint="give JATS files, folders that hold them, or PMC .tar.gz packages")
            elif path.is_file() and is_package(path):
                yield from _package_sources(path, _label(given), licences)
            elif path.is_file():
                yield Source(given, _label(given))
            else:
                raise InputError("no such file or folder", path=given,
                                 hint="give JATS files, folders that hold them, or PMC .tar.gz packages")


def _chain(first: Iterable, second: Iterable) -> Iterator:
    yield from first
    yield from second


def check_inputs(inputs: Iterable[str | os.PathLike[str] | bytes | Source]) -> None:
    """Raise :class:`InputError` now for an input path that does not exist (before any work)."""
    for item in inputs:
        if isinstance(item, (str, os.PathLike)) and not os.path.exists(item):
            raise InputError("no such file or folder", path=os.fspath(item),
                             hint="give JATS files, folders that hold them, or PMC .tar.gz packages")


def count_sources(inputs: Iterable[str | os.PathLike[str] | bytes | Source], *,
                  files_from: str | os.PathLike[str] | None = None) -> int | None:
    """How many articles :func:`iter_sources` will yield, by listing (not reading); None when a package
    without a file list makes that costly (its members are known only by streaming it)."""
    items = _chain(inputs, read_file_list(files_from) if files_from is not None else ())
    total = 0
    for item in items:
        if isinstance(item, (str, os.PathLike)):
            path = Path(item)
            if path.is_dir():
                total += sum(1 for _ in walk_jats(path))
            elif is_package(path):
                licences = _package_licences(path) if path.is_file() else None
                if licences is None:
                    return None
                total += sum(1 for name in licences if name.lower().endswith(JATS_SUFFIXES))
            else:
                total += 1
        else:
            total += 1
    return total


def expand_inputs(inputs: Iterable[str | os.PathLike[str] | bytes | Source]) -> list[Source]:
    """:func:`iter_sources` as a list (for small inputs; a build streams instead)."""
    return list(iter_sources(inputs))


def sample_corpus() -> Path:
    """The folder of sample articles used when no input is given."""
    if not SAMPLE_CORPUS.is_dir():
        raise InputError("no input given and the sample corpus is not installed", path=str(SAMPLE_CORPUS),
                         hint="give JATS files or folders, or install chemref from its source tree")
    return SAMPLE_CORPUS


def sample_sources() -> Iterator[Source]:
    """The sample articles, named relative to the sample corpus (which the BM25 baseline also searches)."""
    corpus = sample_corpus()
    for path in walk_jats(corpus):
        yield Source(str(path), path.relative_to(corpus).as_posix())

