"""What a file name says an input is: a JATS article or a package of them (compared case-insensitively)."""

from __future__ import annotations

import os

__all__ = ["JATS_SUFFIXES", "PACKAGE_SUFFIXES", "is_package"]

#: file name endings read as JATS XML (compared case-insensitively)
JATS_SUFFIXES = (".nxml", ".xml")
#: file name endings read as article packages (tar archives, gzip-compressed or not)
PACKAGE_SUFFIXES = (".tar.gz", ".tgz", ".tar")


def is_package(path: str | os.PathLike[str]) -> bool:
    """True for a tar archive of articles (``.tar.gz``, ``.tgz``, ``.tar``)."""
    return str(path).lower().endswith(PACKAGE_SUFFIXES)
