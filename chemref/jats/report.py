"""What ``chemref jats`` prints: a per-article summary table or JSON Lines, for many files in order."""

from __future__ import annotations

import os
import sys
from typing import IO, Any, Iterable, Sequence

from chemref._io.atomic import atomic_write
from chemref._io.outputs import check_not_input, is_stdout
from chemref.errors import JatsError, printable
from chemref.inputs.file_lists import read_file_list
from chemref.inputs.sources import check_inputs, count_sources
from chemref.jats.model import Article
from chemref.jats.reader import map_articles
from chemref.jsonl import json_line as _json_line

__all__ = ["summarize", "format_table", "json_line", "run", "RunErrors"]

_COLUMNS = ("file", "refs", "refs_doi", "citations", "resolved", "with_doi", "ranges", "diagnostics")


def summarize(article: Article) -> dict:
    """Counts for one article: citations (anchors), resolved (with a known reference), with_doi, ranges."""
    by_id = article.references_by_id
    citations = resolved = with_doi = ranges = 0
    for _, paragraph in article.paragraphs(include_abstracts=True, include_back=True):
        for anchor in paragraph.citations:
            citations += 1
            if anchor.ref_ids:
                resolved += 1
                if any(by_id[r].doi for r in anchor.ref_ids if r in by_id):
                    with_doi += 1
            if anchor.expanded:
                ranges += 1
    return {
        "file": article.file, "part": article.part, "refs": len(article.references),
        "refs_doi": sum(1 for r in article.references if r.doi), "citations": citations,
        "resolved": resolved, "with_doi": with_doi, "ranges": ranges, "diagnostics": len(article.diagnostics),
    }


def format_table(rows: list[dict]) -> str:
    """A plain-text table with a total line (numbers right-aligned)."""
    if not rows:
        return "no articles\n"
    total = {c: sum(r[c] for r in rows) for c in _COLUMNS[1:]}
    total["file"] = f"total ({len(rows)} articles)"
    shown = rows + [total] if len(rows) > 1 else rows
    names = [printable(os.path.basename(str(r["file"])) + (r.get("part") or "")) if r is not total else r["file"]
             for r in shown]
    width = max(len("file"), *(len(n) for n in names))
    widths = [max(len(c), *(len(f"{r[c]:,}") for r in shown)) for c in _COLUMNS[1:]]
    lines = ["  ".join(["file".ljust(width)] + [c.rjust(w) for c, w in zip(_COLUMNS[1:], widths)])]
    for name, row in zip(names, shown):
        if row is total:
            lines.append("-" * len(lines[0]))
        lines.append("  ".join([name.ljust(width)] + [f"{row[c]:,}".rjust(w)
                                                       for c, w in zip(_COLUMNS[1:], widths)]))
    return "\n".join(lines) + "\n"


class _Abandon(Exception):
    """Raised inside an atomic write to drop it (no article was read; the previous output stays)."""


class RunErrors(list):
    """The errors of a :func:`run` (a list of :class:`JatsError`), with ``articles``, the number of rows
    printed or written, and ``written``, whether ``output`` was replaced."""

    articles: int = 0
    written: bool = False


def run(inputs: Iterable[str | os.PathLike[str]], *, as_json: bool = False, output: str | None = None,
        workers: int = 1, progress: bool | None = None, stream: IO[str] | None = None,
        files_from: str | os.PathLike[str] | None = None, sub_articles: bool = False) -> RunErrors:
    """Read every article of ``inputs`` and print (or write to ``output`` atomically) the table or JSON Lines.

    Inputs are those of every command (:func:`chemref.inputs.iter_sources`): JATS files, folders (subfolders
    included), PMC ``.tar.gz`` packages and the inputs listed in ``files_from``; every article of an
    ``<articles>`` file, and with ``sub_articles`` every sub-article, is one row. Returns the errors of inputs
    that could not be read, an unexpected exception included (a :class:`RunErrors`). The others are still
    printed, in input order, and ``output`` holds what standard output would: the articles that were read
    (each unreadable one is in the errors, so nothing is lost). When no article at all could be read, the
    run failed and ``output`` is left as it was. What a folder leaves out (links out of it, looping links)
    is a :class:`UserWarning` each.
    """

    inputs = [os.fspath(p) for p in inputs]
    check_inputs(inputs)
    if files_from is not None:
        read_file_list(files_from)  # every listed file exists, before any work
    if is_stdout(output):
        output = None
    if output is not None:
        check_not_input(output, inputs)
    errors: list[JatsError] = []
    total = count_sources(inputs, files_from=files_from) if progress is not False or workers > 1 else None
    results: Iterable[Any] = map_articles(inputs, json_line if as_json else summarize, workers=workers, on_error="skip",
                           errors=errors, sub_articles=sub_articles, files_from=files_from, total=total)
    auto = progress is None
    if auto:
        progress = total is None or total >= 10
    if progress:
        from tqdm import tqdm

        # automatic: only on a terminal (disable=None); an explicit --progress shows it on any stderr
        results = tqdm(results, total=total, unit="article", file=sys.stderr, disable=None if auto else False,
                       leave=False)

    outcome = RunErrors()

    def emit(handle: IO[str]) -> None:
        if as_json:
            for line in results:
                handle.write(line)
                outcome.articles += 1
        else:
            rows = list(results)
            outcome.articles = len(rows)
            if rows or errors:  # no article and no error: the error below is all that is said
                handle.write(format_table(rows))

    if output is not None:
        try:
            with atomic_write(output) as handle:
                emit(handle)
                if not outcome.articles:  # nothing read: the previous output stays as it was
                    raise _Abandon
            outcome.written = True
        except _Abandon:
            pass
    else:
        emit(stream or sys.stdout)
    outcome.extend(errors or _no_article(inputs, outcome.articles))
    return outcome


def _no_article(inputs: Sequence[str | os.PathLike[str]], articles: int) -> list[JatsError]:
    """The error of a run that found no article and no unreadable input (a PMC package holding none): as an
    empty folder given, an error."""
    if articles:
        return []
    where = os.fspath(inputs[0]) if len(inputs) == 1 else None
    return [JatsError("holds no article (no .nxml or .xml member)" if where else "the inputs hold no article",
                      path=where, hint="give JATS files, folders that hold them, or PMC .tar.gz packages")]


def json_line(article: Article) -> str:
    """One JSON Lines record (``Article.to_dict()``), newline included."""
    return _json_line(article.to_dict())
