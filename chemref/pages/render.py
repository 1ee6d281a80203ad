"""One Jinja2 environment for every page, and the checked, atomic writing of a page."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from chemref._io.atomic import write_text
from chemref._io.outputs import check_output
from chemref.errors import InputError, encodable

__all__ = ["check_page_path", "html_text", "render_page", "write_page"]

_TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=1)
def _environment() -> Any:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
                             finalize=html_text)
    env.filters["shorten"] = _shorten
    return env


#: the control characters a page never holds raw: C0 but tab, line feed and carriage return, DEL, and C1
_CONTROL = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")


def html_text(value: Any) -> Any:
    """Every value a page template writes (``{{ ... }}``, in a text node or an attribute): a string is
    HTML-escaped with its control characters (C0 but tab, line feed and carriage return; DEL; C1) written as
    numeric character references (``&#27;``), so a name holding a terminal escape is not written raw, and the
    page's text still reads as the data embedded in it. Markup (the page data as JSON, which escapes every
    control character itself, and the page's own script) is left as it is."""
    if isinstance(value, str) and not isinstance(value, Markup) and _CONTROL.search(value):
        return Markup(_CONTROL.sub(lambda m: f"&#{ord(m.group())};", str(escape(value))))
    return value


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
    """Raise :class:`InputError` unless ``path`` can be written as a page: its folder, when it exists, or else
    its nearest existing parent, must be a folder (a missing folder is created when the page is written, as
    every writer does)."""
    target = Path(path)
    folder = next((p for p in (target.parent, *target.parent.parents) if p.exists() or p.is_symlink()),
                  target.parent)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"cannot write the page: {folder} is not a folder", path=str(target),
                         hint="choose another path")
    check_output(target)


def write_page(path: str | os.PathLike[str], template: str, **context: Any) -> int:
    """Render ``template`` and write it to ``path`` atomically; returns the page size in bytes."""
    check_page_path(path)
    html = render_page(template, **context)
    write_text(path, html)
    return len(html.encode("utf-8"))
