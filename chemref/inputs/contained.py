"""Which article files a record may name: a ``source_file`` is read only when it lies inside the folders the
user gave (a record naming an absolute path, or one with ``..``, is never opened)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

__all__ = ["MAX_NAME_CHARS", "corpus_article", "corpus_bases"]


#: The longest file name read: a ``source_file`` looked up, a package member read as an article (PATH_MAX on
#: Linux: a file system allows 4,096 bytes for a whole path).
MAX_NAME_CHARS = 4096


def corpus_article(source: str, roots: Sequence[Path]) -> tuple[Path | None, str]:
    """The file a record's ``source_file`` names, when it lies inside one of the (resolved) corpus folders
    ``roots``: tried relative to the current folder and to each corpus folder and its parent (the build names
    an article by the path it was given, or from its input folder's name on). ``(None, why)`` otherwise: an
    absolute path, one with ``..`` or a NUL character is refused, as is one that leads (through a link too) out of the folders."""
    if "\0" in source:
        return None, "it holds a NUL character, which no file name holds"
    if len(source) > MAX_NAME_CHARS:
        return None, f"it is longer than {MAX_NAME_CHARS:,} characters, which no file name is"
    name = Path(source)
    if name.is_absolute() or ".." in name.parts or not source.strip():
        return None, "absolute or '..' paths are refused"
    outside = False
    for candidate in [Path.cwd() / name] + [base / name for root in roots for base in corpus_bases(root)]:
        try:
            resolved = candidate.resolve()
            if not resolved.is_file():
                continue
        except (OSError, RuntimeError):  # a name too long for the system, a loop of links
            continue
        if any(resolved.is_relative_to(root) for root in roots):
            return resolved, ""
        outside = True
    return None, "outside the corpus folders" if outside else "not found in the corpus folders"


def corpus_bases(root: Path) -> tuple[Path, Path]:
    """The folders a ``source_file`` is taken relative to for the corpus folder ``root``: the folder itself, and
    its parent (a build given the folder by an absolute path names its articles from the folder's name on:
    ``/data/corpus`` gives ``corpus/PMC1.nxml``)."""
    return root, root.parent
