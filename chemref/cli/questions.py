"""``chemref questions build``: build questions from JATS articles, and run the model stages (the judge, the
closed-book test) on what the selector keeps when asked."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Optional

import typer

from chemref._io.secrets import api_key_from_env, safe_url
from chemref._lazy import lazy_module
from chemref.cli import build_options
from chemref.cli.app import fail, guarded, shown, warn
from chemref.cli.defaults import sample_corpus

if TYPE_CHECKING:
    from chemref.cli import closed_book as closed_book_cli
    from chemref.cli import judge as judge_cli
    from chemref.questions.judge import answers
    from chemref.questions.output import cluster, writer
    from chemref.questions.output import report as funnel_report
else:  # the build's library runs when a build runs: `questions build --help` costs its options only
    closed_book_cli = lazy_module("chemref.cli.closed_book")
    judge_cli = lazy_module("chemref.cli.judge")
    answers = lazy_module("chemref.questions.judge.answers")
    cluster = lazy_module("chemref.questions.output.cluster")
    writer = lazy_module("chemref.questions.output.writer")
    funnel_report = lazy_module("chemref.questions.output.report")


def build_command(
    inputs: Optional[List[Path]] = build_options.inputs(),
    output: Path = build_options.output(),
    files_from: Optional[Path] = build_options.files_from(),
    resume: bool = build_options.resume(),
    fmt: str = build_options.fmt(),
    shard_articles: int = build_options.shard_articles(),
    dask: Optional[str] = build_options.dask(),
    report: Optional[Path] = build_options.report(),
    rejected: Optional[Path] = build_options.rejected(),
    workers: int = build_options.workers(),
    per_article: int = build_options.per_article(),
    min_chars: int = build_options.min_chars(),
    max_chars: int = build_options.max_chars(),
    seed: int = build_options.seed(),
    authors: str = build_options.authors(),
    min_findability: Optional[float] = build_options.min_findability(),
    min_score: Optional[float] = build_options.min_score(),
    per_target: int = build_options.per_target(),
    answer_key: str = build_options.answer_key(),
    selector: Optional[Path] = build_options.selector(),
    progress: bool = build_options.progress(),
    judge_endpoint: Optional[str] = build_options.judge_endpoint(),
    judge_model: Optional[str] = build_options.judge_model(),
    judge_concurrency: int = build_options.judge_concurrency(),
    judge_min_score: Optional[float] = build_options.judge_min_score(),
    closed_book_samples: Optional[int] = build_options.closed_book_samples(),
    closed_book_model: Optional[str] = build_options.closed_book_model(),
) -> None:
    """Build citation-prediction questions (CiteME / BioChemCite style) and print the funnel."""

    _check_build_options(fmt, min_chars, max_chars, dask, judge_endpoint, judge_model, closed_book_samples,
                         closed_book_model)
    stages = None
    if judge_endpoint is not None:
        assert judge_model is not None  # _check_build_options: they go together
        stages = _model_stages(judge_endpoint, judge_model, closed_book_model, closed_book_samples,
                               final=(output, report, rejected), fmt=fmt, concurrency=judge_concurrency,
                               min_score=judge_min_score, selector=selector, progress=progress)
        output, report, rejected = stages.judged["questions"], stages.judged["report"], stages.judged["rejected"]
    default_input = guarded(sample_corpus) if not inputs and files_from is None else None
    outputs = guarded(lambda: writer.build_to_files(
        [str(p) for p in inputs or []], output, report=report, rejected=rejected, workers=workers,
        progress=progress, on_error=_unreadable_warnings(), default_input=default_input,
        files_from=files_from, resume=resume, format=fmt, shard_articles=shard_articles, dask=dask,
        per_article=per_article, min_chars=min_chars, max_chars=max_chars, seed=seed, authors=authors,
        min_findability=min_findability, min_score=min_score, per_target=per_target, answer_key=answer_key,
        selector=None if selector is None else str(selector)))
    totals = outputs.totals
    if stages is None:
        typer.echo(funnel_report.funnel_table(totals, outputs.settings))
    else:  # the funnel printed is the judged one, at the end; here only what reaches the judge's stage
        typer.echo(f"selector stage: {totals.questions} questions at the selector's threshold, of "
                   f"{totals.candidates} candidates (the judge decides next; its funnel follows)")
    typer.echo("wrote " + "; ".join(_written(outputs)))
    if stages is not None:
        stages.run()


def _check_build_options(fmt: str, min_chars: int, max_chars: int, dask: Optional[str],
                         judge_endpoint: Optional[str], judge_model: Optional[str],
                         closed_book_samples: Optional[int], closed_book_model: Optional[str]) -> None:
    """The build's options that go together, checked before any work."""
    if fmt not in ("jsonl", "parquet"):
        fail(f"--format must be jsonl or parquet, got {fmt!r}")
    if max_chars < min_chars:
        fail(f"--max-chars ({max_chars}) is smaller than --min-chars ({min_chars})")
    if (judge_endpoint is None) != (judge_model is None):
        fail("--judge-endpoint and --judge-model go together")
    if closed_book_samples is None and closed_book_model is not None:
        fail("--closed-book-model needs --closed-book-samples")
    if closed_book_samples is not None and judge_endpoint is None:
        fail("--closed-book-samples needs --judge-endpoint (the test runs on what the judge keeps; for a build "
             "without a judge, run 'questions closed-book prepare', 'run' and 'apply' on its files)")
    if dask is not None:

        guarded(lambda: cluster.check_address(dask))  # before any work


