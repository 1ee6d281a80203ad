"""Claim-vs-passing classifier on the citation-function sets in ../shared (measurement only) and our golden tables.

Run from the project root:  python benchmarks/bench_claims.py
Prints one table and writes benchmarks/results/claims.json. Label mappings follow each set's README in
../shared/corpora/citation_function/: SciCite background+result = CLAIM, method = PASSING (noisy);
SDP-2021 ACT USES = PASSING, BACKGROUND/COMPARES_CONTRASTS/MOTIVATION = CLAIM (EXTENSION/FUTURE left out);
SoMeSci software_usage = PASSING (recall only); Citation-Integrity single-citation claims = CLAIM (recall only).
"""

from __future__ import annotations

import csv
import json
import re
import sys
import time
from pathlib import Path
from typing import Callable, Iterable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tools.reference_data import reference_path  # noqa: E402
SHARED = reference_path(project_root=ROOT)
CF = SHARED / "corpora" / "citation_function"
OUT = ROOT / "benchmarks" / "results" / "claims.json"

sys.path.insert(0, str(ROOT))

from chemref._io.atomic import atomic_write  # noqa: E402
from chemref.nlp.claims import classify_citation  # noqa: E402

Example = tuple[str, "tuple[int, int] | None", str]  # sentence, citation offsets, gold label
_METHODS_HEADING = re.compile(r"method|material|experiment|procedure|protocol|patients|subjects|participants|"
                              r"statistic|analysis|design|setting|measure|data\s+collection|sample", re.IGNORECASE)


