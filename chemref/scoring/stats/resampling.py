"""Settings of confidence intervals and paired tests (level, resamples, seed), without importing numpy.

The computations are in :mod:`chemref.scoring.stats.bootstrap`; this module is what scorers and the CLI import
at start-up, so ``import chemref.scoring`` stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass

from chemref.errors import InputError

__all__ = ["DEFAULT_LEVEL", "DEFAULT_RESAMPLES", "DEFAULT_SEED", "DEFAULT_TRIALS", "MAX_RESAMPLES", "TESTS",
           "Resampling", "checked_draws"]

#: confidence level of an interval when none is given
DEFAULT_LEVEL = 0.95
#: bootstrap resamples (sacreBLEU's and ranx's default)
DEFAULT_RESAMPLES = 1000
#: approximate randomization trials (sacreBLEU's default)
DEFAULT_TRIALS = 10000
#: the fixed seed used when none is given (printed with every interval)
DEFAULT_SEED = 12345
#: the most bootstrap resamples accepted (the resampled totals are held in memory; a 95% interval settles
#: to about 0.001 well before this)
MAX_RESAMPLES = 100_000
#: the paired tests ``--test`` accepts
TESTS = ("randomization", "bootstrap")


@dataclass(frozen=True, slots=True)
class Resampling:
    """Settings of an interval or a test: confidence level, resamples (or trials) and seed."""

    level: float = DEFAULT_LEVEL
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, (int, float)) or not 0.0 < self.level < 1.0:
            raise InputError(f"confidence level must be between 0 and 1 (e.g. 0.95), got {self.level!r}")
        checked_draws(self.resamples, "resamples")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise InputError(f"the seed must be a non-negative integer, got {self.seed!r}")

    def describe(self, unit: str, n: int) -> str:
        """One line for a report header, e.g. ``95% percentile bootstrap over 225 documents, 1,000 resamples,
        seed 12345`` (``unit`` in the singular: document, query, question, item)."""
        return (f"{self.level:.0%} percentile bootstrap over {n:,} {plural(unit, n)}, {self.resamples:,} "
                f"resamples, seed {self.seed}")

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "method": "percentile bootstrap", "resamples": self.resamples,
                "seed": self.seed}


def checked_draws(value: object, what: str) -> int:
    """``value`` when it is a number of random draws chemref makes (``what``: "resamples", "trials"): a
    positive integer of at most :data:`MAX_RESAMPLES` (the one bound of bootstrap resamples and randomization
    trials), else an :class:`InputError`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"the number of {what} must be a positive integer, got {value!r}")
    if value > MAX_RESAMPLES:
        raise InputError(f"at most {MAX_RESAMPLES:,} {what} are drawn, got {value:,}",
                         hint=f"10,000 {what} already fix a 95% interval or a p-value to about 0.001")
    return value


def plural(unit: str, n: int = 2) -> str:
    """``document`` -> ``documents``, ``query`` -> ``queries`` (unchanged for ``n == 1``)."""
    if n == 1:
        return unit
    return unit[:-1] + "ies" if unit.endswith("y") and unit[-2:-1] not in "aeiou" else unit + "s"