@dataclass(frozen=True)
class _ModelStages:
    """The judge, and the closed-book test after it, run on a build's selector stage: the files of each stage
    (``judged``, ``tested``: None without the test), and where the last stage writes (``final``: the questions,
    report and rejected file the build was asked for)."""

    endpoint: str
    model: str
    closed_book_model: Optional[str]
    samples: Optional[int]
    concurrency: int
    min_score: Optional[float]
    selector: Optional[Path]
    progress: bool
    judged: dict[str, Path]
    tested: Optional[dict[str, Path]]
    final: tuple[Path, Optional[Path], Optional[Path]]

    def run(self) -> None:
        """Judge the selector stage's candidates, then (with ``samples``) test the judged questions."""
        if self.tested is None:
            self._judge(*self.final)
            return
        assert self.samples is not None  # tested is set only with --closed-book-samples
        tested = self.tested
        self._judge(tested["judged"], tested["judged_report"], tested["judged_rejected"])
        closed_book_cli.closed_book_build(tested, *self.final, endpoint=self.endpoint,
                                          model=self.closed_book_model or self.model, samples=self.samples,
                                          concurrency=self.concurrency, progress=self.progress)

    def _judge(self, output: Path, report: Optional[Path], rejected: Optional[Path]) -> None:
        judge_cli.judge_build(self.judged, output, report, rejected, endpoint=self.endpoint, model=self.model,
                              concurrency=self.concurrency, progress=self.progress, selector=self.selector,
                              min_score=self.min_score)


def _model_stages(endpoint: str, model: str, closed_book_model: Optional[str], samples: Optional[int], *,
                  final: tuple[Path, Optional[Path], Optional[Path]], fmt: str, concurrency: int,
                  min_score: Optional[float], selector: Optional[Path], progress: bool) -> _ModelStages:
    """The model stages of ``questions build --judge-endpoint``, their options checked before any work."""

    guarded(lambda: answers.check_model_name(model, what="--judge-model"))
    if closed_book_model is not None:
        guarded(lambda: answers.check_model_name(closed_book_model, what="--closed-book-model"))
    guarded(lambda: api_key_from_env("OPENAI_API_KEY"))
    guarded(lambda: safe_url(endpoint, what="--judge-endpoint"))
    judged = judge_cli.judge_paths(final[0], fmt, final[1], final[2])
    tested = None
    if samples is not None:
        tested = closed_book_cli.closed_book_paths(final[0])
    return _ModelStages(endpoint, model, closed_book_model, samples, concurrency, min_score, selector, progress,
                        judged, tested, final)


def _written(outputs: Any) -> list[str]:
    """What a build wrote, one item per output, for the ``wrote`` line."""
    totals = outputs.totals
    written = [f"{shown(outputs.output)} ({totals.questions} questions)", f"{shown(outputs.card)} (dataset card)"]
    if outputs.rejected:
        written.append(f"{shown(outputs.rejected)} ({totals.rejected} rejected)")
    if outputs.report:
        written.append(f"{shown(outputs.report)} (report), {shown(outputs.chart)} (chart)")
    if outputs.manifest:
        written.append(f"{shown(outputs.manifest)} (manifest)")
    return written


#: unreadable articles named one by one on the terminal in one build (every one is in the articles rows)
MAX_UNREADABLE_WARNINGS = 100


def _unreadable_warnings() -> Callable[[str, str], None]:
    """``on_error`` of a build: a warning for each of the first unreadable articles, then one line saying the
    others are not named here (a package of a million empty members would otherwise flood the terminal)."""
    count = 0

    def on_error(source: str, message: str) -> None:
        nonlocal count
        count += 1
        if count <= MAX_UNREADABLE_WARNINGS:
            warn(f"skipped unreadable article: {message}")
        elif count == MAX_UNREADABLE_WARNINGS + 1:
            warn(f"more than {MAX_UNREADABLE_WARNINGS} unreadable articles: the others are not named here (the "
                 "articles rows of the output name each, and the report counts them)")

    return on_error
