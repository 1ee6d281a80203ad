"""The judge stage's quality on the dev labels: the cascade (selector threshold, then the judge) swept.

Run from the project root:  python benchmarks/bench_judge_quality.py [--responses FILE]
Builds the dev corpus (../shared/corpora/jats/dev) with ``--min-score 0``, takes the selector's
cross-validated scores (``train-selector --cv-scores`` on corpora/labels/dev_labels.jsonl, so no score is
in-sample), prepares the judge's requests, and applies the stored answers
(corpora/labels/dev_judge_responses.jsonl by default) with only the candidates whose cross-validated score
reaches each cascade threshold sent to the judge. Per row: the cascade threshold (named by the share of the good
candidates it lets through), the judge's --min-confidence, the requests sent, the kept questions after the
per-target and per-article caps, their good / author-named / PASSING / broken shares (labels), the share of the
good candidates that reach the judge which it keeps before the caps and after them, the share of the distinct
(article, cited work) pairs among those good candidates that keep a question (the per-target cap allows one question
per cited work and article), and the requests per kept question. At the default cascade and confidence, the
per-article cap is swept too (``PER_ARTICLE``; "none" lifts it). Prints one table and writes benchmarks/results/judge_quality.json.
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
from chemref.questions.judge.answers import read_responses  # noqa: E402
from chemref.questions.judge.apply import apply_judgement  # noqa: E402
from chemref.questions.judge.client import read_requests  # noqa: E402
from chemref.questions.labels.label import read_labels  # noqa: E402
from chemref.questions.funnel.filters import target_key  # noqa: E402
from chemref.questions.funnel.selector_training import article_of, cascade_threshold  # noqa: E402
from tools.reference_data import reference_path  # noqa: E402

LABELS = ROOT / "corpora" / "labels" / "dev_labels.jsonl"
RESPONSES = ROOT / "corpora" / "labels" / "dev_judge_responses.jsonl"
OUT = ROOT / "benchmarks" / "results" / "judge_quality.json"
GOOD_LET_THROUGH = (1.0, 0.95, 0.9, 0.85)
CONFIDENCES = (0.5, 0.6, 0.7)
#: The per-article caps swept at the default cascade and confidence (None: no per-article cap).
PER_ARTICLE = (4, 8, 12, 16, None)
DEFAULT_SHARE, DEFAULT_CONFIDENCE = 0.9, 0.5


def _chemref(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "chemref", *args], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", type=Path, default=RESPONSES)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    dev = reference_path("corpora", "jats", "dev", project_root=ROOT)
    if dev is None or not dev.is_dir():
        print("skipped: the dev articles (corpora/jats/dev of the reference data) are not here")
        return 0
    labels = read_labels(LABELS)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        _chemref("questions", "build", str(dev), "-o", str(t / "q.jsonl"), "--rejected", str(t / "r.jsonl"),
                 "--min-score", "0", "--no-progress")
        _chemref("questions", "train-selector", str(LABELS), "--questions", str(t / "q.jsonl"), "--rejected",
                 str(t / "r.jsonl"), "-o", str(t / "selector.json"), "--cv-scores", str(t / "cv.jsonl"))
        _chemref("questions", "judge", "prepare", str(t / "q.jsonl"), "--rejected", str(t / "r.jsonl"),
                 "--min-score", "0", "--model", "judge", "-o", str(t / "requests.jsonl"))  # the cascade is swept here
        questions = [row for _, row in read_jsonl(t / "q.jsonl")]
        rejected = [row for _, row in read_jsonl(t / "r.jsonl")]
        cv = {row["id"]: float(row["score"]) for _, row in read_jsonl(t / "cv.jsonl")}
        requests = read_requests(t / "requests.jsonl")
    answers = read_responses(args.responses)
    reached_all = [r.custom_id for r in requests]
    good = {i for i in reached_all if i in labels and labels[i].good_question is True}
    records = {row["id"]: row for row in (*questions, *rejected)}

    def target(i: str) -> tuple[str, str]:
        # the per-target cap's key: one question per cited work and article
        row = records.get(i, {})
        return article_of(i), target_key(row.get("target_doi"), row.get("ref_id"), i)

    rows = []
    for share in GOOD_LET_THROUGH:
        # a share of 1 sends every candidate (threshold 0), not only those from the lowest good score on
        threshold = 0.0 if share >= 1.0 else cascade_threshold([cv.get(i, 0.0) for i in good], [True] * len(good),
                                                                share)
        sent = [r for r in requests if cv.get(r.custom_id, 0.0) >= threshold]
        sent_ids = {r.custom_id for r in sent}
        sent_good = good & sent_ids
        runs = [(confidence, 4) for confidence in CONFIDENCES]
        if share == DEFAULT_SHARE:
            runs += [(DEFAULT_CONFIDENCE, cap) for cap in PER_ARTICLE if cap != 4]
        for confidence, per_article in runs:
            judged = apply_judgement([dict(q) for q in questions], {i: a for i, a in answers.items() if i in sent_ids},
                                     rejected=[dict(r) for r in rejected], requests=sent, min_confidence=confidence,
                                     per_article=per_article or 10**9)
            kept = [q["id"] for q in judged.questions]
            lab = [labels[i] for i in kept if i in labels]
            before_caps = {r["id"] for r in judged.rejected if r.get("reason") in ("per_target_cap", "per_article_cap")}
            kept_before = sent_good & (set(kept) | before_caps)
            n = len(lab) or 1
            rows.append({
                "good_let_through": share, "cascade_threshold": round(threshold, 4), "min_confidence": confidence,
                "per_article": per_article,
                "requests": len(sent), "kept": len(kept),
                "good": round(sum(1 for x in lab if x.good_question is True) / n, 3),
                "author_named": round(sum(1 for x in lab if x.author_named) / n, 3),
                "passing": round(sum(1 for x in lab if x.function == "PASSING") / n, 3),
                "broken": round(sum(1 for x in lab if not x.sentence_ok) / n, 3),
                "good_kept_before_caps": round(len(kept_before) / max(1, len(sent_good)), 3),
                "good_kept": round(len(sent_good & set(kept)) / max(1, len(sent_good)), 3),
                "good_targets_kept": round(len({target(i) for i in sent_good & set(kept)})
                                           / max(1, len({target(i) for i in sent_good})), 3),
                "requests_per_kept": round(len(sent) / max(1, len(kept)), 2)})
    header = ("good in", "threshold", "min conf", "per article", "requests", "kept", "good", "author", "PASSING",
              "broken", "good kept (pre-caps)", "good kept", "good targets kept", "req/kept")
    print(" | ".join(header))
    for r in rows:
        print(" | ".join(str(v) for v in (r["good_let_through"], r["cascade_threshold"], r["min_confidence"],
                                           r["per_article"] or "none", r["requests"], r["kept"], r["good"],
                                           r["author_named"], r["passing"], r["broken"], r["good_kept_before_caps"],
                                           r["good_kept"], r["good_targets_kept"], r["requests_per_kept"])))
    model = next((a.model for _, a in answers.values() if a.model), None)
    with atomic_write(args.out) as handle:
        json.dump({"responses": str(args.responses.relative_to(ROOT)) if args.responses.is_relative_to(ROOT)
                   else str(args.responses), "model": model, "rows": rows}, handle, indent=1)
        handle.write("\n")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
