"""How far our claim-vs-passing definition and SDP-2021 ACT's USES label agree, on ACT's own training text.

Run from the project root:  python benchmarks/bench_act_agreement.py [--act-train PATH/train.csv]

``corpora/labels/act_train_sample.jsonl`` holds our label (CLAIM or PASSING, by the definition in
corpora/labels/README.md) of the first 240 citation contexts of the 3C shared task's training file (``unique_id``
CC1-CC240 of ``dataset/3c-shared-task-purpose/train.csv`` in the public repository
claudiovaliense/wosp_2020_3c-shared-task-purpose, commit 196436fa), beside that row's ACT label. The labels were
given by an annotator session that saw only the contexts and the definition, never ACT's labels; the text is not
in this repository (its licence is not stated there), only a SHA-1 prefix of the context as labelled.

With the labels alone it prints how our annotator's labels score against ACT's, with the mapping that
``bench_claims.py`` uses for the ACT test set (USES = PASSING; BACKGROUND, COMPARES_CONTRASTS, MOTIVATION = CLAIM;
EXTENSION and FUTURE left out): the agreement a classifier of our definition can expect on ACT. Given the training
file (``--act-train``), it also scores the shipped classifier, the rules alone and the naive cue regex against ACT's
labels and against our annotator's, on the same rows. Writes benchmarks/results/act_agreement.json.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_claims import combination, naive, rules, score  # noqa: E402
from chemref._io.atomic import atomic_write  # noqa: E402
from chemref.scoring.stats.agreement import cohen_kappa  # noqa: E402

LABELS = ROOT / "corpora" / "labels" / "act_train_sample.jsonl"
OUT = ROOT / "benchmarks" / "results" / "act_agreement.json"
#: ACT's labels as bench_claims.py maps them for the ACT test set (the others are left out)
MAPPING = {"USES": "PASSING", "BACKGROUND": "CLAIM", "COMPARES_CONTRASTS": "CLAIM", "MOTIVATION": "CLAIM"}
ACT_NAMES = ("BACKGROUND", "COMPARES_CONTRASTS", "EXTENSION", "FUTURE", "MOTIVATION", "USES")
TAG = "#AUTHOR_TAG"


def _contexts(path: Path) -> dict[str, str]:
    """``unique_id`` -> ``citation_context`` of the 3C training file."""
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        return {row["unique_id"]: row["citation_context"] for row in csv.DictReader(handle)}


def _row(name: str, res: dict) -> str:
    passing = res["PASSING"]
    return (f"{name:44} {res['n']:>4} {res['macro_f1']:>8.3f} {passing['precision'] or 0:>7.3f} "
            f"{passing['recall'] or 0:>7.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--act-train", type=Path, help="the 3C shared task's train.csv (see the docstring)")
    args = parser.parse_args()
    items = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]
    kept = [item for item in items if item["act_label"] in MAPPING]
    ours = [item["label"] for item in kept]
    act = [MAPPING[item["act_label"]] for item in kept]
    results: dict = {"rows": len(items), "rows_scored": len(kept),
                     "act_labels": {name: sum(item["act_label"] == name for item in items) for name in ACT_NAMES},
                     "our_labels": {label: ours.count(label) for label in ("CLAIM", "PASSING")}}
    header = f"{'against ACT (USES = PASSING)':44} {'n':>4} {'macro F1':>8} {'PASS P':>7} {'PASS R':>7}"
    print(header)
    print("-" * len(header))
    annotator = score([(label, None, gold) for label, gold in zip(ours, act)], lambda label, _cit: label)
    annotator["kappa"] = round(cohen_kappa(list(zip(ours, act))) or 0.0, 3)
    results["annotator_vs_act"] = annotator
    print(_row("our annotator", annotator) + f"   kappa {annotator['kappa']:.3f}")
    if args.act_train is not None:
        texts = _contexts(args.act_train)
        missing = [item["id"] for item in kept if item["id"] not in texts]
        if missing:
            print(f"error: {args.act_train}: rows {', '.join(missing[:5])} not found: is it the 3C train.csv?",
                  file=sys.stderr)
            return 2
        same = sum(hashlib.sha1(texts[item["id"]].encode("utf-8")).hexdigest()[:12] == item["text_sha1"]
                   for item in kept)
        results["text_matches_labelled_copy"] = same
        sentences = [texts[item["id"]].replace(TAG, "[CITATION]", 1) for item in kept]
        for name, predict in (("chemref classify_citation (shipped)", combination), ("rules alone", rules),
                              ("naive cue regex", naive)):
            vs_act = score([(text, None, gold) for text, gold in zip(sentences, act)], predict)
            vs_ours = score([(text, None, gold) for text, gold in zip(sentences, ours)], predict)
            results[name] = {"vs_act": vs_act, "vs_our_annotator": vs_ours}
            print(_row(name, vs_act) + f"   vs our annotator: macro F1 {vs_ours['macro_f1']:.3f}")
        print(f"({same} of {len(kept)} contexts are byte-identical to the copy our annotator labelled)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(OUT) as handle:
        json.dump({"command": "python benchmarks/bench_act_agreement.py"
                   + (" --act-train train.csv" if args.act_train else ""), **results}, handle, indent=2)
    print(f"\nwrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
