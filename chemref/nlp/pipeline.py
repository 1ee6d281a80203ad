"""``load()``: the ready chemref pipeline on ``spacy.blank("en")`` with the chemistry-aware tokenizer."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Iterable

from chemref.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language

__all__ = ["COMPONENTS", "OPTIONAL_COMPONENTS", "load"]

#: Always in the pipeline, in this order.
COMPONENTS = ("chemref_citations", "chemref_sentencizer")
#: Added after them when their modules are present: component name -> (module, factory) as in the entry points.
OPTIONAL_COMPONENTS = {
    "chemref_author_mentions": ("chemref.nlp.authors", "make_author_mentions"),
    "chemref_claim_classifier": ("chemref.nlp.claims", "make_claim_classifier"),
}


def load(*, exclude: Iterable[str] = (), chemicals: bool = False) -> "Language":
    """A new pipeline: chemref's tokenizer, then ``chemref_citations``, ``chemref_sentencizer`` and the
    author-mention and claim components; ``exclude`` names components to leave out. ``chemicals=True`` adds
    ``chemref_chemicals`` (chemical mentions as ``doc.ents``) at the end."""
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
    if chemicals:
        import chemref.nlp.chemicals  # noqa: F401  (registers chemref_chemicals)

        nlp.add_pipe("chemref_chemicals")
    return nlp
