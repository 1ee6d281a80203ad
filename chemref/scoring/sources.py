"""Collections of ``.ann`` files to score: a folder (recursive or top level) or a ``.zip`` (Codalab style).

Documents are named by their path relative to the root, without ``.ann``. In a zip, a folder that
wraps every ``.ann`` member (``submission/…``) is stripped, and macOS metadata members are skipped.
"""

from __future__ import annotations

import os
import posixpath
import zipfile
from pathlib import Path

from chemref.brat.decode import decode_ann
from chemref.errors import InputError


def _read_file(path: str) -> bytes:
    """Whole file via ``os.read`` (cheaper than a buffered file object for thousands of small files)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        data = os.read(fd, 1 << 16)
        if len(data) < 1 << 16:
            return data
        parts = [data]
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(parts)
            parts.append(chunk)
    finally:
        os.close(fd)


class AnnSource:
    """Read access to the ``.ann`` (and ``.txt``) files of one folder or zip, by document name."""

    def __init__(self, path: str | os.PathLike[str], *, recursive: bool = True) -> None:
        self.path = str(path)
        self.skipped: list[str] = []   # .ann files left out (subfolders in top-level mode)
        p = Path(path)
        self._zip: zipfile.ZipFile | None = None
        if not p.exists():
            raise InputError("no such file or folder", path=self.path)
        if p.is_dir():
            self.names = self._scan_dir(p, recursive)
        elif zipfile.is_zipfile(p):
            self.names = self._scan_zip(p, recursive)
        else:
            raise InputError("not a folder or a .zip file", path=self.path,
                             hint="give a folder of .ann files or a Codalab-style .zip")

    # -- folders
    def _scan_dir(self, root: Path, recursive: bool) -> dict[str, str]:
        names: dict[str, str] = {}
        stack = [("", str(root))]
        while stack:
            rel, folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError as exc:
                raise InputError(f"cannot list the folder: {exc.strerror or exc}", path=folder) from None
            for entry in entries:
                name = entry.name
                if entry.is_dir():
                    if recursive:
                        stack.append((rel + name + "/", entry.path))
                    elif not name.startswith("."):
                        self._note_subfolder(entry.path)
                elif name.endswith(".ann"):
                    names[rel + name[:-4]] = entry.path
        return names

    def _note_subfolder(self, folder: str) -> None:
        for dirpath, _, files in os.walk(folder):
            self.skipped.extend(os.path.join(dirpath, f) for f in files if f.endswith(".ann"))

    # -- zips
    def _scan_zip(self, path: Path, recursive: bool) -> dict[str, str]:
        try:
            zf = zipfile.ZipFile(path)
        except (OSError, zipfile.BadZipFile) as exc:
            raise InputError(f"cannot open the zip file: {exc}", path=self.path) from None
        self._zip = zf
        members = [m for m in zf.namelist()
                   if m.endswith(".ann") and not m.startswith("__MACOSX/")
                   and not posixpath.basename(m).startswith("._")]
        dirs = {posixpath.dirname(m) for m in members}
        prefix = posixpath.commonpath(list(dirs)) if dirs else ""
        self._zip_prefix = prefix + "/" if prefix else ""
        names: dict[str, str] = {}
        for m in members:
            rel = m[len(self._zip_prefix):]
            if not recursive and "/" in rel:
                self.skipped.append(f"{self.path}:{m}")
                continue
            names[rel[:-4]] = m
        return names

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
                return self._zip.read(where)
            return _read_file(where)
        except (OSError, KeyError, zipfile.BadZipFile) as exc:
            raise InputError(f"cannot read the file: {exc}", path=self.display(name)) from None

    def _txt(self, name: str) -> str | None:
        """Path (or zip member) of the ``.txt`` beside document ``name``; None for an unknown document."""
        where = self.names.get(name)
        return None if where is None else where[:-4] + ".txt"

    def read_text(self, name: str, warnings: list[str] | None = None) -> str | None:
        """The ``.txt`` beside document ``name`` (UTF-8; bad bytes replaced, with a line appended to
        ``warnings`` saying where), or None when there is none."""
        txt = self._txt(name)
        if txt is None:
            return None
        try:
            if self._zip is not None:
                data = self._zip.read(txt)
            else:
                with open(txt, "rb") as handle:
                    data = handle.read()
        except (OSError, KeyError):
            return None
        text, bad = decode_ann(data, path=f"{self.path}:{txt}" if self._zip is not None else txt)
        if warnings is not None:
            warnings.extend(bad)
        return text

    def text_size(self, name: str) -> int | None:
        """Size in bytes of the ``.txt`` beside document ``name``, or None when there is none."""
        txt = self._txt(name)
        if txt is None:
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
            self._zip = zipfile.ZipFile(self.path)

    def close(self) -> None:
        """Close the zip file, if any."""
        if self._zip is not None:
            self._zip.close()

    def __enter__(self) -> "AnnSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
