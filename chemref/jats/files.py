"""Which files a folder of JATS articles stands for: one rule for every command that takes folders
(the walk itself is :func:`chemref.inputs.walk_jats`)."""

from __future__ import annotations

import os
from pathlib import Path

from chemref.inputs import JATS_SUFFIXES, walk_jats

__all__ = ["JATS_SUFFIXES", "jats_files"]


def jats_files(folder: str | os.PathLike[str]) -> list[Path]:
    """Every ``*.nxml`` / ``*.xml`` file under ``folder`` (subfolders included), sorted by path."""
    return list(walk_jats(folder))
