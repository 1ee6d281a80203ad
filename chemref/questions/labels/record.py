"""Recording the shipped selector's evaluation (``chemref questions record-selector``): its cross-validated
scores evaluated on its labels, with the caps applied again, written where the card, the README and
``questions evaluate`` read it (:data:`~chemref.questions.funnel.selector_record.EVALUATION_FILE`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chemref._io.atomic import atomic_write
from chemref.jsonl import read_jsonl
from chemref.questions.funnel.selector import default_selector
from chemref.questions.funnel.selector_record import EVALUATION_FILE, _evaluation_file, id_hash, selector_fingerprint
from chemref.questions.funnel.selector_training import TRAINED_ON
from chemref.questions.labels.evaluate import evaluate, read_scores
from chemref.questions.labels.label import read_labels

__all__ = ["record_selector_evaluation"]


def record_selector_evaluation(labels_path: str, questions_path: str, rejected_path: str, scores_path: str,
                               *, output: Path = EVALUATION_FILE) -> dict[str, Any]:
    """Evaluate the shipped selector's cross-validated scores (``train-selector --cv-scores``) on its labels,
    with the caps applied again, and write what the documents quote: the candidates scored, the AUC, the
    figures at the threshold and after the caps, and a hash of every labelled id it was trained on (so that
    ``evaluate`` can say when labels are in-sample)."""
    labels = read_labels(labels_path)
    questions = [row for _, row in read_jsonl(questions_path)]
    rejected = [row for _, row in read_jsonl(rejected_path)]
    scores = read_scores(Path(scores_path))
    result = evaluate(labels, questions, rejected, scores=scores, reselect=True, source=labels_path)
    in_sample = evaluate(labels, questions, rejected, source=labels_path)
    trained = sorted(id_hash(str(r["id"])) for r in [*questions, *rejected]
                     if r.get("reason") in TRAINED_ON and str(r.get("id")) in labels
                     and labels[str(r["id"])].good_question is not None)
    kept = result.kept
    good_total = result.scored_good
    data = {
        "selector": selector_fingerprint(default_selector()),
        "command": ("chemref questions record-selector LABELS --questions QUESTIONS --rejected REJECTED --scores "
                    "CV_SCORES (a --min-score 0 build of the labels' corpus; CV_SCORES from train-selector "
                    "--cv-scores)"),
        "labels": Path(labels_path).name, "scored": result.scored, "scored_good": good_total,
        "auc": result.auc, "in_sample_auc": in_sample.auc,
        "at_threshold": None if result.at_threshold is None else {
            k: getattr(result.at_threshold, k) for k in ("threshold", "kept", "kept_share", "good", "good_share",
                                                          "good_kept_share")},
        "in_sample_at_threshold": None if in_sample.at_threshold is None else {
            k: getattr(in_sample.at_threshold, k) for k in ("kept", "good_share", "good_kept_share")},
        "after_caps": {"questions": kept.questions, "good": kept.good, "good_share": kept.good_share,
                       "author_named": kept.author_named, "passing_share": kept.passing_share,
                       "broken_share": kept.broken_share,
                       "good_kept_share": round(kept.good / good_total, 4) if good_total else None},
        "trained_ids": trained,
    }
    with atomic_write(output) as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
    _evaluation_file.cache_clear()
    return data
