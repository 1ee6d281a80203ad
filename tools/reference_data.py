"""Where the public reference data chemref is measured on lives (never downloaded, never shipped).

One setting for every command, test and benchmark: the environment variable ``CHEMREF_REFERENCE_DATA``
names the folder; without it the folder is ``../shared`` beside the project (the current folder's
parent for a command run from a checkout). What the folder holds, and where each data set comes from,
is docs/reference-data.md.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["REFERENCE_DATA_ENV", "DEFAULT_REFERENCE_DATA", "reference_root", "reference_path"]

from chemref.errors import REFERENCE_DATA_DEFAULT_NAME, REFERENCE_DATA_ENV  # noqa: E402  (the one home)

#: Its default, relative to the project root.
DEFAULT_REFERENCE_DATA = Path("..") / REFERENCE_DATA_DEFAULT_NAME


def reference_root(project_root: str | os.PathLike[str] | None = None) -> Path:
    """The reference data folder: ``$CHEMREF_REFERENCE_DATA`` when set, else ``../shared`` from
    ``project_root`` (default: the current folder). The folder may be absent."""
    value = os.environ.get(REFERENCE_DATA_ENV, "").strip()
    if value:
        return Path(os.path.expanduser(value)).resolve()
    base = Path(project_root) if project_root is not None else Path.cwd()
    return (base / DEFAULT_REFERENCE_DATA).resolve()


def reference_path(*parts: str, project_root: str | os.PathLike[str] | None = None) -> Path:
    """A path inside the reference data folder (see :func:`reference_root`)."""
    return reference_root(project_root).joinpath(*parts)
