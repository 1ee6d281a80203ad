"""Claim-vs-passing classifier on the citation-function sets in ../shared (measurement only) and our golden tables.

Run from the project root:  python benchmarks/bench_claims.py
Prints one table and writes benchmarks/results/claims.json. Label mappings follow each set's README in
../shared/corpora/citation_function/: SciCite background+result = CLAIM, method = PASSING (noisy);
SDP-2021 ACT USES = PASSING, BACKGROUND/COMPARES_CONTRASTS/MOTIVATION = CLAIM (EXTENSION/FUTURE left out);
SoMeSci software_usage = PASSING (recall only); Citation-Integrity single-citation claims = CLAIM (recall only).

Classifiers: the rules alone (``ClaimRules``), the trained model without the rules' features (n-grams only, fitted
here on corpora/labels/claims_labels.jsonl with the setting train.py chose for it), the shipped combination
(``classify_citation``: the model over n-grams and the rules' decision) and a naive cue regex. Last, a 5-fold
cross-validation (grouped by article) on our labels, rebuilt from the dev JATS of ../shared.
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
from chemref.nlp.claims import DEFAULT_RULES, classify_citation  # noqa: E402
from chemref.nlp.claims_model import ClaimModel, find_citation  # noqa: E402

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
    f1s = [out[label]["f1"] for label in ("CLAIM", "PASSING")]
    out["macro_f1"] = sum(f1s) / 2 if None not in f1s else None
    return out


def rules(text: str, cit: "tuple[int, int] | None") -> str:
    return DEFAULT_RULES.classify(text, cit if cit is not None else find_citation(text)).label


def combination(text: str, cit: "tuple[int, int] | None") -> str:
    return classify_citation(text, cit).label


def _ngram_model() -> "ClaimModel":
    """The model without the rules' features, fitted on all our labels with the setting train.py chose for it."""
    from tools.claims_training_set import load_rows  # noqa: PLC0415 (only when ../shared is there)
    from training.claims.train import load_config, train  # noqa: PLC0415

    shipped = ClaimModel.default()
    setting = dict(shipped.meta.get("best_without_rules") or {})
    if not setting:
        raise SystemExit("the shipped claims_model.json has no meta.best_without_rules: retrain it")
    return ClaimModel(train(load_rows().rows, setting, load_config()))


_MODEL: "list[ClaimModel]" = []


def model(text: str, cit: "tuple[int, int] | None") -> str:
    m = _MODEL[0]
    p = m.probability(text, cit if cit is not None else find_citation(text))  # reads no rule
    return "CLAIM" if p >= m.threshold else "PASSING"


# A naive baseline for scale: the usage cue list quoted in SciCite's README in ../shared (one regex, no context).
_NAIVE = re.compile(r"purchased|obtained from|\bkits?\b|software|package|was used|were used|\busing\b|"
                    r"as described|previously described", re.IGNORECASE)


def naive(text: str, cit: "tuple[int, int] | None") -> str:
    return "PASSING" if _NAIVE.search(text) else "CLAIM"


PREDICTORS: list[tuple[str, Callable[[str, "tuple[int, int] | None"], str]]] = [
    ("rules alone", rules), ("model (n-grams)", model), ("combination", combination), ("naive cue regex", naive)]


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


def cross_validated() -> dict:
    """5-fold cross-validation grouped by article on our labels: the rules and the naive regex need no fitting;
    the model and the combination are refitted on each fold's other four (the shipped settings)."""
    from tools.claims_training_set import load_rows  # noqa: PLC0415 (only when ../shared is there)
    from training.claims.train import Featurised, cross_validate, folds_by_article, load_config  # noqa: PLC0415

    found = load_rows()
    rows = found.rows
    config = load_config()
    folds = folds_by_article(rows, int(config["training"]["folds"]), int(config["training"]["seed"]))
    labels = [1 if row["label"] == "CLAIM" else 0 for row in rows]
    shipped = ClaimModel.default()
    examples = [(row["text"], tuple(row["cite"]), row["label"]) for row in rows]
    out = {"n": len(rows), "left_out": len(found.stale)}
    for pred_name, predict in (("rules alone", rules), ("naive cue regex", naive)):
        out[pred_name] = score(examples, predict)
    for pred_name, setting in (("model (n-grams)", shipped.meta["best_without_rules"]),
                               ("combination", shipped.meta["setting"])):
        data = Featurised(rows, setting["ngrams"], setting["window"], setting["rules"], setting["clause"])
        cv = cross_validate(data, labels, folds, l2=setting["l2"], class_weight=setting["class_weight"],
                            min_count=int(config["features"]["min_count"]))
        by_text = {row["text"]: ("CLAIM" if z >= 0 else "PASSING") for row, z in zip(rows, cv["logits"])}
        out[pred_name] = score(examples, lambda text, cit, by_text=by_text: by_text[text])
        out[pred_name]["sentences_per_s"] = None
    return out


def _line(name: str, pred_name: str, res: dict, measurable: "tuple[str, ...]") -> str:
    def show(label: str, key: str) -> str:
        return _fmt(res[label][key]) if label in measurable else "  n/a"

    macro = _fmt(res["macro_f1"]) if len(measurable) == 2 else "  n/a"
    speed = res["sentences_per_s"] if res["sentences_per_s"] is not None else "-"
    return (f"{name:32} {pred_name:16} {res['n']:>5} {show('CLAIM', 'precision'):>8} {show('CLAIM', 'recall'):>8} "
            f"{show('PASSING', 'precision'):>8} {show('PASSING', 'recall'):>8} {show('PASSING', 'f1'):>8} "
            f"{macro:>8} {speed:>8}")


def main() -> int:
    if not CF.exists():
        print(f"skipped: {CF} not found (../shared is not beside this checkout)")
        return 0
    _MODEL.append(_ngram_model())
    results: dict = {}
    header = (f"{'set':32} {'classifier':16} {'n':>5} {'CLAIM P':>8} {'CLAIM R':>8} {'PASS P':>8} {'PASS R':>8} "
              f"{'PASS F1':>8} {'macro F1':>8} {'sent/s':>8}")
    print(header)
    print("-" * len(header))
    for name, loader, measurable in SETS:
        rows = loader()
        results[name] = {}
        for pred_name, predict in PREDICTORS:
            res = score(rows, predict)
            res["measurable"] = list(measurable)
            results[name][pred_name] = res
            print(_line(name, pred_name, res, measurable))
    cv_name = "ours, 5-fold CV (dev JATS)"
    results[cv_name] = cv = cross_validated()
    for pred_name, _ in PREDICTORS:
        print(_line(cv_name, pred_name, cv[pred_name], ("CLAIM", "PASSING")))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(OUT) as handle:
        json.dump({"command": "python benchmarks/bench_claims.py",
                   "classifiers": {"rules alone": "chemref.nlp.claims.DEFAULT_RULES.classify",
                                   "model (n-grams)": "the claim model without the rules' features, fitted here",
                                   "combination": "chemref.nlp.claims.classify_citation (shipped)",
                                   "naive cue regex": _NAIVE.pattern},
                   "model_setting": ClaimModel.default().meta.get("setting"),
                   "note": "golden = benchmarks/golden/claims.py CASES (our own sentences, xfail hard cases included); "
                           "the ../shared sets are used for measurement only; the CV rows are over "
                           "corpora/labels/claims_labels.jsonl (sent/s not measured there)",
                   "sets": results}, handle, indent=2)
    print(f"\nwrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
