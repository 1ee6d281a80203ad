"""How sure a score is: bootstrap confidence intervals and paired significance tests.

The unit of resampling is the document (BRAT) or the query / question / item (the other scorers): a
resample draws ``n`` of them with replacement and recomputes the corpus-level score from their counts
(micro P/R/F1) or values (means), as sacreBLEU and ranx do. Everything is vectorised over resamples
with one :class:`numpy.random.Generator` seeded by the caller, so the same inputs and seed always give
the same numbers, however the per-document counts were computed (one process or several).

* :func:`bootstrap_totals` / :func:`percentile_interval`: percentile bootstrap intervals (the
  ``method="percentile"`` of :func:`scipy.stats.bootstrap`, drawing the same indices from the same seed);
* :func:`randomization_test`: paired approximate randomization (each document's pair of results is
  swapped between the two systems with probability 1/2), ``p = (c + 1) / (n + 1)``;
* :func:`paired_bootstrap_test`: paired bootstrap (Koehn 2004, as sacreBLEU computes it: the absolute
  resampled differences are centred on their mean and counted where they exceed the absolute observed
  difference), ``p = (c + 1) / (n + 1)``.

Both tests are two-sided. A system compared with itself gets ``p = 1``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from chemref.errors import InputError
from chemref.scoring.stats.resampling import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    TESTS,
    Resampling,
)

if TYPE_CHECKING:  # numpy is imported by the functions that use it: importing the scorers stays light
    import numpy as np

__all__ = [
    "DEFAULT_LEVEL", "DEFAULT_RESAMPLES", "DEFAULT_SEED", "DEFAULT_TRIALS", "TESTS", "Resampling",
    "bootstrap_indices", "bootstrap_totals", "percentile_interval", "prf_arrays", "f1_of", "precision_of",
    "recall_of", "mean_of", "randomization_test", "paired_bootstrap_test", "paired_test", "micro_intervals",
    "mean_intervals",
]

#: at most this many (resample x document) cells are materialised at once, so memory stays flat
_CELLS = 1 << 22
#: absolute tolerance when a resampled difference is compared with the observed one (sums in another order)
_EPS = 1e-12

Statistic = Callable[["np.ndarray"], "np.ndarray"]


def _block(n: int) -> int:
    """Resamples drawn per block: a function of ``n`` only, so results never depend on how counts were made."""
    return max(1, _CELLS // max(n, 1))


def bootstrap_indices(n: int, resamples: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Blocks of resampled indices, ``rng.integers(0, n, (block, n))`` each, ``resamples`` rows in all.

    With ``resamples * n`` up to 4 M cells this is one draw, exactly the indices
    :func:`scipy.stats.bootstrap` draws from a Generator in the same state.
    """
    block = _block(n)
    for start in range(0, resamples, block):
        yield rng.integers(0, n, (min(block, resamples - start), n))


