"""The settings of one question build: a frozen, picklable value passed to every article task."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from chemref.errors import InputError
from chemref.questions.funnel.selector import default_selector, load_selector_cached

if TYPE_CHECKING:
    from chemref.questions.funnel.selector import Selector

__all__ = ["BuildSettings", "AUTHOR_MODES", "ANSWER_KEYS", "build_default"]

#: ``drop`` rejects a sentence that names a cited author; ``mask`` replaces the names instead.
AUTHOR_MODES = ("drop", "mask")
#: What identifies the answer of a question: a DOI (the BioChemCite rule), or a DOI else a PMID.
ANSWER_KEYS = ("doi", "doi-or-pmid")


@dataclass(frozen=True, slots=True)
class BuildSettings:
    """Options of :func:`chemref.questions.build` (the CLI's flags, one to one)."""

    per_article: int = 4
    min_chars: int = 120
    max_chars: int = 600
    seed: int = 0
    authors: str = "drop"
    min_findability: float | None = None
    #: Reject excerpts whose selector score is below this; None takes the selector's recommended threshold
    #: (stored with its weights), 0 keeps every excerpt.
    min_score: float | None = None
    per_target: int = 1
    answer_key: str = "doi"
    #: Selector weights file (``chemref questions train-selector``); None: the one shipped with chemref.
    selector: str | None = None

    def __post_init__(self) -> None:
        if self.per_article < 1:
            raise InputError(f"per_article must be at least 1, got {self.per_article}")
        if self.min_chars < 0 or self.max_chars < self.min_chars:
            raise InputError(f"need 0 <= min_chars <= max_chars, got {self.min_chars} and {self.max_chars}")
        if self.authors not in AUTHOR_MODES:
            raise InputError(f"authors must be one of {', '.join(AUTHOR_MODES)}, got {self.authors!r}")
        if self.min_findability is not None and not 0.0 <= self.min_findability <= 1.0:
            raise InputError(f"min_findability must be between 0 and 1, got {self.min_findability}")
        if self.min_score is None:
            object.__setattr__(self, "min_score", self.load_selector().threshold)
        elif not 0.0 <= self.min_score <= 1.0:
            raise InputError(f"min_score must be between 0 and 1, got {self.min_score}")
        if self.per_target < 1:
            raise InputError(f"per_target must be at least 1, got {self.per_target}")
        if self.answer_key not in ANSWER_KEYS:
            raise InputError(f"answer_key must be one of {', '.join(ANSWER_KEYS)}, got {self.answer_key!r}")

    def load_selector(self) -> "Selector":
        """The selector these settings name (loaded once per process and path)."""
        return load_selector_cached(self.selector) if self.selector else default_selector()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (for the report and the dataset card)."""
        return asdict(self)


def build_default(name: str) -> Any:
    """The default of the build setting ``name``: :class:`BuildSettings` is the one home of the build's
    defaults (the CLI, :func:`~chemref.questions.funnel.builder.build`, ``evaluate`` and the judge read them
    here)."""
    return BuildSettings.__dataclass_fields__[name].default
