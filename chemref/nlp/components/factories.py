"""The one registry of chemref's spaCy components, as spaCy's own ``spacy/pipeline/factories.py``.

Every factory is registered here with what it assigns and requires, its default config (a scorer included) and
its default score weights; the ``spacy_factories`` and ``spacy_tokenizers`` entry points in ``pyproject.toml``
name the functions of this module, :data:`COMPONENTS` lists the factory names in pipeline order, and
:func:`chemref.load` builds its pipeline from them. spaCy imports this module on every ``spacy.blank()`` (for
the entry points), so it imports nothing heavy: each factory imports its component when it is called.

Span keys go end to end: ``chemref_citations`` writes its markers to ``spans_key`` and every component that
reads them takes that key as ``citations_key`` (``chemref.load()`` links them, so one config override of
``components.chemref_citations.spans_key`` moves them all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Optional

from spacy.language import Language
from spacy.util import registry

from chemref.nlp.components.extensions import AUTHORS_KEY, CITATIONS_KEY

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokenizer import Tokenizer
from chemref.errors import InputError
from chemref.nlp.components.author_mentions import AuthorMentionsComponent
from chemref.nlp.components.chemicals import ChemicalsComponent
from chemref.nlp.components.citations import CitationMarkers
from chemref.nlp.components.claim_classifier import ClaimClassifierComponent
from chemref.nlp.components.sentencizer import ChemrefSentencizer
from chemref.nlp.components.tokenizer import create_tokenizer as create
from chemref.nlp.rules import KINDS, SentenceRules

__all__ = ["COMPONENTS", "CHEMICALS", "DEFAULT_PIPELINE", "CITATIONS_KEY", "AUTHORS_KEY", "TOKENIZER",
           "make_citations", "make_sentencizer", "make_author_mentions", "make_claim_classifier", "make_chemicals",
           "create_tokenizer"]

#: The tokenizer's registered name.
TOKENIZER = "chemref.Tokenizer.v1"

_Scorer = Optional[Callable[..., dict]]


def _span_weights(key: str) -> dict[str, float | None]:
    return {f"spans_{key}_f": 1.0, f"spans_{key}_p": 0.0, f"spans_{key}_r": 0.0, f"spans_{key}_per_type": None}


_SPANS_SCORER = {"@scorers": "spacy.overlapping_labeled_spans_scorer.v1"}
_REGISTERED: list[str] = []


def _factory(name: str, **meta: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``Language.factory(name, **meta)``, remembering ``name`` (in order) for :data:`COMPONENTS`."""

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        _REGISTERED.append(name)
        return Language.factory(name, **meta)(func)

    return register


@_factory(
    "chemref_citations",
    assigns=["doc.spans"],
    default_config={"spans_key": CITATIONS_KEY, "author_year": True, "scorer": _SPANS_SCORER},
    default_score_weights=_span_weights(CITATIONS_KEY),
)
def make_citations(nlp: Language, name: str, spans_key: str, author_year: bool, scorer: _Scorer) -> Any:
    """``nlp.add_pipe("chemref_citations", config={"spans_key": "chemref_citations", "author_year": True})``:
    citation markers in ``doc.spans[spans_key]`` (anchors that :func:`chemref.nlp.make_doc` put there are kept)."""
    return CitationMarkers(name, spans_key=spans_key, author_year=author_year, scorer=scorer)


@_factory(
    "chemref_sentencizer",
    assigns=["token.is_sent_start", "doc.sents"],
    default_config={"abbreviations": [], "abbreviation_kind": "name", "no_split": [],
                    "citations_key": CITATIONS_KEY, "scorer": {"@scorers": "spacy.senter_scorer.v1"}},
    default_score_weights={"sents_f": 1.0, "sents_p": 0.0, "sents_r": 0.0},
)
def make_sentencizer(nlp: Language, name: str, abbreviations: List[str], abbreviation_kind: str,
                     no_split: List[str], citations_key: str, scorer: _Scorer) -> Any:
    """``nlp.add_pipe("chemref_sentencizer", config={"abbreviations": ["Cmpd."], "abbreviation_kind": "never",
    "no_split": [r"Ex\\. \\d+"]})``.

    ``abbreviation_kind`` is one of "never", "name" (default), "either" (see :mod:`chemref.nlp.rules`). Citation
    spans in ``doc.spans[citations_key]`` (from ``chemref_citations`` or :func:`chemref.nlp.make_doc`) are
    never split.
    """
    if abbreviation_kind not in KINDS:
        raise InputError(f"chemref_sentencizer: unknown abbreviation_kind {abbreviation_kind!r}",
                         hint=f"use one of {', '.join(KINDS)}")
    rules = SentenceRules.default()
    if abbreviations:
        rules = rules.with_abbreviations(abbreviations, kind=abbreviation_kind)
    if no_split:
        rules = rules.with_no_split(no_split)
    return ChemrefSentencizer(name, rules=rules, citations_key=citations_key, scorer=scorer)


