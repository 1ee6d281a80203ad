"""``chemref questions build | evaluate | train-selector | review``: build questions from JATS, measure a build
against labels, fit the question selector, and write the review page."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, List, Optional

import typer

from chemref._io import write_text
from chemref.cli import build_options, selector_options
from chemref.cli.app import (
    checked_output,
    fail,
    guarded,
    output_option,
    questions_app,
    refuse_overwriting_inputs,
    refuse_shared_outputs,
    warn,
)
from chemref.cli.closed_book import closed_book_build, closed_book_paths
from chemref.cli.defaults import sample_corpus
from chemref.cli.judge import judge_build, judge_paths
from chemref.cli.pages import write_baseline_page_cli, write_questions_page
from chemref.cli.statistics_options import render
from chemref.errors import InputError, printable
from chemref.jsonl import read_jsonl
from chemref.questions.funnel.settings import build_default


@questions_app.command("build")
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
    from chemref.questions.output.report import funnel_table  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.output.writer import build_to_files  # noqa: PLC0415 (the command's library, loaded when the command runs)

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
    outputs = guarded(lambda: build_to_files(
        [str(p) for p in inputs or []], output, report=report, rejected=rejected, workers=workers,
        progress=progress, on_error=_unreadable_warnings(), default_input=default_input,
        files_from=files_from, resume=resume, format=fmt, shard_articles=shard_articles, dask=dask,
        per_article=per_article, min_chars=min_chars, max_chars=max_chars, seed=seed, authors=authors,
        min_findability=min_findability, min_score=min_score, per_target=per_target, answer_key=answer_key,
        selector=None if selector is None else str(selector)))
    totals = outputs.totals
    if stages is None:
        typer.echo(funnel_table(totals, outputs.settings))
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
        from chemref.questions.output.cluster import check_address  # noqa: PLC0415 (the command's library, loaded when the command runs)

        guarded(lambda: check_address(dask))  # before any work


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
        closed_book_build(tested, *self.final, endpoint=self.endpoint, model=self.closed_book_model or self.model,
                          samples=self.samples, concurrency=self.concurrency, progress=self.progress)

    def _judge(self, output: Path, report: Optional[Path], rejected: Optional[Path]) -> None:
        judge_build(self.judged, output, report, rejected, endpoint=self.endpoint, model=self.model,
                    concurrency=self.concurrency, progress=self.progress, selector=self.selector,
                    min_score=self.min_score)


def _model_stages(endpoint: str, model: str, closed_book_model: Optional[str], samples: Optional[int], *,
                  final: tuple[Path, Optional[Path], Optional[Path]], fmt: str, concurrency: int,
                  min_score: Optional[float], selector: Optional[Path], progress: bool) -> _ModelStages:
    """The model stages of ``questions build --judge-endpoint``, their options checked before any work."""
    from chemref._io.secrets import api_key_from_env, safe_url  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.judge.answers import check_model_name  # noqa: PLC0415 (the command's library, loaded when the command runs)

    guarded(lambda: check_model_name(model, what="--judge-model"))
    if closed_book_model is not None:
        guarded(lambda: check_model_name(closed_book_model, what="--closed-book-model"))
    guarded(lambda: api_key_from_env("OPENAI_API_KEY"))
    guarded(lambda: safe_url(endpoint, what="--judge-endpoint"))
    judged = judge_paths(final[0], fmt, final[1], final[2])
    tested = None
    if samples is not None:
        tested = closed_book_paths(final[0])
    return _ModelStages(endpoint, model, closed_book_model, samples, concurrency, min_score, selector, progress,
                        judged, tested, final)


def _written(outputs: Any) -> list[str]:
    """What a build wrote, one item per output, for the ``wrote`` line."""
    def shown(path: object) -> str:
        return printable(str(path))

    totals = outputs.totals
    written = [f"{shown(outputs.output)} ({totals.questions} questions)", f"{shown(outputs.card)} (dataset card)"]
    if outputs.rejected:
        written.append(f"{shown(outputs.rejected)} ({totals.rejected} rejected)")
    if outputs.report:
        written.append(f"{shown(outputs.report)} (report), {shown(outputs.chart)} (chart)")
    if outputs.manifest:
        written.append(f"{shown(outputs.manifest)} (manifest)")
    return written


def _records(path: Optional[Path]) -> list[dict]:
    return [] if path is None else [row for _, row in read_jsonl(path)]


def _recalled(path: Optional[Path], records, title_threshold: Optional[float]) -> Optional[dict]:
    """Which records the closed-book answers in ``path`` recall (None without answers)."""
    if path is None:
        if title_threshold is not None:
            fail("--title-threshold needs --closed-book")
        return None
    if title_threshold is not None and title_threshold <= 0:
        fail("--title-threshold must be above 0")
    from chemref.questions.closed_book.recall import read_recalled  # noqa: PLC0415 (the command's library, loaded when the command runs)

    return read_recalled(str(path), records, title_threshold=title_threshold)


def _scores(path: Optional[Path]) -> Optional[dict[str, float]]:
    if path is None:
        return None
    from chemref.questions.labels.evaluate import read_scores  # noqa: PLC0415 (the command's library, loaded when the command runs)

    return read_scores(path)


@questions_app.command("evaluate")
def evaluate_command(
    labels: Path = typer.Argument(..., metavar="LABELS", help="Labels, JSON Lines in the format of "
                                  "corpora/labels/QUESTION_GUIDE.md of the chemref repository (id, good_question, "
                                  "author_named, function, sentence_ok, note)."),
    questions: Path = typer.Option(..., "--questions", help="questions.jsonl of the build to evaluate."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl of the same build (needed "
                                            "for labels of rejected candidates and for the filter rows)."),
    scores: Optional[Path] = typer.Option(None, "--scores", help="JSON Lines {id, score} replacing the records' "
                                          "selector scores (e.g. the cross-validated scores of train-selector)."),
    threshold: Optional[float] = typer.Option(None, "--threshold", min=0.0, max=1.0, help="The curve row to "
                                              "mark (default: the threshold of --selector, else of the shipped "
                                              "selector)."),
    selector: Optional[Path] = typer.Option(None, "--selector", help="Selector weights from `chemref questions "
                                            "train-selector`: its threshold is the default --threshold (give the "
                                            "selector whose --cv-scores are evaluated)."),
    reselect: bool = typer.Option(False, "--reselect", help="Apply --threshold and the caps again with these "
                                  "scores, as a build would (give the files of a build run with --min-score 0)."),
    per_target: int = typer.Option(build_default("per_target"), "--per-target", min=1,
                                   help="With --reselect: the build's --per-target."),
    per_article: int = typer.Option(build_default("per_article"), "--per-article", min=1,
                                    help="With --reselect: the build's --per-article."),
    closed_book: Optional[Path] = typer.Option(None, "--closed-book", help="Closed-book answers to the "
                                               "candidates (Batch output, custom_id ID#k): adds the recalled "
                                               "share of the kept questions, of all and of the good candidates."),
    title_threshold: Optional[float] = typer.Option(None, "--title-threshold", min=0.0, max=1.0, help="With "
                                                    "--closed-book: the title similarity from which an answer "
                                                    "recalls the cited work (default: closed-book apply's)."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of the text report."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV rows (one per figure) instead of the text report."),
    as_markdown: bool = typer.Option(False, "--markdown", help="A Markdown table instead of the text report."),
    output: Optional[Path] = output_option(),
) -> None:
    """Measure a question build against labels: kept-set quality, per-filter losses, the score curve."""
    from chemref.questions.labels.evaluate import evaluate  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.labels.label import read_labels  # noqa: PLC0415 (the command's library, loaded when the command runs)

    refuse_overwriting_inputs(output, labels, questions, rejected, scores, closed_book, selector)

    def run():
        mark = threshold
        if mark is None and selector is not None:
            from chemref.questions.funnel.selector import load_selector  # noqa: PLC0415 (the command's library, loaded when the command runs)

            mark = load_selector(selector).threshold
        kept, refused = _records(questions), _records(rejected)
        return evaluate(read_labels(labels), kept, refused, scores=_scores(scores),
                        scores_path=None if scores is None else str(scores), complete_scores=True,
                        threshold=mark, reselect=reselect, per_target=per_target, per_article=per_article,
                        source=str(labels), recalled=_recalled(closed_book, [*kept, *refused], title_threshold))

    result = guarded(run)
    render(result.to_report(), as_json, as_csv, as_markdown, output)


@questions_app.command("train-selector")
def train_selector_command(
    labels: Path = selector_options.labels(),
    questions: Path = selector_options.questions(),
    rejected: Optional[Path] = selector_options.rejected(),
    output: Path = selector_options.output(),
    cv_scores: Optional[Path] = selector_options.cv_scores(),
    folds: int = selector_options.folds(),
    seed: int = selector_options.seed(),
    l2: float = selector_options.l2(),
    min_precision: float = selector_options.min_precision(),
    min_good_kept: float = selector_options.min_good_kept(),
    fallback_good_kept: Optional[float] = selector_options.fallback_good_kept(),
    version: str = selector_options.version(),
    features: Optional[str] = selector_options.features(),
    soft_labels: Optional[Path] = selector_options.soft_labels(),
    label_weight: float = selector_options.label_weight(),
    target: str = selector_options.target(),
    closed_book: Optional[Path] = selector_options.closed_book(),
    recalled_target: float = selector_options.recalled_target(),
    title_threshold: Optional[float] = selector_options.title_threshold(),
) -> None:
    """Fit the question selector on labelled records; write its weights and report cross-validated quality."""
    from chemref.questions.funnel.selector_features import feature_list  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.funnel.selector_training import train_selector  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.labels.evaluate import evaluate  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.labels.label import good_labels, read_labels  # noqa: PLC0415 (the command's library, loaded when the command runs)

    refuse_shared_outputs({"-o": output, "--cv-scores": cv_scores})
    refuse_overwriting_inputs(output, labels, questions, rejected, soft_labels, closed_book)
    refuse_overwriting_inputs(cv_scores, labels, questions, rejected, soft_labels, closed_book)
    if target == "good-not-recalled" and closed_book is None:
        fail("--target good-not-recalled needs --closed-book (the closed-book answers that say what is recalled)")
    if recalled_target and target != "good-not-recalled":
        fail("--recalled-target needs --target good-not-recalled")

    def run():
        label_map = read_labels(labels)
        kept = _records(questions)
        refused = _records(rejected)
        records = {str(r.get("id")): r for r in [*kept, *refused]}
        fallback = {} if fallback_good_kept is None else {"fallback_good_kept": fallback_good_kept or None}
        chosen = {} if features is None else {"features": feature_list(features)}
        soft = None if soft_labels is None else _soft_targets(soft_labels, label_weight)
        recalled = _recalled(closed_book, records.values(), title_threshold)
        selector, cv = train_selector(records.values(), good_labels(label_map.values()), folds=folds, seed=seed,
                                      l2=l2, version=version, min_precision=min_precision,
                                      min_good_kept=min_good_kept, soft_targets=soft, label_weight=label_weight,
                                      recalled=recalled if target == "good-not-recalled" else None,
                                      recalled_target=recalled_target,
                                      **fallback, **chosen)
        curve = evaluate(label_map, kept, refused, scores=cv, threshold=selector.threshold, source=str(labels),
                         recalled=recalled)
        selector = _with_cv_figures(selector, curve)
        selector.save(output)
        if cv_scores is not None:
            write_text(cv_scores, "".join(json.dumps({"id": i, "score": s}) + "\n" for i, s in cv.items()))
        return selector, curve


    selector, curve = guarded(run)
    typer.echo(curve.to_text())
    typer.echo(f"wrote {printable(str(output))} (selector {selector.version}, threshold {selector.threshold}, "
               f"{selector.meta['trained_on']} labelled records)"
               + (f"; {printable(str(cv_scores))} (cross-validated scores)" if cv_scores else "")
               + (f"; soft targets for {selector.meta['soft_targets']['records']} records"
                  if "soft_targets" in selector.meta else ""))


def _soft_targets(path: Path, label_weight: float) -> dict[str, float]:
    """The judge's confidence per record id from its answers in ``path`` (those usable), for ``--soft-labels``."""
    from chemref.questions.judge.answers import read_responses  # noqa: PLC0415 (the command's library, loaded when the command runs)

    if label_weight >= 1.0:
        raise InputError("--soft-labels has no effect with --label-weight 1 (the labels alone)",
                         hint="add --label-weight 0.25, for example")
    answers = read_responses(path)
    soft = {i: a.confidence for i, (_, a) in answers.items() if a.ok and a.confidence is not None}
    if len(soft) < len(answers):
        typer.echo(f"note: {len(answers) - len(soft)} of the {len(answers)} answers in "
                   f"{printable(str(path))} are not usable (malformed, refused or without a "
                   "confidence): their records are fitted to their labels alone", err=True)
    return soft


