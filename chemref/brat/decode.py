"""Bytes to text for ``.ann`` (and ``.txt``) files: UTF-8, a BOM dropped, bad bytes reported with their line."""

from __future__ import annotations

from chemref._io.text import line_and_column
from chemref.errors import BratError

#: what the first bytes of a file that is not UTF-8 text most likely are
_SIGNATURES = ((b"\x1f\x8b", "a gzip file"), (b"\xff\xfe", "UTF-16 (little-endian, with a byte order mark)"),
               (b"\xfe\xff", "UTF-16 (big-endian, with a byte order mark)"), (b"PK\x03\x04", "a zip file"))


def binary(data: bytes) -> str | None:
    """Why ``data`` is no text file at all (gzip, zip, UTF-16 by their first bytes, NUL bytes), or None."""
    for magic, what in _SIGNATURES:
        if data.startswith(magic):
            return f"the file is {what}, not UTF-8 text"
    nul = data.find(b"\0")
    if nul >= 0:
        nul_line, _ = line_and_column(data, nul)
        return f"the file holds NUL bytes (first on line {nul_line}, byte {nul}): UTF-16 or binary, not UTF-8 text"
    return None


def not_text(data: bytes) -> str | None:
    """Why ``data`` cannot be read as a BRAT text file (:func:`binary`, or bytes that are not UTF-8 outside the
    text field of a line), or None when it can (bad bytes only in text fields are replaced)."""
    why = binary(data)
    if why is not None:
        return why
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    else:
        return None
    # bytes that are not UTF-8 in a mention's text field (a Latin-1 "é") leave the annotations readable;
    # anywhere else (ids, types, offsets) the file is not BRAT text
    for lineno, line in enumerate(data.decode("utf-8-sig", errors="replace").split("\n"), 1):
        if "\ufffd" in line:
            head = line.split("\t", 2)[:2] if line[:1] in "TN#" else [line]
            if any("\ufffd" in part for part in head):
                return f"the file is not UTF-8 text (bytes that are not UTF-8 on line {lineno}, outside a text field)"
    return None


#: what to do about a prediction that is not text, and about a gold file that is not (never scored as empty)
PREDICTION_HINT = ("re-save it as UTF-8, or pass --unreadable-as-empty (unreadable_as_empty=True) to score it as an "
                   "empty prediction")
GOLD_HINT = "re-save the gold file as UTF-8; no option scores a gold file as empty"


def decode_ann(data: bytes, *, path: str | None = None, strict: bool = False,
               hint: str = PREDICTION_HINT, gold: bool = False) -> tuple[str, list[str]]:
    """Decode UTF-8 bytes (a leading BOM is dropped); bad bytes become U+FFFD with a warning naming the line.

    ``strict``: a file that is not UTF-8 text (see :func:`not_text`) raises :class:`BratError` naming it,
    with ``hint`` saying what to do. ``gold``: the reference says one thing, so a byte that is not UTF-8
    anywhere in it, a text field included, raises :class:`BratError` naming the line and byte
    (:func:`gold_text`).
    """
    if strict:
        why = not_text(data)
        if why is not None:
            raise BratError(why, path=path, hint=hint)
    if gold:
        return gold_text(data, path=path, hint=hint), []
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line, _ = line_and_column(data, exc.start)
        where = f"{path}:{line}" if path else f"line {line}"
        warning = (f"{where}: bytes that are not UTF-8 (first at byte {exc.start}) were replaced by U+FFFD "
                   f"(re-save the file as UTF-8)")
        return data.decode("utf-8-sig", errors="replace"), [warning]


def gold_text(data: bytes, *, path: str | None = None, hint: str = GOLD_HINT) -> str:
    """The text of a gold ``.ann`` (a leading BOM dropped): a byte that is not UTF-8 anywhere, a mention's text
    field included, is a :class:`BratError` (:func:`gold_not_utf8`)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise gold_not_utf8(data, exc, path, hint) from None


def gold_not_utf8(data: bytes, exc: UnicodeDecodeError, path: str | None, hint: str = GOLD_HINT) -> BratError:
    """The error for a gold file holding bytes that are not UTF-8: its line, and the byte offset in the file."""
    line, _ = line_and_column(data, exc.start)
    return BratError(f"bytes that are not UTF-8 (first at byte {exc.start}); a gold file must be UTF-8 throughout, "
                     "its text fields included", path=path, line=line, hint=hint)
