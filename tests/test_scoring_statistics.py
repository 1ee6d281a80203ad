"""Confidence intervals and paired tests: checked against exact enumeration, scipy, and their defining properties."""

from __future__ import annotations

import itertools
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import shared_path

from chemref.scoring.stats.bootstrap import (Resampling, bootstrap_totals, f1_of, mean_of, micro_intervals,
                                        paired_bootstrap_test, percentile_interval, prf_arrays,
                                        randomization_test)


def _counts(rng: np.random.Generator, n: int, quality: float) -> np.ndarray:
    """Per-document (tp, fp, fn) of a made-up system: ``quality`` of 10 gold items found, a few false alarms."""
    gold = rng.integers(5, 15, n)
    tp = rng.binomial(gold, quality)
    fp = rng.integers(0, 4, n)
    return np.stack([tp, fp, gold - tp], axis=1).astype(float)


def _exact_p(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of all 2^n swap patterns whose |F1(a') - F1(b')| reaches the observed one."""
    n = len(a)
    observed = abs(f1_of(a.sum(0)[None])[0] - f1_of(b.sum(0)[None])[0])
    swaps = np.array(list(itertools.product((0.0, 1.0), repeat=n)))
    moved = swaps @ (b - a)
    diffs = f1_of(a.sum(0) + moved) - f1_of(b.sum(0) - moved)
    return float(np.mean(np.abs(diffs) >= observed - 1e-12))


@pytest.mark.parametrize("n, seed", [(6, 1), (9, 2), (12, 3), (12, 4)])
def test_randomization_p_is_within_monte_carlo_error_of_the_exact_permutation_p(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = _counts(rng, n, 0.8), _counts(rng, n, 0.6)
    exact = _exact_p(a, b)
    trials = 20000
    _, p = randomization_test(a, b, f1_of, trials=trials, seed=seed)
    error = np.sqrt(exact * (1 - exact) / trials)
    assert abs(p - exact) <= 4 * error + 2 / trials, (p, exact)


@pytest.mark.slow
def test_bootstrap_interval_equals_scipy_percentile_bootstrap_with_the_same_indices() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(7)
    counts = _counts(rng, 40, 0.7)

    def micro_f1(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        return f1_of(counts[idx.astype(int)].sum(axis=-2))

    res = scipy_stats.bootstrap((np.arange(40),), micro_f1, n_resamples=500, method="percentile",
                                confidence_level=0.9, vectorized=True, rng=np.random.default_rng(99))
    ours = percentile_interval(f1_of(bootstrap_totals(counts, 500, 99)), 0.9)
    assert ours == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)


def test_micro_intervals_contain_the_point_estimate_and_give_one_interval_per_key() -> None:
    rows = [{"r": (3, 1, 0), "t": (1, 0, 1)}, {"r": (2, 2, 2)}, {"r": (5, 0, 1), "t": (0, 1, 0)}] * 10
    out = micro_intervals(rows, Resampling(0.95, 300, 5))
    total = np.array([sum(r.get("r", (0, 0, 0))[i] for r in rows) for i in range(3)], dtype=float)
    p, r, f = (float(x) for x in prf_arrays(total))
    assert set(out) == {"r", "t"}
    for name, value in zip(("precision", "recall", "f1"), (p, r, f)):
        lo, hi = out["r"][name]
        assert lo <= value <= hi


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**31))
def test_intervals_shrink_as_the_number_of_documents_grows(seed: int) -> None:
    rng = np.random.default_rng(seed)
    base = _counts(rng, 30, 0.7)
    small = np.tile(base, (2, 1))
    large = np.tile(base, (16, 1))   # the same documents, eight times as many of them
    width = [np.diff(percentile_interval(f1_of(bootstrap_totals(c, 400, seed)), 0.95)).item()
             for c in (small, large)]
    assert width[1] < width[0]


@pytest.mark.parametrize("test", [randomization_test, paired_bootstrap_test])
def test_a_system_compared_with_itself_gets_p_1(test) -> None:
    a = _counts(np.random.default_rng(3), 50, 0.7)
    diff, p = test(a, a.copy(), f1_of, 2000, 11)
    assert diff == 0.0 and p == 1.0


def test_the_same_seed_gives_the_same_numbers_and_another_seed_other_numbers() -> None:
    rng = np.random.default_rng(5)
    a, b = _counts(rng, 80, 0.7), _counts(rng, 80, 0.68)
    assert randomization_test(a, b, f1_of, 3000, 1) == randomization_test(a, b, f1_of, 3000, 1)
    assert randomization_test(a, b, f1_of, 3000, 1) != randomization_test(a, b, f1_of, 3000, 2)
    assert np.array_equal(bootstrap_totals(a, 200, 4), bootstrap_totals(a, 200, 4))


def test_mean_statistic_and_resampling_settings_are_checked() -> None:
    values = np.array([[1.0], [0.0], [1.0], [1.0]])
    assert mean_of(0, 4)(values.sum(0)[None])[0] == 0.75
    for bad in (dict(level=1.5), dict(resamples=0), dict(seed=-1)):
        with pytest.raises(Exception, match="must be"):
            Resampling(**bad)


@pytest.mark.slow
@pytest.mark.shared
def test_perfect_against_noisy_system_is_significant_on_the_dev_gold() -> None:
    from chemref.scoring.leaderboard import compare_brat

    gold, perfect, mixed = (shared_path("chemu_ref", *p) for p in (("gold", "dev"), ("systems", "perfect"),
                                                                   ("systems", "mixed")))
    board = compare_brat(gold, [perfect, mixed], trials=2000)
    assert [s.name for s in board.systems] == ["perfect", "mixed"]
    assert board.systems[1].p_value < 0.01
    self_board = compare_brat(gold, [mixed, mixed], names=["a", "b"], trials=500)
    assert self_board.systems[1].p_value == 1.0


def test_paired_bootstrap_gives_sacrebleus_p_value_on_a_fixed_case() -> None:
    sacrebleu = pytest.importorskip("sacrebleu", reason="sacreBLEU (a test extra) is not installed")
    from sacrebleu.significance import Result, _paired_bs_test

    refs = [["the cat sat on the mat", "the dog ran in the park", "he is reading a book", "it is raining today",
             "she likes green tea", "birds fly south for the winter", "the sun is bright", "we went to the market"]]
    baseline = ["the cat sat on the mat", "a dog ran in the park", "he reads a book", "it is raining today",
                "she likes green tea", "birds fly south in winter", "the sun is bright", "we went to the market"]
    system = ["the cat sat on a mat", "the dog ran in the park", "he reads the book", "it rains today",
              "she likes tea", "birds fly south for winter", "the sun is very bright", "we walked to the market"]
    bleu = sacrebleu.metrics.BLEU()
    base_stats = bleu._extract_corpus_statistics(baseline, refs)
    base_score = bleu._aggregate_and_compute(base_stats).score
    for seed, resamples in ((12345, 1000), (7, 500)):
        _, results = _paired_bs_test({"BLEU": (base_stats, Result(base_score))}, "system", system, refs,
                                     {"BLEU": bleu}, n_samples=resamples, seed=seed)

        def corpus_bleu(totals: np.ndarray) -> np.ndarray:
            return np.array([bleu._compute_score_from_stats(list(row)).score for row in totals])

        ours = paired_bootstrap_test(np.array(bleu._extract_corpus_statistics(system, refs), dtype=float),
                                     np.array(base_stats, dtype=float), corpus_bleu, resamples, seed)
        assert ours[1] == pytest.approx(results["BLEU"].p_value, abs=1e-12)