def _with_cv_figures(selector: Any, curve: Any) -> Any:
    """``selector`` with the cross-validated figures at its threshold in its ``meta`` (``cv``)."""
    at = curve.at_threshold
    if at is None:
        return selector
    return replace(selector, meta={**selector.meta, "cv": {
        "threshold": at.threshold, "good_share": at.good_share, "good_kept_share": at.good_kept_share,
        "kept_share": at.kept_share, "auc": curve.auc}})


@questions_app.command("review")
def review_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl from 'questions build'."),
    rejected: Optional[Path] = typer.Option(None, "--rejected", help="rejected.jsonl from 'questions build "
                                            "--rejected': its candidates get a card too, with their reason."),
    output: Path = typer.Option(..., "-o", "--output", help="The review page (one self-contained HTML file)."),
    corpus: Optional[List[Path]] = typer.Option(None, "--corpus", metavar="DIR",
                                                help="A folder of the JATS articles the records come from "
                                                     "(repeatable): the titles of references cited together "
                                                     "are read from articles inside these folders only."),
) -> None:
    """Write an HTML page to browse, filter and label questions and rejected candidates (labels export as JSONL)."""
    refuse_overwriting_inputs(output, questions, rejected)
    for folder in corpus or ():
        if not folder.is_dir():
            fail(f"--corpus {printable(str(folder))} is not a folder")
    write_questions_page(output, questions, rejected, corpus or ())


