"""Which files a folder of JATS articles stands for: one rule for every command that takes folders."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["JATS_SUFFIXES", "jats_files"]

#: file name endings read as JATS XML (compared case-insensitively)
JATS_SUFFIXES = (".nxml", ".xml")


def jats_files(folder: str | os.PathLike[str]) -> list[Path]:
    """Every ``*.nxml`` / ``*.xml`` file under ``folder`` (subfolders included), sorted by path."""
    return sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in JATS_SUFFIXES and p.is_file())
