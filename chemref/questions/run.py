"""The whole job of ``chemref questions build``: build, then write questions, rejections, report,
chart and dataset card (each atomically). The CLI parses arguments and calls :func:`build_to_files`."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from chemref._io import check_not_input, check_output
from chemref.errors import InputError
from chemref.questions.builder import Source, expand_inputs, iter_build
from chemref.questions.records import BuildResult
from chemref.questions.settings import BuildSettings

__all__ = ["SAMPLE_CORPUS", "BuildOutputs", "build_to_files", "sample_corpus"]

#: The sample articles shipped with the project (written by the project; CC BY 4.0).
SAMPLE_CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "jats"


def sample_corpus() -> Path:
    """The folder of sample articles used when no input is given."""
    if not SAMPLE_CORPUS.is_dir():
        raise InputError("no input given and the sample corpus is not installed", path=str(SAMPLE_CORPUS),
                         hint="give JATS files or folders, or install chemref from its source tree")
    return SAMPLE_CORPUS


def _check_distinct(targets: dict[str, Path | None]) -> None:
    """Two outputs on one file would silently overwrite each other: refuse before any work."""
    seen: dict[Path, str] = {}
    for label, path in targets.items():
        if path is None:
            continue
        key = path.resolve()
        if key in seen:
            raise InputError(f"the {label} and the {seen[key]} would be the same file", path=str(path),
                             hint="give each output its own file name; the chart is the report's name with .png")
        seen[key] = label


def _check_not_inputs(targets: dict[str, Path | None], sources: Sequence[Source]) -> None:
    """An output must never overwrite an input article."""
    inputs = [s.path for s in sources if s.path is not None]
    for label, path in targets.items():
        check_not_input(path, inputs, label=label)


@dataclass(frozen=True)
class BuildOutputs:
    """The result and the paths written."""

    result: BuildResult
    output: Path
    card: Path
    report: Path | None = None
    chart: Path | None = None
    rejected: Path | None = None


def build_to_files(inputs: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                   report: str | os.PathLike[str] | None = None,
                   rejected: str | os.PathLike[str] | None = None,
                   workers: int = 1, progress: bool = False,
                   on_error: Callable[[str, str], None] | None = None,
                   **settings: object) -> BuildOutputs:
    """Build questions from ``inputs`` (the sample corpus when empty) and write every output.

    ``on_error(source, message)`` is called for each unreadable input as it is met (the run goes on;
    the file is counted in the report). ``settings`` are :class:`BuildSettings` fields.
    """
    from chemref.questions.card import write_card
    from chemref.questions.report import write_chart, write_jsonl, write_report

    from chemref.questions.card import card_path

    options = BuildSettings(**settings)  # type: ignore[arg-type]
    for path in (output, rejected, report):
        if path is not None:
            check_output(path)  # before any work, so a long run never ends with an unwritable output
    targets = {"output (questions)": Path(output), "dataset card": card_path(output),
               "rejected": None if rejected is None else Path(rejected),
               "report": None if report is None else Path(report),
               "report chart": None if report is None else Path(report).with_suffix(".png")}
    _check_distinct(targets)
    if inputs:
        sources = expand_inputs(list(inputs))
    else:  # sample articles are named relative to the sample corpus, which the BM25 baseline also searches
        corpus = sample_corpus()
        sources = [Source(s.path, Path(s.path).relative_to(corpus).as_posix())
                   for s in expand_inputs([corpus]) if s.path is not None]
    _check_not_inputs(targets, sources)
    results = iter_build(sources, options, workers=workers)
    if progress:
        from tqdm import tqdm

        results = tqdm(results, total=len(sources), unit="article", file=sys.stderr, desc="building",
                       dynamic_ncols=True)
    articles = []
    for article in results:
        if article.error is not None and on_error is not None:
            on_error(article.source, article.error)
        articles.append(article)
    result = BuildResult(options, tuple(articles))
    if result.articles and len(result.errors) == len(result.articles):
        raise InputError(f"no input article could be read ({len(result.errors)} given; first: {result.errors[0][1]})",
                         hint="nothing was written")
    out = Path(output)
    rejected_path = Path(rejected) if rejected is not None else None
    report_path = Path(report) if report is not None else None
    chart_path = report_path.with_suffix(".png") if report_path is not None else None
    writes: list[tuple[Path, Callable[[], object]]] = [
        (out, lambda: write_jsonl(out, [q.to_dict() for q in result.questions]))]
    if rejected_path is not None:
        writes.append((rejected_path, lambda: write_jsonl(rejected_path, [r.to_dict() for r in result.rejected])))
    if report_path is not None and chart_path is not None:
        writes.append((report_path, lambda: write_report(report_path, result)))
        writes.append((chart_path, lambda: write_chart(chart_path, result)))
    for target, write in writes:
        try:
            write()
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", path=str(target),
                             hint="check that the folder exists and is writable") from None
    try:
        card = write_card(result, out)
    except OSError as exc:
        raise InputError(f"cannot write the dataset card: {exc.strerror or exc}", path=str(out.parent)) from None
    return BuildOutputs(result, out, card, report_path, chart_path, rejected_path)
