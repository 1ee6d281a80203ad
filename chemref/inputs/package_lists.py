"""A PMC package's file list (``oa_comm_xml.X.filelist.csv`` beside ``oa_comm_xml.X.tar.gz``): the licence
of each member, read before the package is streamed."""

from __future__ import annotations

import csv
import os
from pathlib import Path

from chemref._io import not_utf8, regular_file
from chemref.errors import InputError, printable
from chemref.inputs.kinds import PACKAGE_SUFFIXES

__all__ = ["package_licences"]


def package_licences(package: Path) -> dict[str, str] | None:
    """``{member path: licence}`` from the package's ``.filelist.csv`` beside it, or None when there is none."""
    name = package.name
    for suffix in PACKAGE_SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    listing = package.with_name(name + ".filelist.csv")
    if not os.path.lexists(listing):
        return None
    regular_file(listing)  # a FIFO or a device named like the file list would block the run
    out: dict[str, str] = {}
    hint = "fix or remove the file list to read every member"
    with open(listing, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        try:
            header = [h.strip().lower() for h in next(reader, [])]
            try:
                file_col = next(i for i, h in enumerate(header) if "file" in h)
                licence_col = next(i for i, h in enumerate(header) if h.startswith("licen"))
            except StopIteration:
                raise InputError("package file list has no 'Article File' and 'License' columns",
                                 path=str(listing), hint=hint) from None
            first: dict[str, int] = {}
            for row in reader:
                if len(row) > max(file_col, licence_col):
                    member, licence = row[file_col].strip(), row[licence_col].strip()
                    if member in out and out[member] != licence:
                        raise InputError(f"the member {printable(member)!r} is listed twice with different "
                                         f"licences ({printable(out[member])!r} on line {first[member]}, "
                                         f"{printable(licence)!r} here)", path=str(listing), line=reader.line_num,
                                         hint=hint)
                    out[member] = licence
                    first.setdefault(member, reader.line_num)
        except UnicodeDecodeError:
            raise not_utf8(listing, f"the file list of the package {printable(str(package))!r} is not UTF-8 text",
                           hint) from None
        except csv.Error as exc:  # a field over csv.field_size_limit() (128 kB), a NUL byte
            raise InputError(f"the package file list cannot be read as CSV: {exc}", path=str(listing),
                             line=reader.line_num, hint=hint) from None
    return out