def load_scicite(*, outside_methods: bool = False) -> list[Example]:
    rows = []
    with (CF / "scicite" / "test.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            item = json.loads(line)
            heading = item.get("sectionName")
            if outside_methods and _METHODS_HEADING.search(heading if isinstance(heading, str) else ""):
                continue
            gold = "PASSING" if item["label"] == "method" else "CLAIM"
            text = item["string"]
            try:  # a few rows have NaN offsets: classify the whole sentence then
                start, end = int(item["citeStart"]), int(item["citeEnd"])
            except (TypeError, ValueError):
                start, end = -1, -1
            cit = (start, end) if 0 <= start <= end <= len(text) else None
            rows.append((text, cit, gold))
    return rows


def load_sdp() -> list[Example]:
    mapping = {"5": "PASSING", "0": "CLAIM", "1": "CLAIM", "4": "CLAIM"}
    rows = []
    with (CF / "sdp2021_3c_act" / "sdp_act_test.tsv").open(encoding="utf-8", newline="") as handle:
        for item in csv.DictReader(handle, delimiter="\t"):
            gold = mapping.get(item["citation_class_label"].strip())
            if gold is None:
                continue
            text = item["citation_context"]
            pos = text.find("#AUTHOR_TAG")
            cit = (pos, pos + len("#AUTHOR_TAG")) if pos >= 0 else None
            rows.append((text, cit, gold))
    return rows


def load_somesci(*, outside_methods: bool = False) -> list[Example]:
    rows = []
    with (CF / "somesci_citations" / "somesci_citation_sentences.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            item = json.loads(line)
            if item["label"] != "software_usage":
                continue
            if outside_methods and item["subset"] == "PLoS_methods":
                continue
            rows.append((item["sentence"], (item["citation_start"], item["citation_end"]), "PASSING"))
    return rows


def load_integrity() -> list[Example]:
    rows = []
    with (CF / "citation_integrity" / "claims-test.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["claim"]
            if "<|multi_cit|>" in text or text.count("<|cit|>") != 1:
                continue
            pos = text.find("<|cit|>")
            rows.append((text, (pos, pos + len("<|cit|>")), "CLAIM"))
    return rows


def load_golden() -> list[Example]:
    from benchmarks.golden.claims import CASES  # our own written examples

    rows = []
    for case in CASES:
        values = case.values if hasattr(case, "values") else case
        sentence, gold = values[0], values[1]
        pos = sentence.find("[CIT]")
        cit = (pos, pos + len("[CIT]")) if pos >= 0 else None
        rows.append((sentence, cit, gold))
    return rows


def score(rows: Iterable[Example], predict: Callable[[str, "tuple[int, int] | None"], str]) -> dict:
    tp = {"CLAIM": 0, "PASSING": 0}
    fp = {"CLAIM": 0, "PASSING": 0}
    fn = {"CLAIM": 0, "PASSING": 0}
    n = 0
    t0 = time.perf_counter()
    for text, cit, gold in rows:
        pred = predict(text, cit)
        n += 1
        if pred == gold:
            tp[gold] += 1
        else:
            fp[pred] += 1
            fn[gold] += 1
    elapsed = time.perf_counter() - t0
    out: dict = {"n": n, "sentences_per_s": round(n / elapsed) if elapsed else None}
    for label in ("CLAIM", "PASSING"):
        gold_n = tp[label] + fn[label]
        pred_n = tp[label] + fp[label]
        p = tp[label] / pred_n if pred_n else None
        r = tp[label] / gold_n if gold_n else None
        f = 2 * p * r / (p + r) if p and r else (0.0 if p is not None and r is not None else None)
        out[label] = {"gold": gold_n, "predicted": pred_n, "precision": p, "recall": r, "f1": f}
    return out


def rules(text: str, cit: "tuple[int, int] | None") -> str:
    return classify_citation(text, cit).label


# A naive baseline for scale: the usage cue list quoted in SciCite's README in ../shared (one regex, no context).
_NAIVE = re.compile(r"purchased|obtained from|\bkits?\b|software|package|was used|were used|\busing\b|"
                    r"as described|previously described", re.IGNORECASE)


def naive(text: str, cit: "tuple[int, int] | None") -> str:
    return "PASSING" if _NAIVE.search(text) else "CLAIM"


PREDICTORS: list[tuple[str, Callable[[str, "tuple[int, int] | None"], str]]] = [
    ("chemref rules", rules), ("naive cue regex", naive)]


# what each set can measure (README mappings): which of the four figures to print
SETS: list[tuple[str, Callable[[], list[Example]], tuple[str, ...]]] = [
    ("golden (ours, dev)", load_golden, ("CLAIM", "PASSING")),
    ("SciCite test", load_scicite, ("CLAIM", "PASSING")),
    ("SciCite, non-Methods headings", lambda: load_scicite(outside_methods=True), ("CLAIM", "PASSING")),
    ("SDP-2021 ACT (USES vs B/C/M)", load_sdp, ("CLAIM", "PASSING")),
    ("SoMeSci software_usage", load_somesci, ("PASSING",)),
    ("SoMeSci usage, non-Methods", lambda: load_somesci(outside_methods=True), ("PASSING",)),
    ("Citation-Integrity 1-cit", load_integrity, ("CLAIM",)),
]


def _fmt(value: "float | None") -> str:
    return "  -  " if value is None else f"{value:.3f}"


def main() -> int:
    if not CF.exists():
        print(f"skipped: {CF} not found (../shared is not beside this checkout)")
        return 0
    results: dict = {}
    header = (f"{'set':32} {'classifier':16} {'n':>5} {'CLAIM P':>8} {'CLAIM R':>8} {'PASS P':>8} {'PASS R':>8} "
              f"{'PASS F1':>8} {'sent/s':>8}")
    print(header)
    print("-" * len(header))
    for name, loader, measurable in SETS:
        rows = loader()
        results[name] = {}
        for pred_name, predict in PREDICTORS:
            res = score(rows, predict)
            res["measurable"] = list(measurable)
            results[name][pred_name] = res

            def show(label: str, key: str, res: dict = res) -> str:
                return _fmt(res[label][key]) if label in measurable else "  n/a"

            print(f"{name:32} {pred_name:16} {res['n']:>5} {show('CLAIM', 'precision'):>8} "
                  f"{show('CLAIM', 'recall'):>8} {show('PASSING', 'precision'):>8} {show('PASSING', 'recall'):>8} "
                  f"{show('PASSING', 'f1'):>8} {res['sentences_per_s']:>8}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(OUT) as handle:
        json.dump({"command": "python benchmarks/bench_claims.py",
                   "classifiers": {"chemref rules": "chemref.nlp.claims.classify_citation",
                                   "naive cue regex": _NAIVE.pattern},
                   "note": "golden = benchmarks/golden/claims.py CASES (our own sentences, xfail hard cases included); "
                           "the ../shared sets are used for measurement only",
                   "sets": results}, handle, indent=2)
    print(f"\nwrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
