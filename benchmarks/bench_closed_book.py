"""The closed-book test on the dev labels: how much of each question set a model names from the excerpt alone.

Run from the project root:  python benchmarks/bench_closed_book.py [--responses FILE ...]
Builds the dev corpus (../shared/corpora/jats/dev) twice, with ``--min-score 0`` (every candidate the selector
decides) and with the defaults (the offline default build), and reads closed-book answers for the labelled
candidates (``closed-book prepare`` requests answered one sample each; several files are joined). Per question set:
its size, the share answered, the share recalled (any answer naming the cited work with the scorer's matcher: DOI
or PMID after normalisation, or the title at 0.95, and at 0.8 and 0.9 for comparison), the share recalled by DOI.
The sets: every labelled candidate answered; those the closed-book stage asks about in a build at ``--min-score 0``
(questions and cap-rejected); their good ones (labels); the offline default's questions; and the judge's kept
questions (the stored answers in corpora/labels/dev_judge_responses.jsonl, the default cascade), before and after
the closed-book stage (``closed-book apply``, the caps applied again): kept, good share, recalled share, questions per
100 articles, requests per kept question (judge and closed-book requests). Prints one table and writes
benchmarks/results/closed_book.json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chemref._io.atomic import atomic_write  # noqa: E402
from chemref.jsonl import read_jsonl  # noqa: E402
from chemref.questions.closed_book.answers import Recollection, read_recollections  # noqa: E402
from chemref.questions.closed_book.apply import apply_closed_book  # noqa: E402
from chemref.questions.closed_book.prepare import reaches_closed_book, split_sample_id  # noqa: E402
from chemref.questions.labels.label import read_labels  # noqa: E402
from chemref.scoring.benchmarks.citation_prediction import answer_hit, gold_question  # noqa: E402
from tools.reference_data import reference_path  # noqa: E402

LABELS = ROOT / "corpora" / "labels" / "dev_labels.jsonl"
JUDGE_RESPONSES = ROOT / "corpora" / "labels" / "dev_judge_responses.jsonl"
RESPONSES = ROOT / "corpora" / "labels" / "dev_closed_book_responses.jsonl"
OUT = ROOT / "benchmarks" / "results" / "closed_book.json"
THRESHOLDS = (0.8, 0.9, 0.95)
DEFAULT_THRESHOLD = 0.95


def _chemref(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "chemref", *args], check=True, cwd=ROOT, capture_output=True,
                          text=True).stdout


def _answers(paths: list[Path]) -> dict[str, tuple[int, Recollection]]:
    joined: dict[str, tuple[int, Recollection]] = {}
    for path in paths:
        for ident, answer in read_recollections(path).items():
            if ident in joined:
                raise SystemExit(f"{path}: {ident} is answered in two files")
            joined[ident] = answer
    return joined


def _share(n: int, d: int) -> float | None:
    return round(n / d, 4) if d else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", type=Path, nargs="+", default=[RESPONSES])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    dev = reference_path("corpora", "jats", "dev", project_root=ROOT)
    if dev is None or not dev.is_dir():
        print("skipped: the dev articles (corpora/jats/dev of the reference data) are not here")
        return 0
    labels = read_labels(LABELS)
    answers = _answers(args.responses)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        _chemref("questions", "build", str(dev), "-o", str(t / "q.jsonl"), "--rejected", str(t / "r.jsonl"),
                 "--report", str(t / "report.json"), "--min-score", "0", "--no-progress")
        _chemref("questions", "build", str(dev), "-o", str(t / "d" / "q.jsonl"), "--no-progress")
        _chemref("questions", "judge", "prepare", str(t / "q.jsonl"), "--rejected", str(t / "r.jsonl"), "--model",
                 "judge", "-o", str(t / "judge-requests.jsonl"))
        _chemref("questions", "judge", "apply", str(t / "q.jsonl"), str(JUDGE_RESPONSES), "--rejected",
                 str(t / "r.jsonl"), "--requests", str(t / "judge-requests.jsonl"), "-o", str(t / "j.jsonl"),
                 "--rejected-out", str(t / "jr.jsonl"))
        questions = [row for _, row in read_jsonl(t / "q.jsonl")]
        rejected = [row for _, row in read_jsonl(t / "r.jsonl")]
        default = [row for _, row in read_jsonl(t / "d" / "q.jsonl")]
        judged = [row for _, row in read_jsonl(t / "j.jsonl")]
        judged_rejected = [row for _, row in read_jsonl(t / "jr.jsonl")]
        articles = int(json.loads((t / "report.json").read_text())["articles_read"])
        judge_requests = sum(1 for _ in read_jsonl(t / "judge-requests.jsonl"))
    records = {row["id"]: row for row in (*questions, *rejected)}
    by_question: dict[str, list[Recollection]] = {}
    for ident, (_, answer) in answers.items():
        split = split_sample_id(ident)
        if split is None or split[0] not in records:
            raise SystemExit(f"{ident}: no sample of a dev candidate")
        by_question.setdefault(split[0], []).append(answer)

    def recalled(ident: str, threshold: float = DEFAULT_THRESHOLD, kind: str | None = None) -> bool:
        record = records[ident]
        if not (record.get("target_doi") or record.get("target_pmid") or record.get("target_title")):
            return False  # a candidate rejected for want of a cited work cannot be recalled
        gold = gold_question(record)
        for answer in by_question.get(ident, ()):
            if answer.ok:
                hit = answer_hit(gold, identifiers=(answer.doi,), titles=(answer.title,), threshold=threshold)
                if hit is not None and (kind is None or hit == kind):
                    return True
        return False

    def answered(ident: str) -> bool:
        got = by_question.get(ident)
        return bool(got) and all(a.ok for a in got)

    def row(name: str, ids: list[str]) -> dict:
        done = [i for i in ids if answered(i) or recalled(i)]
        out = {"set": name, "questions": len(ids), "answered": _share(len(done), len(ids))}
        for threshold in THRESHOLDS:
            out[f"recalled@{threshold}"] = _share(sum(recalled(i, threshold) for i in done), len(done))
        out["recalled_by_doi"] = _share(sum(recalled(i, kind="doi") for i in done), len(done))
        good = [i for i in ids if i in labels and labels[i].good_question is not None]
        out["good"] = _share(sum(labels[i].good_question is True for i in good), len(good))
        return out

    labelled = [i for i in records if i in labels and i in by_question]
    stage = [i for i in labelled if reaches_closed_book(records[i])]
    rows = [row("labelled candidates answered", labelled), row("stage candidates (min-score 0)", stage),
            row("good stage candidates", [i for i in stage if labels[i].good_question is True]),
            row("offline default's questions", [q["id"] for q in default if q["id"] in records]),
            row("judge's kept questions", [q["id"] for q in judged])]
    tested = apply_closed_book(judged, answers, rejected=judged_rejected)
    kept = [q["id"] for q in tested.questions]
    after = row("judge, then closed-book (caps again)", kept)
    after["closed_book"] = {k: v for k, v in tested.summary.to_dict().items()
                            if k in ("candidates", "recalled", "unanswered_questions", "dropped", "held",
                                     "per_target_cap", "per_article_cap", "questions", "recalled_share")}
    rows.append(after)
    for r, n_requests in ((rows[-2], judge_requests), (rows[-1], judge_requests + tested.summary.requests)):
        r["per_100_articles"] = round(100 * r["questions"] / articles, 1)
        r["requests_per_kept"] = round(n_requests / r["questions"], 2) if r["questions"] else None
    cols = ["set", "questions", "answered", *(f"recalled@{t}" for t in THRESHOLDS), "recalled_by_doi", "good",
            "per_100_articles", "requests_per_kept"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join("" if r.get(c) is None else str(r.get(c)) for c in cols) + " |")
    result = {"articles": articles, "responses": [str(p) for p in args.responses], "answers": len(answers),
              "title_threshold": DEFAULT_THRESHOLD, "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(args.out) as handle:
        handle.write(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
