"""One Jinja2 environment for every page, and the checked, atomic writing of a page."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from chemref._io.atomic import write_text
from chemref._io.outputs import check_output
from chemref.errors import InputError, encodable

__all__ = ["check_page_path", "render_page", "write_page"]

_TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=1)
def _environment() -> Any:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["shorten"] = _shorten
    return env


def _shorten(text: str | None, width: int = 80) -> str:
    if text is None:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def render_page(template: str, **context: Any) -> str:
    """The page ``template`` (a file of ``chemref/pages/templates``) rendered with ``context``, ready to be
    written as UTF-8 (a name holding bytes that are not UTF-8 is shown with them escaped, ``\\udcff``)."""
    return encodable(_environment().get_template(template).render(**context))


def check_page_path(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputError` unless ``path`` can be written as a page: its folder must exist and be writable
    (a page is a report of a run: a typo in the folder name should not create a new folder tree)."""
    target = Path(path)
    folder = target.parent
    if not folder.exists():
        raise InputError(f"cannot write the page: the folder {folder} does not exist", path=str(target),
                         hint="create the folder first or choose another path")
    if not folder.is_dir():
        raise InputError(f"cannot write the page: {folder} is not a folder", path=str(target),
                         hint="choose another path")
    check_output(target)


def write_page(path: str | os.PathLike[str], template: str, **context: Any) -> int:
    """Render ``template`` and write it to ``path`` atomically; returns the page size in bytes."""
    check_page_path(path)
    html = render_page(template, **context)
    write_text(path, html)
    return len(html.encode("utf-8"))