@questions_app.command("record-selector")
def record_selector_command(
    labels: Path = typer.Argument(..., metavar="LABELS", help="The labels the shipped selector was trained on."),
    questions: Path = typer.Option(..., "--questions", help="questions.jsonl of a --min-score 0 build of the "
                                   "labels' corpus."),
    rejected: Path = typer.Option(..., "--rejected", help="rejected.jsonl of the same build."),
    scores: Path = typer.Option(..., "--scores", help="The cross-validated scores of train-selector --cv-scores."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", callback=checked_output, help="Where to write "
                                          "the record (default: the one shipped beside the selector)."),
) -> None:
    """Record the shipped selector's cross-validated evaluation, which the card, the README and evaluate quote."""
    from chemref.questions.funnel.selector_record import EVALUATION_FILE  # noqa: PLC0415 (the command's library, loaded when the command runs)
    from chemref.questions.labels.record import record_selector_evaluation  # noqa: PLC0415 (the command's library, loaded when the command runs)

    target = output if output is not None else EVALUATION_FILE
    refuse_overwriting_inputs(target, labels, questions, rejected, scores)
    data = guarded(lambda: record_selector_evaluation(str(labels), str(questions), str(rejected), str(scores),
                                                      output=target))
    typer.echo(f"wrote {printable(str(target))} ({data['scored']} candidates scored, {len(data['trained_ids'])} "
               "trained on)")