def bootstrap_totals(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Column sums of ``values`` (``n`` rows: documents) over ``resamples`` bootstrap resamples: ``(resamples, k)``.

    Each resample's sum is ``multiplicity @ values`` (how often each row was drawn), exact for integer counts.
    """
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    n = values.shape[0]
    flat = values.reshape(n, -1)
    out = np.empty((resamples, flat.shape[1]), dtype=np.float64)
    if n == 0:
        out.fill(0.0)
        return out.reshape((resamples, *values.shape[1:]))
    row = 0
    buf = np.empty((min(_block(n), resamples), n), dtype=np.float64)  # reused: no page faults per block
    for idx in bootstrap_indices(n, resamples, np.random.default_rng(seed)):
        b = idx.shape[0]
        offsets = (np.arange(b, dtype=np.int64) * n)[:, None]
        np.copyto(buf[:b], np.bincount((idx + offsets).ravel(), minlength=b * n).reshape(b, n))
        np.matmul(buf[:b], flat, out=out[row:row + b])
        row += b
    return out.reshape((resamples, *values.shape[1:]))


def percentile_interval(samples: np.ndarray, level: float) -> np.ndarray:
    """``[low, high]`` along axis 0: the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (linear)."""
    import numpy as np

    alpha = (1.0 - level) / 2.0
    return np.quantile(np.asarray(samples, dtype=np.float64), [alpha, 1.0 - alpha], axis=0)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    import numpy as np

    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def prf_arrays(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 of ``totals[..., 0:3] = tp, fp, fn`` (0 where undefined, as :func:`prf`)."""
    tp, fp, fn = totals[..., 0], totals[..., 1], totals[..., 2]
    p = _ratio(tp, tp + fp)
    r = _ratio(tp, tp + fn)
    return p, r, _ratio(2.0 * p * r, p + r)


def precision_of(totals: np.ndarray) -> np.ndarray:
    """Micro precision of summed ``(tp, fp, fn)`` rows."""
    return prf_arrays(totals)[0]


def recall_of(totals: np.ndarray) -> np.ndarray:
    """Micro recall of summed ``(tp, fp, fn)`` rows."""
    return prf_arrays(totals)[1]


def f1_of(totals: np.ndarray) -> np.ndarray:
    """Micro F1 of summed ``(tp, fp, fn)`` rows."""
    return prf_arrays(totals)[2]


def mean_of(column: int, n: int) -> Statistic:
    """The statistic "mean of per-item value ``column``" over ``n`` items, from summed rows."""
    import numpy as np

    def statistic(totals: np.ndarray) -> np.ndarray:
        return totals[..., column] / n if n else np.zeros(totals.shape[:-1])
    return statistic


def _count_extreme(diffs: np.ndarray, observed: float) -> int:
    import numpy as np

    return int(np.count_nonzero(np.abs(diffs) >= abs(observed) - _EPS))


def randomization_test(a: np.ndarray, b: np.ndarray, statistic: Statistic, trials: int = DEFAULT_TRIALS,
                       seed: int = DEFAULT_SEED) -> tuple[float, float]:
    """Paired approximate randomization: ``(observed difference a - b, p)``.

    ``a``/``b``: per-document rows (same documents, same order) whose column sums ``statistic`` turns into the
    score. In each trial every document's two rows are swapped with probability 1/2 (one shared swap matrix
    per seed, eight coin flips per random byte); ``c`` counts trials whose ``|difference|`` reaches the observed one; ``p = (c + 1) / (trials + 1)``.
    """
    import numpy as np

    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired rows must have one shape, got {a.shape} and {b.shape}")
    n = a.shape[0]
    ta, tb = a.sum(axis=0), b.sum(axis=0)
    observed = float(statistic(ta[None])[0] - statistic(tb[None])[0])
    d = (b - a).reshape(n, -1)
    rng = np.random.default_rng(seed)
    block = _block(n)
    count = 0
    buf = np.empty((min(block, trials), n), dtype=np.float64)  # reused: no page faults per block
    for start in range(0, trials, block):
        rows = min(block, trials - start)
        # one random byte gives eight fair coin flips
        bits = np.unpackbits(rng.integers(0, 256, (rows, (n + 7) // 8), dtype=np.uint8), axis=1, count=n)
        np.copyto(buf[:rows], bits)
        moved = (buf[:rows] @ d).reshape((rows, *a.shape[1:]))
        count += _count_extreme(statistic(ta + moved) - statistic(tb - moved), observed)
    return observed, (count + 1) / (trials + 1)


def paired_bootstrap_test(a: np.ndarray, b: np.ndarray, statistic: Statistic, resamples: int = DEFAULT_RESAMPLES,
                          seed: int = DEFAULT_SEED) -> tuple[float, float]:
    """Paired bootstrap: ``(observed difference a - b, p)``; both systems are resampled with the same indices.

    As sacreBLEU's ``paired_bs`` (and Moses' ``bootstrap-hypothesis-difference-significance.pl``): the absolute
    resampled differences are shifted to mean 0 (the null hypothesis); ``c`` counts those strictly greater than
    the absolute observed difference; ``p = (c + 1) / (resamples + 1)``. With the seed sacreBLEU uses, the
    resampled indices, and so the p-value, are sacreBLEU's. One case differs: two systems with the same
    per-document rows get ``p = 1`` (sacreBLEU's count finds no resample above 0 and gives ``1 / (n + 1)``).
    """
    import numpy as np

    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired rows must have one shape, got {a.shape} and {b.shape}")
    observed = float(statistic(a.sum(axis=0)[None])[0] - statistic(b.sum(axis=0)[None])[0])
    if np.array_equal(a, b):
        return observed, 1.0
    both = bootstrap_totals(np.stack([a, b], axis=1), resamples, seed)
    spread = np.abs(statistic(both[:, 0]) - statistic(both[:, 1]))
    count = int(np.count_nonzero(spread - spread.mean() > abs(observed)))
    return observed, (count + 1) / (resamples + 1)


def paired_test(test: str, a: np.ndarray, b: np.ndarray, statistic: Statistic, *, trials: int,
                seed: int) -> tuple[float, float]:
    """:func:`randomization_test` or :func:`paired_bootstrap_test` by name."""
    if test == "randomization":
        return randomization_test(a, b, statistic, trials, seed)
    if test == "bootstrap":
        return paired_bootstrap_test(a, b, statistic, trials, seed)
    raise InputError(f"unknown test {test!r}", hint="use randomization or bootstrap")


def micro_intervals(rows: list[dict], resampling: Resampling) -> dict:
    """Percentile intervals of micro P/R/F1 for every key of per-document ``rows`` (``{key: (tp, fp, fn)}``,
    one dict per document, a key missing from a document counting 0): ``{key: {"precision": [lo, hi], ...}}``."""
    import numpy as np

    keys = list(dict.fromkeys(k for row in rows for k in row))
    if not keys:
        return {}
    column = {k: i for i, k in enumerate(keys)}
    counts = np.zeros((len(rows), len(keys), 3), dtype=np.float64)
    for d, row in enumerate(rows):
        target = counts[d]
        for k, c in row.items():
            target[column[k]] = c
    out: dict = {}
    # keys in chunks, so that the resampled totals of one chunk stay near _CELLS cells whatever the number of
    # resamples; every chunk draws the same indices from the same seed, so the intervals do not depend on it
    step = max(1, _CELLS // (3 * resampling.resamples))
    for first in range(0, len(keys), step):
        totals = bootstrap_totals(counts[:, first:first + step], resampling.resamples, resampling.seed)
        bounds = [percentile_interval(m, resampling.level) for m in prf_arrays(totals)]
        for i, k in enumerate(keys[first:first + step]):
            out[k] = {name: [float(b[0, i]), float(b[1, i])] for name, b in zip(("precision", "recall", "f1"), bounds)}
    return out


def mean_intervals(values: np.ndarray, names: list[str], resampling: Resampling) -> dict[str, list[float]]:
    """Percentile intervals of the mean of each column of per-item ``values`` (``n`` x ``len(names)``)."""
    import numpy as np

    values = np.asarray(values, dtype=np.float64).reshape(-1, len(names))
    n = values.shape[0]
    if n == 0:
        return {name: [0.0, 0.0] for name in names}
    means = bootstrap_totals(values, resampling.resamples, resampling.seed) / n
    bounds = percentile_interval(means, resampling.level)
    return {name: [float(bounds[0, j]), float(bounds[1, j])] for j, name in enumerate(names)}
