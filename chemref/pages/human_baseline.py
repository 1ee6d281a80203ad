"""The human-baseline page: a person answers the questions one excerpt at a time, offline, and exports predictions.

The page holds each question's ``id`` and ``excerpt`` only: never the cited work's title, DOI, PMID, authors,
year or venue, nor the sentence (whose citation text may name the authors), so its source gives no answer away.
The person types the cited work (a title, or a DOI) or gives up; the seconds spent on each question (while the
page is in view) are counted, and answers and times are kept in the browser's localStorage, so a reload resumes
where it stopped. "Export predictions" downloads JSON Lines in the format ``chemref score questions`` reads:
``{"id", "dois": [DOI]}`` when the answer holds a DOI, else ``{"id", "titles": [answer]}``, and
``{"id", "titles": []}`` for a question given up; each line also carries ``seconds`` and ``gave_up``, which the
scorer ignores. Questions not answered are not exported (the scorer counts them wrong and names them).

The records are embedded as escaped JSON and drawn with ``textContent`` only; the page's one script is allowed by
its SHA-256 hash in the Content-Security-Policy (``default-src 'none'``: no network, no other script).
"""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path
from typing import Any, Iterable, Mapping

from chemref.errors import InputError
from chemref.pages.question_review import read_review_records
from chemref.pages.render import check_page_path, write_page

__all__ = ["baseline_page", "write_baseline_page", "PAGE_FIELDS"]

PathLike = str | os.PathLike[str]
#: The only fields of a question the page holds.
PAGE_FIELDS = ("id", "excerpt")
_SCRIPT = Path(__file__).with_name("templates") / "human_baseline.js"


def _script() -> str:
    return _SCRIPT.read_text(encoding="utf-8")


def script_hash(script: str) -> str:
    """The CSP source allowing exactly ``script`` (``'sha256-...'``)."""
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def baseline_page(questions: Iterable[Mapping[str, Any]], *, source: str = "questions") -> dict[str, Any]:
    """The template context of the page for ``questions`` (records with a string ``id`` and ``excerpt``; every
    other field is left out). A question id given twice is an :class:`InputError`."""
    records = []
    seen: set[str] = set()
    for record in questions:
        ident = str(record["id"])
        if ident in seen:
            raise InputError(f"question id {ident!r} is given twice", path=source,
                             hint="give a questions file with unique ids (as 'chemref questions build' writes)")
        seen.add(ident)
        records.append({"id": ident, "excerpt": str(record["excerpt"])})
    if not records:
        raise InputError("no questions to show", path=source, hint="give a questions.jsonl with questions")
    key = hashlib.sha1("\n".join(f"{r['id']}\t{r['excerpt']}" for r in records).encode("utf-8",
                                                                                      "surrogatepass")).hexdigest()[:16]
    script = _script()
    return {"title": f"Citation finding: {source}", "source": source, "n": len(records),
            "script": script, "script_src": script_hash(script),
            "data": {"questions": records, "key": "chemref-baseline:" + key}}


def write_baseline_page(path: PathLike, questions: PathLike) -> tuple[int, int]:
    """Read ``questions`` (questions.jsonl), write the human-baseline page to ``path``; returns ``(questions, bytes)``."""
    check_page_path(path)
    records = read_review_records(questions)
    context = baseline_page(records, source=Path(questions).name)
    size = write_page(path, "human_baseline.html", **context)
    return context["n"], size