@questions_app.command("difficulty")
def difficulty_command(
    questions: List[Path] = typer.Argument(..., metavar="QUESTIONS...", help="questions.jsonl of a build, its "
                                           "shards (joined in the order given), or a folder build (out/: its "
                                           "questions-*.jsonl, and its rejected-*.jsonl as --rejected)."),
    output: Path = typer.Option(..., "-o", "--output", callback=checked_output, help="The questions with "
                                "bm25_rank_corpus filled in (JSON Lines)."),
    rejected: Optional[List[Path]] = typer.Option(None, "--rejected", help="rejected.jsonl of the same build "
                                                  "(repeatable, for shards): their articles' cited works join the "
                                                  "corpus, and with --rejected-out they are ranked too."),
    rejected_out: Optional[Path] = typer.Option(None, "--rejected-out", callback=checked_output, help="The "
                                                "rejected candidates with bm25_rank_corpus filled in."),
    corpus: Optional[List[Path]] = typer.Option(None, "--corpus", help="Folder the build read (where the "
                                                "source_file names are found); repeatable."),
) -> None:
    """Rank each question's cited work among every cited work of the build (BM25 over their titles): bm25_rank_corpus."""
    from chemref.questions.output.difficulty import corpus_difficulty, folder_shards  # noqa: PLC0415 (the command's library, loaded when the command runs)

    if len(questions) == 1 and questions[0].is_dir():
        questions, shards = guarded(lambda: folder_shards(questions[0]))
        rejected = rejected or shards or None
    given = [*questions, *(rejected or [])]
    for out in (output, rejected_out):
        refuse_overwriting_inputs(out, *given)
    refuse_shared_outputs({"--output": output, "--rejected-out": rejected_out})
    if rejected_out is not None and not rejected:
        fail("--rejected-out needs --rejected")
    pairs: list = [(questions, output)] + ([(rejected, rejected_out)] if rejected and rejected_out else [])
    also = rejected if rejected and rejected_out is None else ()
    summary = guarded(lambda: corpus_difficulty(pairs, also=also, corpus=corpus or None))
    typer.echo(summary.to_text())
    typer.echo(f"wrote {printable(str(output))}" + (f"; {printable(str(rejected_out))}" if rejected_out else ""))


@questions_app.command("baseline-page")
def baseline_page_command(
    questions: Path = typer.Argument(..., metavar="QUESTIONS", help="questions.jsonl from 'questions build'."),
    output: Path = typer.Option(..., "-o", "--output", help="The page (one self-contained, offline HTML file)."),
) -> None:
    """Write an offline page where a person answers the questions one excerpt at a time (a title or DOI, or gives
    up, timed) and exports predictions for 'chemref score questions'. The page never holds the answers."""
    refuse_overwriting_inputs(output, questions)
    write_baseline_page_cli(output, questions)
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
