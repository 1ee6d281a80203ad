"""The settings of one question build: a frozen, picklable value passed to every article task."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from chemref.errors import InputError

__all__ = ["BuildSettings", "AUTHOR_MODES"]

#: ``drop`` rejects a sentence that names a cited author; ``mask`` replaces the names instead.
AUTHOR_MODES = ("drop", "mask")


@dataclass(frozen=True, slots=True)
class BuildSettings:
    """Options of :func:`chemref.questions.build` (the CLI's flags, one to one)."""

    per_article: int = 4
    min_chars: int = 120
    max_chars: int = 600
    seed: int = 0
    authors: str = "drop"
    min_findability: float | None = None

    def __post_init__(self) -> None:
        if self.per_article < 1:
            raise InputError(f"per_article must be at least 1, got {self.per_article}")
        if self.min_chars < 0 or self.max_chars < self.min_chars:
            raise InputError(f"need 0 <= min_chars <= max_chars, got {self.min_chars} and {self.max_chars}")
        if self.authors not in AUTHOR_MODES:
            raise InputError(f"authors must be one of {', '.join(AUTHOR_MODES)}, got {self.authors!r}")
        if self.min_findability is not None and not 0.0 <= self.min_findability <= 1.0:
            raise InputError(f"min_findability must be between 0 and 1, got {self.min_findability}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (for the report and the dataset card)."""
        return asdict(self)
