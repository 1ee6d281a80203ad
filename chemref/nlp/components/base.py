"""What every chemref spaCy component shares: spaCy's :class:`~spacy.pipeline.Pipe` (so ``nlp.pipe`` runs it
under the error handler set with ``set_error_handler``) and a ``score`` that calls the component's configured
scorer with the component's own keys."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from spacy.pipeline import Pipe

__all__ = ["ChemrefPipe"]


class ChemrefPipe(Pipe):
    """Base of chemref's components: ``score(examples)`` is ``self.scorer(examples, **self.score_kwargs())``."""

    scorer: Callable[..., dict[str, Any]] | None = None

    def score_kwargs(self) -> dict[str, Any]:
        """Arguments the scorer needs from the component (its span key, its labels); none by default."""
        return {}

    def score(self, examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        """Scores of this component on ``examples`` (spaCy's ``nlp.evaluate`` calls this)."""
        if self.scorer is None:
            return {}
        return self.scorer(examples, **{**self.score_kwargs(), **kwargs})
