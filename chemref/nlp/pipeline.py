"""``load()``: the ready chemref pipeline on ``spacy.blank("en")`` with the chemistry-aware tokenizer."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Iterable

from chemref.errors import InputError
from chemref.nlp import COMPONENTS as REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language

__all__ = ["COMPONENTS", "OPTIONAL_COMPONENTS", "load"]

#: Always in the pipeline, in this order (the first entries of the registry, chemref.nlp.COMPONENTS).
COMPONENTS = tuple(REGISTRY)[:2]
#: Added after them when their modules are present: component name -> (module, factory).
OPTIONAL_COMPONENTS = {name: REGISTRY[name] for name in tuple(REGISTRY)[2:]}


def load(*, exclude: Iterable[str] = ()) -> "Language":
    """A new pipeline: chemref's tokenizer, then ``chemref_citations``, ``chemref_sentencizer`` and the
    author-mention and claim components; ``exclude`` names components to leave out."""
    import spacy

    import chemref.nlp.citations  # noqa: F401  (registers the factories)
    import chemref.nlp.sentencizer  # noqa: F401
    import chemref.nlp.tokenizer  # noqa: F401  (registers chemref.Tokenizer.v1)

    exclude = set(exclude)
    known = set(COMPONENTS) | set(OPTIONAL_COMPONENTS)
    unknown = exclude - known
    if unknown:
        raise InputError(f"cannot exclude unknown component(s) {sorted(unknown)}",
                         hint=f"chemref.load() has {', '.join(sorted(known))}")
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "chemref.Tokenizer.v1"}}})
    for name in COMPONENTS:
        if name not in exclude:
            nlp.add_pipe(name)
    for name, (module, factory) in OPTIONAL_COMPONENTS.items():
        if name not in exclude and find_spec(module) is not None:
            getattr(import_module(module), factory)  # registers the factory (some are lazy attributes)
            nlp.add_pipe(name)
    return nlp
