"""``load()``: the ready chemref pipeline on ``spacy.blank("en")`` with the chemistry-aware tokenizer."""

from __future__ import annotations

import functools
from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Callable, Iterable

from chemref.errors import InputError, TextError
from chemref.nlp import COMPONENTS as REGISTRY

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc

__all__ = ["COMPONENTS", "OPTIONAL_COMPONENTS", "load"]

#: Always in the pipeline, in this order (the first entries of the registry, chemref.nlp.COMPONENTS).
COMPONENTS = tuple(REGISTRY)[:2]
#: Added only when asked for (``load(chemicals=True)``): a trained model, slower than the rules.
CHEMICALS = "chemref_chemicals"
#: Added after them when their modules are present: component name -> (module, factory).
OPTIONAL_COMPONENTS = {name: REGISTRY[name] for name in tuple(REGISTRY)[2:] if name != CHEMICALS}


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
    nlp.make_doc = _text_checked(nlp.make_doc)  # type: ignore[method-assign]
    if chemicals:
        import chemref.nlp.chemicals  # noqa: F401  (registers chemref_chemicals)

        nlp.add_pipe("chemref_chemicals")
    return nlp


def _text_checked(make_doc: Callable[[str], "Doc"]) -> Callable[[str], "Doc"]:
    """``make_doc`` raising :class:`~chemref.errors.TextError` (a ValueError) on a string that is not
    Unicode text (a lone surrogate, as ``bytes.decode(errors="surrogateescape")`` leaves) instead of the
    tokenizer's bare UnicodeEncodeError. Checked only when the tokenizer fails: no cost on good text."""

    @functools.wraps(make_doc)
    def checked(text: str) -> "Doc":
        try:
            return make_doc(text)
        except UnicodeEncodeError as exc:
            if exc.reason != "surrogates not allowed" or not isinstance(text, str):
                raise
            at = next(i for i, ch in enumerate(text) if "\ud800" <= ch <= "\udfff")
            raise TextError(f"the text holds a lone surrogate U+{ord(text[at]):04X} at character {at}, "
                            "which is not Unicode text",
                            hint="decode the input with errors='replace' (or fix its encoding) first") from None

    return checked
