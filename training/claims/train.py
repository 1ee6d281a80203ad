"""Train the claim-vs-passing model and write it into the package.

    nice python training/claims/train.py            # from the repo root (needs ../shared: the dev JATS)

1. rebuilds the labelled sentences of ``corpora/labels/claims_labels.jsonl`` from the dev JATS of the reference
   data (``tools/claims_training_set.py``; ``$CHEMREF_REFERENCE_DATA``, default ``../shared``);
2. reads the settings in ``training/claims/config.cfg`` (spaCy's config system) and scores every combination of
   its ``[search]`` values by 5-fold cross-validation grouped by article (seeded), macro-F1 of CLAIM and PASSING;
3. fits the best setting on all the labels (L2 logistic regression, L-BFGS from zeros: deterministic) and writes
   ``chemref/nlp/data/claims_model.json`` with the cross-validated figures in its ``meta``.

Nothing but our labels is read to choose or fit: the public citation-function sets are for measurement only
(``benchmarks/bench_claims.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import random
import sys
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from chemref.nlp.claims import DEFAULT_RULES, citation_clause  # noqa: E402
from chemref.nlp.claims_model import Settings, features  # noqa: E402
from tools.claims_training_set import LABELS_FILE, dev_jats, load_rows  # noqa: E402
from tools.reference_data import REFERENCE_DATA_ENV  # noqa: E402

CONFIG = Path(__file__).resolve().parent / "config.cfg"
TARGET = ROOT / "chemref" / "nlp" / "data" / "claims_model.json"


def load_config(path: Path = CONFIG) -> dict[str, Any]:
    """The training settings (spaCy's config system: ``spacy.util.load_config``)."""
    from spacy.util import load_config as spacy_load_config  # noqa: PLC0415 (spaCy only to read the config)

    return spacy_load_config(path, interpolate=True)


def folds_by_article(rows: Sequence[dict[str, Any]], k: int, seed: int) -> list[int]:
    """The fold of each row: articles shuffled with ``seed`` and dealt round-robin into ``k`` folds."""
    articles = sorted({row["article"] for row in rows})
    random.Random(seed).shuffle(articles)
    fold_of = {article: i % k for i, article in enumerate(articles)}
    return [fold_of[row["article"]] for row in rows]


class Featurised:
    """The feature dicts of the rows for one featuriser setting (computed once, shared by the folds)."""

    def __init__(self, rows: Sequence[dict[str, Any]], ngrams: int, window: int, rules: str, clause: bool) -> None:
        self.settings = Settings(ngrams, window, rules, clause)
        self.feats = []
        for row in rows:
            text = row["text"]
            cite = (row["cite"][0], row["cite"][1])
            decision, names = DEFAULT_RULES.evidence(text, cite)
            self.feats.append(features(text, cite, self.settings, decision, names, citation_clause(text, *cite)))


def fit(feats: Sequence[dict[str, float]], labels: Sequence[int], *, l2: float, class_weight: str,
        min_count: int) -> tuple[float, dict[str, float]]:
    """Bias and weights of an L2 logistic regression (label 1 = CLAIM) on the features seen in at least
    ``min_count`` rows (real-valued features always kept)."""
    import numpy as np  # noqa: PLC0415 (numpy and scipy only when fitting)
    from scipy import sparse  # noqa: PLC0415
    from scipy.optimize import minimize  # noqa: PLC0415

    counts: dict[str, int] = {}
    for f in feats:
        for name in f:
            counts[name] = counts.get(name, 0) + 1
    names = sorted(n for n, c in counts.items() if c >= min_count or n == "rules:logit")
    index = {n: i for i, n in enumerate(names)}
    indptr, cols, vals = [0], [], []
    for f in feats:
        for name, value in f.items():
            j = index.get(name)
            if j is not None:
                cols.append(j)
                vals.append(value)
        indptr.append(len(cols))
    x = sparse.csr_matrix((vals, cols, indptr), shape=(len(feats), len(names)), dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    if class_weight == "balanced":
        pos = y.mean()
        w = np.where(y == 1, 0.5 / pos, 0.5 / (1 - pos))
    else:
        w = np.ones_like(y)
    sign = 2 * y - 1

    def loss(theta: "np.ndarray") -> tuple[float, "np.ndarray"]:
        z = x @ theta[1:] + theta[0]
        m = sign * z
        value = float(np.sum(w * np.logaddexp(0, -m)) + 0.5 * l2 * theta[1:] @ theta[1:])
        g = -w * sign / (1 + np.exp(m))
        grad = np.empty_like(theta)
        grad[0] = g.sum()
        grad[1:] = x.T @ g + l2 * theta[1:]
        return value, grad

    result = minimize(loss, np.zeros(len(names) + 1), jac=True, method="L-BFGS-B",
                      options={"maxiter": 1000, "gtol": 1e-5})
    theta = result.x
    return float(theta[0]), {n: float(theta[i + 1]) for i, n in enumerate(names)}


def predict(bias: float, weights: dict[str, float], feats: dict[str, float]) -> float:
    """The log-odds of CLAIM (as :meth:`chemref.nlp.claims_model.ClaimModel.logit` computes it)."""
    return bias + sum(weights.get(n, 0.0) * v for n, v in feats.items())


def macro_f1(gold: Sequence[int], pred: Sequence[int]) -> float:
    """Mean F1 of CLAIM (1) and PASSING (0)."""
    scores = []
    for label in (1, 0):
        tp = sum(1 for g, p in zip(gold, pred) if g == label and p == label)
        fp = sum(1 for g, p in zip(gold, pred) if g != label and p == label)
        fn = sum(1 for g, p in zip(gold, pred) if g == label and p != label)
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / 2


def cross_validate(data: Featurised, labels: Sequence[int], folds: Sequence[int], *, l2: float, class_weight: str,
                   min_count: int, threshold: float = 0.5) -> dict[str, Any]:
    """Out-of-fold log-odds of every row and the macro-F1 at ``threshold``."""
    logits = [0.0] * len(labels)
    for k in sorted(set(folds)):
        train = [i for i, f in enumerate(folds) if f != k]
        bias, weights = fit([data.feats[i] for i in train], [labels[i] for i in train], l2=l2,
                            class_weight=class_weight, min_count=min_count)
        for i, f in enumerate(folds):
            if f == k:
                logits[i] = predict(bias, weights, data.feats[i])
    cut = math.log(threshold / (1 - threshold))
    pred = [1 if z >= cut else 0 for z in logits]
    return {"macro_f1": round(macro_f1(labels, pred), 4), "logits": logits}


def search(rows: Sequence[dict[str, Any]], config: dict[str, Any], *, log: Any = print) -> list[dict[str, Any]]:
    """Every setting of the config's ``[search]`` with its cross-validated macro-F1 (best first)."""
    grid = config["search"]
    labels = [1 if row["label"] == "CLAIM" else 0 for row in rows]
    folds = folds_by_article(rows, int(config["training"]["folds"]), int(config["training"]["seed"]))
    min_count = int(config["features"]["min_count"])
    threshold = float(config["model"]["threshold"])
    results = []
    for ngrams, window, rules, clause in itertools.product(grid["ngrams"], grid["window"], grid["rules"],
                                                           grid["clause"]):
        data = Featurised(rows, int(ngrams), int(window), str(rules), bool(clause))
        for l2, class_weight in itertools.product(grid["l2"], grid["class_weight"]):
            cv = cross_validate(data, labels, folds, l2=float(l2), class_weight=str(class_weight),
                                min_count=min_count, threshold=threshold)
            setting = {"ngrams": int(ngrams), "window": int(window), "rules": str(rules), "clause": bool(clause),
                       "l2": float(l2), "class_weight": str(class_weight)}
            results.append({**setting, "macro_f1": cv["macro_f1"]})
            log(f"{setting} macro-F1 {cv['macro_f1']:.4f}")
    # ties: the smaller model first (fewer n-grams, no window, no clause, less from the rules, more penalty)
    order = {"none": 0, "decision": 1, "evidence": 2}
    results.sort(key=lambda r: (-r["macro_f1"], r["ngrams"], r["window"], r["clause"], order[r["rules"]], -r["l2"],
                                r["class_weight"]))
    return results


def train(rows: Sequence[dict[str, Any]], setting: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The model JSON of ``setting`` fitted on every row."""
    data = Featurised(rows, setting["ngrams"], setting["window"], setting["rules"], setting["clause"])
    labels = [1 if row["label"] == "CLAIM" else 0 for row in rows]
    bias, weights = fit(data.feats, labels, l2=setting["l2"], class_weight=setting["class_weight"],
                        min_count=int(config["features"]["min_count"]))
    weights = {n: round(w, 5) for n, w in sorted(weights.items()) if abs(w) >= 5e-5}
    return {"settings": data.settings.to_json(), "bias": round(bias, 5),
            "threshold": float(config["model"]["threshold"]), "weights": weights}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=CONFIG)
    parser.add_argument("--jats", type=Path, default=None, help="the dev JATS folder (default: the reference data's)")
    parser.add_argument("-o", "--output", type=Path, default=TARGET)
    args = parser.parse_args(argv)
    folder = args.jats or dev_jats()
    if not folder.is_dir():
        print(f"train.py: skipped: {folder}: not found (the dev JATS of the reference data: set "
              f"{REFERENCE_DATA_ENV} or --jats; docs/reference-data.md)", file=sys.stderr)
        return 2
    found = load_rows(LABELS_FILE, folder)
    for ident, why in found.stale:
        print(f"left out {ident}: {why}", file=sys.stderr)
    rows = found.rows
    config = load_config(args.config)
    results = search(rows, config)
    best = results[0]
    best_ngrams_only = next(r for r in results if r["rules"] == "none")
    model = train(rows, best, config)
    labels_sha1 = hashlib.sha1(LABELS_FILE.read_bytes()).hexdigest()[:12]
    model["meta"] = {
        "trained_by": "python training/claims/train.py", "labels": "corpora/labels/claims_labels.jsonl",
        "labels_sha1": labels_sha1, "sentences": len(rows),
        "claim": sum(r["label"] == "CLAIM" for r in rows), "passing": sum(r["label"] == "PASSING" for r in rows),
        "setting": best, "cv": "5 folds grouped by article, seed "
        f"{config['training']['seed']}; macro-F1 of CLAIM and PASSING",
        "best_without_rules": best_ngrams_only,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text(json.dumps(model, ensure_ascii=False, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    tmp.replace(args.output)
    print(f"best {best}; without the rules {best_ngrams_only}; {len(model['weights'])} weights -> {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
