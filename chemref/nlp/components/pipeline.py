"""``load()``: the ready chemref pipeline on ``spacy.blank("en")`` with the chemistry-aware tokenizer."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Union

from chemref.errors import TextError
from chemref.nlp.components.factories import CHEMICALS, CITATIONS_KEY, DEFAULT_PIPELINE, TOKENIZER

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc
    from spacy.vocab import Vocab
    from thinc.api import Config
from spacy import util
from spacy.language import Language
from thinc.api import Config

__all__ = ["load", "pipeline_config"]

def pipeline_config(*, chemicals: bool = False, overrides: Dict[str, Any] | None = None) -> "Config":
    """The config ``load()`` builds from (not interpolated): chemref's tokenizer and the registry's components
    in order, each consumer's ``citations_key`` a reference to ``components.chemref_citations.spans_key``;
    ``overrides`` in dot notation, as ``spacy.load`` applies them."""
    names = [*DEFAULT_PIPELINE, *([CHEMICALS] if chemicals else [])]
    lines = ["[nlp]", 'lang = "en"', f"pipeline = {names!r}".replace("'", '"'), "",
             "[nlp.tokenizer]", f'@tokenizers = "{TOKENIZER}"', "", "[components]", ""]
    for name in names:
        lines += [f"[components.{name}]", f'factory = "{name}"']
        if name == "chemref_citations":
            lines.append(f'spans_key = "{CITATIONS_KEY}"')
        elif "citations_key" in (Language.get_factory_meta(name).default_config or {}):  # reads the markers
            lines.append("citations_key = ${components.chemref_citations.spans_key}")
        lines.append("")
    return Config().from_str("\n".join(lines), overrides=overrides or {}, interpolate=False)


def load(*, vocab: Union["Vocab", bool] = True, disable: Union[str, Iterable[str]] = (),
         enable: Union[str, Iterable[str]] = (), exclude: Union[str, Iterable[str]] = (),
         config: Union[Dict[str, Any], "Config"] = {}, chemicals: bool = False) -> "Language":  # noqa: B006
    """A new pipeline: chemref's tokenizer, then ``chemref_citations``, ``chemref_sentencizer``,
    ``chemref_author_mentions`` and ``chemref_claim_classifier``; ``chemicals=True`` adds ``chemref_chemicals``
    (chemical mentions as ``doc.ents``) at the end.

    ``vocab``, ``disable``, ``enable``, ``exclude`` and ``config`` (overrides, e.g.
    ``{"components.chemref_citations.spans_key": "cites"}``) mean what they mean in ``spacy.load``.
    """
    full = pipeline_config(chemicals=chemicals, overrides=util.dict_to_dot(config, for_overrides=True))
    nlp = util.load_model_from_config(full, vocab=vocab, disable=disable, enable=enable, exclude=exclude,
                                      auto_fill=True, validate=True)
    nlp.make_doc = _text_checked(nlp.make_doc)  # type: ignore[method-assign, assignment]
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
