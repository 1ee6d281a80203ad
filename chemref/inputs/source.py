"""One input article (:class:`Source`) and the label a build writes for it as ``source_file``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Source", "source_label", "path_text"]


@dataclass(frozen=True, slots=True)
class Source:
    """One input article: a path (or its bytes) and the label written as ``source_file``.

    ``skip`` names a funnel step that rejects the whole article before it is read (``"cc_by"`` for a package
    member whose file list gives another licence); ``error`` is an input that could not be read at all
    (a damaged package: the message says where it stopped).
    """

    path: str | None
    label: str
    data: bytes | None = None
    skip: str | None = None
    error: str | None = None
    #: whether ``error`` ends the input it belongs to (a damaged package), or only this member (a link)
    stops: bool = True


def source_label(given: str, path: Path | None = None) -> str:
    """``source_file`` for ``path`` found under the input ``given`` (no absolute machine path)."""
    root = Path(given)
    if path is None:
        return path_text(root.name if root.is_absolute() else Path(given).as_posix())
    rel = path.relative_to(root)
    if root.is_absolute():
        return path_text((Path(root.name) / rel).as_posix() if root.name else rel.as_posix())
    return path_text((root / rel).as_posix())


def path_text(name: str) -> str:
    """A file name as text that can be written out: bytes that are not UTF-8 (which Python holds as lone
    surrogates) as ``\\xNN``."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return name