@_factory(
    "chemref_author_mentions",
    assigns=["doc.spans"],
    requires=["doc.spans"],
    default_config={"spans_key": AUTHORS_KEY, "citations_key": CITATIONS_KEY, "exclude_citations": True,
                    "scorer": _SPANS_SCORER},
    default_score_weights=_span_weights(AUTHORS_KEY),
)
def make_author_mentions(nlp: Language, name: str, spans_key: str, citations_key: str, exclude_citations: bool,
                         scorer: _Scorer) -> Any:
    """``nlp.add_pipe("chemref_author_mentions")`` (after ``chemref_citations``): author mentions in
    ``doc.spans[spans_key]``, the cited works' surnames read off ``doc.spans[citations_key]``."""
    return AuthorMentionsComponent(name, spans_key=spans_key, citations_key=citations_key,
                                   exclude_citations=exclude_citations, scorer=scorer)


@_factory(
    "chemref_claim_classifier",
    assigns=["doc.cats", "span._.chemref_claim"],
    requires=["doc.spans"],
    default_config={"citations_key": CITATIONS_KEY, "scorer": {"@scorers": "spacy.textcat_scorer.v2"}},
    default_score_weights={"cats_score": 1.0, "cats_score_desc": None, "cats_micro_p": None, "cats_micro_r": None,
                           "cats_micro_f": None, "cats_macro_p": None, "cats_macro_r": None, "cats_macro_f": None,
                           "cats_macro_auc": None, "cats_f_per_type": None},
)
def make_claim_classifier(nlp: Language, name: str, citations_key: str, scorer: _Scorer) -> Any:
    """``nlp.add_pipe("chemref_claim_classifier")`` (after ``chemref_citations``): ``doc.cats`` CLAIM/PASSING
    for the citations in ``doc.spans[citations_key]``."""
    return ClaimClassifierComponent(name, citations_key=citations_key, scorer=scorer)


@_factory(
    "chemref_chemicals",
    assigns=["doc.ents", "doc.spans", "token.ent_iob", "token.ent_type"],
    default_config={"spans_key": "chemref_chemicals", "model": None, "abbreviations": True, "formulas": True,
                    "authors": True, "gazetteer": True, "boundaries": True, "genes": True, "traps": True,
                    "scorer": {"@scorers": "spacy.ner_scorer.v1"}},
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None},
)
def make_chemicals(nlp: Language, name: str, spans_key: str, model: Optional[str], abbreviations: bool,
                   formulas: bool, authors: bool, gazetteer: bool, boundaries: bool, scorer: _Scorer,
                   genes: bool = True, traps: bool = True) -> Any:
    """``nlp.add_pipe("chemref_chemicals")``: chemical mentions as ``doc.ents`` and ``doc.spans[spans_key]``;
    ``model`` is a folder written by ``training/chemicals/train.py`` (default: the packaged model)."""
    component = ChemicalsComponent(nlp, name, spans_key=spans_key, model=model, abbreviations=abbreviations,
                                   formulas=formulas, authors=authors, gazetteer=gazetteer, boundaries=boundaries,
                                   genes=genes, traps=traps)
    component.scorer = scorer
    return component


@registry.tokenizers(TOKENIZER)
def create_tokenizer() -> Callable[[Language], "Tokenizer"]:
    """``[nlp.tokenizer] @tokenizers = "chemref.Tokenizer.v1"``: chemref's chemistry-aware tokenizer
    (:mod:`chemref.nlp.components.tokenizer`)."""
    return create()


#: The factories registered above, in pipeline order (``chemref.nlp.COMPONENTS`` is this tuple).
COMPONENTS: tuple[str, ...] = tuple(_REGISTERED)
#: The trained (slower) component that ``chemref.load()`` adds only with ``chemicals=True``.
CHEMICALS = "chemref_chemicals"
#: What ``chemref.load()`` builds by default.
DEFAULT_PIPELINE: tuple[str, ...] = tuple(name for name in COMPONENTS if name != CHEMICALS)
