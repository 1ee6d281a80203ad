"""Bytes to text for ``.ann`` (and ``.txt``) files: UTF-8, a BOM dropped, bad bytes reported with their line."""

from __future__ import annotations

from chemref._io import line_and_column


def decode_ann(data: bytes, *, path: str | None = None) -> tuple[str, list[str]]:
    """Decode UTF-8 bytes (a leading BOM is dropped); bad bytes become U+FFFD with a warning naming the line."""
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line, _ = line_and_column(data, exc.start)
        where = f"{path}:{line}" if path else f"line {line}"
        warning = (f"{where}: bytes that are not UTF-8 (first at byte {exc.start}) were replaced by U+FFFD "
                   f"(re-save the file as UTF-8)")
        return data.decode("utf-8-sig", errors="replace"), [warning]
