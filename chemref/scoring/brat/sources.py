"""Collections of ``.ann`` files to score: a folder (recursive or top level) or a ``.zip`` (Codalab style).

Documents are named by their path relative to the root, without ``.ann``. In a zip, a folder that
wraps every ``.ann`` member (``submission/…``) is stripped, and macOS metadata members are skipped.
"""

from __future__ import annotations

import os
import posixpath
import stat
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from chemref._io import megabytes as _mb
from chemref._io import read_regular, regular_file
from chemref.brat.decode import decode_ann, gold_txt
from chemref.errors import ArchiveError, InputError, missing_path_hint
from chemref.inputs.walk import walk_file_paths

__all__ = ["AnnSource", "ZipLimits"]

_MB = 2**20
#: members smaller than this are never refused for their compression ratio (tiny files compress absurdly well)
_RATIO_FLOOR = 1 * _MB
#: what a damaged or unsupported zip member raises while it is read
_ZIP_READ_ERRORS = (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, EOFError, OSError,
                    ValueError)


@dataclass(frozen=True)
class ZipLimits:
    """Size limits for the files a scorer reads (zip members and the files of a folder).

    ``member``: bytes of one uncompressed member (or one file of a folder); ``total``: uncompressed bytes of
    every ``.ann`` and ``.txt`` member of one archive together; ``ratio``: uncompressed / compressed size of
    one member (members under 1 MB are exempt). The defaults fit real submissions with a wide margin.
    """

    member: int = 50 * _MB
    total: int = 1024 * _MB
    ratio: float = 100.0

    def __post_init__(self) -> None:
        for field in ("member", "total", "ratio"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise InputError(f"zip limit {field} must be a positive number, got {value!r}")


def _read_file(path: str, limit: int, follow: bool = True) -> bytes:
    """A file of a folder of ``.ann`` files (see :func:`chemref._io.read_regular`)."""
    return read_regular(path, limit, follow=follow,
                        hint="raise it with --max-member-mb (zip_limits=) if it is genuine")


class AnnSource:
    """Read access to the ``.ann`` (and ``.txt``) files of one folder or zip, by document name.

    Only regular files are read, and never through a symbolic link that leads out of the folder given (an
    ``.ann`` or ``.txt`` linked to a file outside it is left out, as are links to folders); anything left out
    (FIFOs, broken or looping links, linked folders, links in a zip) is listed in :attr:`notes`, without
    what a link points at. Zip member names are read without a leading ``/`` or ``./``, backslashes as
    folder separators (a note); a name with a ``..`` part is an :class:`~chemref.errors.ArchiveError`. A zip is checked
    against ``limits`` (see :class:`ZipLimits`) before any member is read; a damaged, encrypted or
    oversized archive, or one holding a member twice, raises :class:`~chemref.errors.ArchiveError`.
    """

    def __init__(self, path: str | os.PathLike[str], *, recursive: bool = True,
                 limits: ZipLimits | None = None, is_gold: bool = False) -> None:
        self.path = str(path)
        self.is_gold = is_gold  # the gold side: a .txt that is not UTF-8 is an error, as a gold .ann is
        self.limits = limits or ZipLimits()
        self.skipped: list[str] = []   # .ann files left out (subfolders in top-level mode)
        self.notes: list[str] = []     # entries that could not be used (not regular files, linked folders)
        self._refused: set[str] = set()  # .txt paths (or members) never read: links out of the folder, zip links
        self._recursive = recursive
        p = Path(path)
        self._zip: zipfile.ZipFile | None = None
        if not p.exists() and not p.is_symlink():
            raise InputError("no such file or folder", path=self.path, hint=missing_path_hint(self.path))
        if p.is_dir():
            self._root = os.path.realpath(p)
            self.names = self._scan_dir(p, recursive)
            return
        regular_file(p)  # a FIFO or device must not be opened (it would block)
        if zipfile.is_zipfile(p):
            self.names = self._scan_zip(p, recursive)
        else:
            raise InputError("not a folder or a .zip file", path=self.path,
                             hint="give a folder of .ann files or a Codalab-style .zip")

    # -- folders
    def _scan_dir(self, root: Path, recursive: bool) -> dict[str, str]:
        """The ``.ann`` files under ``root`` by name (relative path without ``.ann``), through the one folder
        walk (:func:`chemref.inputs.walk.walk_file_paths`); what it leaves out becomes a note (a ``.txt`` linked
        out of the folder is never read), a subfolder that cannot be listed an :class:`InputError`."""
        names: dict[str, str] = {}
        prefix = os.fspath(root).rstrip(os.sep) + os.sep  # the walk builds every path on root as given
        for path in walk_file_paths(root, (".ann", ".txt"), recursive=recursive, on_skip=self._skipped_entry):
            if path.endswith(".ann"):
                rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, root)
                names[rel[:-4].replace(os.sep, "/")] = path
        return names

    def _skipped_entry(self, kind: str, path: str, detail: str) -> None:
        if kind == "subfolder":
            if not os.path.basename(path).startswith("."):
                self._note_subfolder(path)
        elif kind == "unlistable":
            raise InputError(f"cannot list the folder: {detail}", path=path)
        elif kind == "link-to-folder":
            self.notes.append(f"{path!r}: a symbolic link to a folder; not followed")
        elif kind == "link-out":
            self.notes.append(f"{path!r}: a symbolic link to a file outside {self.path!r}; not followed")
            self._refused.add(path)
        elif path.endswith(".ann"):  # broken-link, not-regular
            self.notes.append(f"{path!r}: not a regular file (a FIFO, socket, device, or a broken or looping "
                              "symbolic link); skipped")

    def _note_subfolder(self, folder: str) -> None:
        for dirpath, _, files in os.walk(folder):
            self.skipped.extend(os.path.join(dirpath, f) for f in files if f.endswith(".ann"))

    # -- zips
    def _scan_zip(self, path: Path, recursive: bool) -> dict[str, str]:
        try:
            zf = zipfile.ZipFile(path)
            infos = zf.infolist()
        except (OSError, zipfile.BadZipFile, ValueError, NotImplementedError, EOFError) as exc:
            raise ArchiveError(f"cannot open the zip file: {exc}", path=self.path,
                               hint="is the archive complete? re-create it with `zip -r`") from None
        self._zip = zf
        try:
            self._check_zip(infos)
        except ArchiveError:
            zf.close()
            raise
        self._note_member_names(infos)
        self._members: list[tuple[str, str]] = []  # (name without a leading / or ./, member)
        for info in infos:
            m = info.filename
            if not m.endswith((".ann", ".txt")) or info.is_dir():
                continue
            if stat.S_ISLNK(info.external_attr >> 16):
                self.notes.append(f"{self.path}:{m!r}: a symbolic link stored in the zip; not read")
                self._refused.add(m)
                continue
            rel = _member_name(m)
            if rel.endswith(".ann") and not rel.startswith("__MACOSX/") and not posixpath.basename(rel).startswith("._"):
                self._members.append((rel, m))
        self._txt_members = {_member_name(i.filename): i.filename for i in infos
                             if i.filename.endswith(".txt") and i.filename not in self._refused}
        dirs = {posixpath.dirname(rel) for rel, _ in self._members}
        prefix = posixpath.commonpath(list(dirs)) if dirs else ""
        self._zip_prefix = prefix + "/" if prefix else ""
        return self._zip_names()

    def _note_member_names(self, infos: list[zipfile.ZipInfo]) -> None:
        """A note for ``.ann``/``.txt`` member names written with backslashes, and one for absolute names."""
        windows = [i.filename for i in infos if "\\" in i.filename and i.filename.endswith((".ann", ".txt"))]
        if windows:
            self.notes.append(f"{self.path}: {len(windows)} member name(s) use backslashes as folder separators "
                              f"(as Windows zip tools write them), e.g. {windows[0]!r}; read as '/'")
        rooted = [i.filename for i in infos if i.filename.replace("\\", "/").startswith("/")
                  and i.filename.endswith((".ann", ".txt"))]
        if rooted:
            mixed = len(rooted) < sum(1 for i in infos if i.filename.endswith((".ann", ".txt")))
            self.notes.append(f"{self.path}: {len(rooted)} member name(s) are absolute (begin with '/'), e.g. "
                              f"{rooted[0]!r}; read relative to the archive"
                              + (", as its other members are" if mixed else ""))

    def _zip_names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        self.skipped = []
        for norm, m in self._members:
            rel = norm[len(self._zip_prefix):]
            if not self._recursive and "/" in rel:
                self.skipped.append(f"{self.path}:{m}")
                continue
            names[rel[:-4]] = m
        return names

    def pair_with(self, other: "AnnSource") -> None:
        """Keep the folder that wraps every ``.ann`` of this zip in the document names when ``other`` (the
        gold, a folder or zip) names its documents with it: ``sub/r001`` pairs with ``sub/r001``.

        Raises :class:`~chemref.errors.InputError` when one folder lies inside the other and the outer one is
        read with its subfolders: the inner folder's ``.ann`` files would be read as documents of both sides
        (a prediction folder unpacked inside the gold folder would add its files to the gold)."""
        _refuse_nested(other, self)
        if self._zip is None or not self._zip_prefix:
            return
        wrapper = self._zip_prefix
        stripped = len(self.names.keys() & other.names.keys())
        self._zip_prefix = ""
        kept = self._zip_names()
        if len(kept.keys() & other.names.keys()) > stripped:
            self.names = kept
        else:
            self._zip_prefix = wrapper
            self.names = self._zip_names()

    def _check_zip(self, infos: list[zipfile.ZipInfo]) -> None:
        """Refuse, before reading anything, an archive whose members we read are duplicated, encrypted
        or beyond the limits (sizes from the central directory, which bounds what zipfile will read)."""
        wanted = [i for i in infos if i.filename.endswith((".ann", ".txt")) and not i.is_dir()]
        outside = [i.filename for i in wanted if ".." in _member_name(i.filename).split("/")]
        if outside:
            raise ArchiveError(f"{len(outside)} member name(s) climb out of the archive with '..', e.g. "
                               f"{outside[0]!r}; they name no document", path=self.path,
                               hint="re-create the archive from inside the submission folder (`cd DIR && zip -r "
                                    "../run.zip .`)")
        twice = [n for n, c in Counter(_member_name(i.filename) for i in wanted).items() if c > 1]
        if twice:
            raise ArchiveError(f"the zip holds {len(twice)} member name(s) more than once, e.g. {twice[0]!r}; "
                               "which one to score is ambiguous", path=self.path,
                               hint="re-create the archive with one member per file")
        lim = self.limits
        total = 0
        for info in wanted:
            where = f"{self.path}:{info.filename}"
            if info.flag_bits & 0x1:
                raise ArchiveError("the member is encrypted", path=where, hint="submit an archive without a password")
            if info.file_size > lim.member:
                raise ArchiveError(f"the member expands to {_mb(info.file_size)}, more than the limit of "
                                   f"{_mb(lim.member)} per member", path=where,
                                   hint="raise it with --max-member-mb (zip_limits=) if the file is genuine")
            if info.file_size > _RATIO_FLOOR and info.file_size > lim.ratio * max(info.compress_size, 1):
                raise ArchiveError(f"the member expands {info.file_size / max(info.compress_size, 1):,.0f} times "
                                   f"(to {_mb(info.file_size)}), more than the limit ratio of {lim.ratio:g}",
                                   path=where, hint="raise it with --max-zip-ratio (zip_limits=) if it is genuine")
            total += info.file_size
        if total > lim.total:
            raise ArchiveError(f"the .ann and .txt members expand to {_mb(total)}, more than the limit of "
                               f"{_mb(lim.total)} per archive", path=self.path,
                               hint="raise it with --max-archive-mb (zip_limits=) if the archive is genuine")

    def _zip_read(self, member: str) -> bytes:
        """A member's bytes; a damaged member is an :class:`ArchiveError` naming it (KeyError: no such member)."""
        assert self._zip is not None
        try:
            with self._zip.open(member) as handle:
                data = handle.read(self.limits.member + 1)
        except KeyError:
            raise
        except _ZIP_READ_ERRORS as exc:
            raise ArchiveError(f"the member is damaged or cannot be read: {exc}", path=f"{self.path}:{member}",
                               hint="re-create the archive") from None
        if len(data) > self.limits.member:  # cannot happen with a consistent central directory
            raise ArchiveError(f"the member expands past the limit of {_mb(self.limits.member)}",
                               path=f"{self.path}:{member}")
        return data

    # -- access
    def display(self, name: str) -> str:
        """A path for messages: the file path, or ``ZIP:member`` for a zip member."""
        where = self.names.get(name, name + ".ann")
        return f"{self.path}:{where}" if self._zip is not None else where

    def read_bytes(self, name: str) -> bytes:
        """The bytes of document ``name``'s ``.ann``."""
        where = self.names[name]
        try:
            if self._zip is not None:
                return self._zip_read(where)
            return _read_file(where, self.limits.member, follow=os.path.islink(where))
        except (OSError, KeyError) as exc:
            raise InputError(f"cannot read the file: {exc}", path=self.display(name)) from None

    def _txt(self, name: str) -> str | None:
        """Path (or zip member) of the ``.txt`` beside document ``name``; None for an unknown document."""
        where = self.names.get(name)
        if where is None:
            return None
        if self._zip is not None:  # the member beside the .ann, named as it is stored
            return self._txt_members.get(_member_name(where)[:-4] + ".txt", where[:-4] + ".txt")
        return where[:-4] + ".txt"

    def read_text(self, name: str, warnings: list[str] | None = None) -> str | None:
        """The ``.txt`` beside document ``name`` (UTF-8; bad bytes replaced, with a line appended to
        ``warnings`` saying where), or None when there is none. A gold side's ``.txt`` must be UTF-8
        throughout (:func:`~chemref.brat.decode.gold_txt`: a :class:`~chemref.errors.BratError` otherwise)."""
        txt = self._txt(name)
        if txt is None or txt in self._refused:
            return None
        try:
            if self._zip is not None:
                data = self._zip_read(txt)
            else:
                data = _read_file(txt, self.limits.member, follow=os.path.islink(txt))
        except (OSError, KeyError):
            return None
        except InputError as exc:  # not a regular file, too large
            if warnings is not None:
                warnings.append(f"{exc}; the text is not used")
            return None
        where = f"{self.path}:{txt}" if self._zip is not None else txt
        if self.is_gold:
            return gold_txt(data, path=where)
        text, bad = decode_ann(data, path=where)
        if warnings is not None:
            warnings.extend(bad)
        return text

    def text_size(self, name: str) -> int | None:
        """Size in bytes of the ``.txt`` beside document ``name``, or None when there is none."""
        txt = self._txt(name)
        if txt is None or txt in self._refused:
            return None
        try:
            if self._zip is not None:
                return self._zip.getinfo(txt).file_size
            return os.stat(txt).st_size
        except (OSError, KeyError):
            return None

    def reopen(self) -> None:
        """Open a fresh zip handle (a forked worker must not share the parent's file position)."""
        if self._zip is not None:
            try:
                self._zip = zipfile.ZipFile(self.path)
            except (OSError, zipfile.BadZipFile) as exc:
                raise ArchiveError(f"cannot open the zip file again: {exc}", path=self.path) from None

    def close(self) -> None:
        """Close the zip file, if any."""
        if self._zip is not None:
            self._zip.close()

    def __enter__(self) -> "AnnSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _refuse_nested(gold: AnnSource, pred: AnnSource) -> None:
    """:meth:`AnnSource.pair_with`'s check that neither folder is read as part of the other."""
    for outer, inner, outer_side, inner_side in ((gold, pred, "gold", "prediction"),
                                                 (pred, gold, "prediction", "gold")):
        if outer._zip is not None or inner._zip is not None or not outer._recursive:
            continue
        if inner._root != outer._root and inner._root.startswith(outer._root.rstrip(os.sep) + os.sep):
            raise InputError(f"the {inner_side} folder is inside the {outer_side} folder {outer.path!r}: its "
                             f".ann files would be read as {outer_side} documents too", path=inner.path,
                             hint=f"move it out of the {outer_side} folder, or give it as a .zip")


def _member_name(member: str) -> str:
    """A zip member's name without empty or ``.`` parts (a leading ``/``, ``./``, doubled slashes), backslashes
    read as folder separators (as Windows zip tools write them, and as ``unzip`` reads them)."""
    member = member.replace("\\", "/")
    if not member.startswith(("/", "./")) and "//" not in member and "/./" not in member:
        return member
    return "/".join(part for part in member.split("/") if part not in ("", "."))
