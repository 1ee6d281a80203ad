"""The claim model's training: the labels hold no article text and rebuild from the dev JATS; folds, fitting and
the whole training step are deterministic."""

from __future__ import annotations

import json

import pytest

from tests.helpers import shared_path
from tools.claims_training_set import LABELS_FILE, MARKER, load_rows, read_labels
from training.claims.train import fit, folds_by_article, load_config, macro_f1, train

_KEYS = {"id", "article", "paragraph", "sentence", "anchor", "function", "votes", "section_kind", "text_sha1"}


def test_labels_hold_places_not_text() -> None:
    labels = read_labels()
    assert len(labels) == 1620
    assert all(set(row) == _KEYS for row in labels)
    assert {row["function"] for row in labels} == {"CLAIM", "PASSING"}
    assert all(row["sentence"][0] <= row["anchor"][0] <= row["anchor"][1] <= row["sentence"][1] for row in labels)


def test_folds_group_articles_and_repeat() -> None:
    rows = [{"article": f"a{i % 7}"} for i in range(40)]
    folds = folds_by_article(rows, 5, 0)
    assert folds == folds_by_article(rows, 5, 0)
    by_article: dict[str, set[int]] = {}
    for row, fold in zip(rows, folds):
        by_article.setdefault(row["article"], set()).add(fold)
    assert all(len(f) == 1 for f in by_article.values()) and set(folds) == set(range(5))


def test_fit_is_deterministic_and_learns() -> None:
    pytest.importorskip("scipy")
    feats = [{"g:using": 1.0, "g:kit": 1.0}, {"g:showed": 1.0}, {"g:using": 1.0}, {"g:showed": 1.0, "g:that": 1.0},
             {"g:kit": 1.0}, {"g:that": 1.0}] * 3
    labels = [0, 1, 0, 1, 0, 1] * 3
    first = fit(feats, labels, l2=1.0, class_weight="balanced", min_count=2)
    assert first == fit(feats, labels, l2=1.0, class_weight="balanced", min_count=2)
    bias, weights = first
    assert weights["g:using"] < 0 < weights["g:showed"]


def test_macro_f1() -> None:
    assert macro_f1([1, 1, 0, 0], [1, 1, 0, 0]) == 1.0
    assert macro_f1([1, 0], [1, 1]) == pytest.approx((2 / 3 + 0) / 2)


@pytest.mark.slow
def test_rows_rebuild_from_the_dev_jats() -> None:
    folder = shared_path("corpora", "jats", "dev")
    found = load_rows(LABELS_FILE, folder)
    assert not found.stale and len(found.rows) == 1620
    for row in found.rows:
        start, end = row["cite"]
        assert row["text"][start:end] == MARKER


@pytest.mark.slow
def test_a_changed_text_is_left_out_and_named(tmp_path) -> None:
    folder = shared_path("corpora", "jats", "dev")
    labels = read_labels()[:3]
    labels[1] = {**labels[1], "text_sha1": "000000000000"}
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in labels), encoding="utf-8")
    found = load_rows(path, folder)
    assert [r["id"] for r in found.rows] == [labels[0]["id"], labels[2]["id"]]
    assert found.stale == [(labels[1]["id"], found.stale[0][1])] and "changed" in found.stale[0][1]


@pytest.mark.slow
def test_training_is_deterministic() -> None:
    pytest.importorskip("scipy")
    rows = load_rows(LABELS_FILE, shared_path("corpora", "jats", "dev")).rows[:300]
    setting = {"ngrams": 2, "window": 3, "rules": "evidence", "clause": True, "l2": 1.0, "class_weight": "balanced"}
    config = load_config()
    assert train(rows, setting, config) == train(rows, setting, config)
