"""Text input: UTF-8 decoding with the line and byte of the first bad bytes, and line-by-line reading."""

from __future__ import annotations

import codecs
import os
from typing import Iterator

from chemref._io.limits import MAX_LINE_BYTES, megabytes, regular_file
from chemref.errors import InputError, TooLargeError

__all__ = ["line_and_column", "decode_utf8", "undecodable_line", "not_utf8", "iter_lines"]


def line_and_column(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and byte column of ``offset`` in ``data`` (for messages about bytes read whole)."""
    return data.count(b"\n", 0, offset) + 1, offset - data.rfind(b"\n", 0, offset)


def decode_utf8(data: bytes, path: str | os.PathLike[str], *, what: str = "not UTF-8 text",
                hint: str = "save the file as UTF-8") -> str:
    """The bytes of a file read whole as UTF-8 text (a leading BOM dropped); :class:`InputError` naming the
    line and the byte (as the column) of the first bytes that are not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = line_and_column(data, exc.start)
        raise InputError(what, path=os.fspath(path), line=line, column=column, hint=hint) from None


def undecodable_line(path: str | os.PathLike[str], encoding: str = "utf-8-sig") -> tuple[int, int] | None:
    """``(line, column)`` (1-based; the column counts bytes) of the first bytes of ``path`` that are not
    ``encoding``, or None. Read line by line in binary, for an error message: text files are decoded in blocks,
    so the decoder's own position says neither."""
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
                    raise TooLargeError(f"the line is longer than the limit of {megabytes(max_line)}", path=where,
                                        line=number, hint="is this really a line-oriented file?")
                yield number, line.rstrip("\n")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=where) from None
