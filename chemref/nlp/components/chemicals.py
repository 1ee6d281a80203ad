"""spaCy component ``chemref_chemicals``: chemical mentions as ``doc.ents`` (label ``CHEMICAL``) and as the
span group ``doc.spans["chemref_chemicals"]``.

The model is a spaCy NER (CNN tok2vec with chemistry features from :mod:`chemref.nlp.components.chemical_features`)
trained with ``training/chemicals/train.py`` on the BC5CDR chemical mentions (CC BY 4.0; see docs/chemicals.md and
``data/chemicals_model/meta.json``). Its weights ship in ``chemref/nlp/data/chemicals_model``; nothing is
downloaded. After the model, seven rules run in this order (each can be switched off in the config):

* ``formulas``: a token that can only be a formula ("NaCl", "H2O", "Pd(PPh3)4", "Ca2+"), or a one-token
  systematic name ("1-[4-(benzyloxy)phenyl]ethan-1-one") or a drug code name ("WIN55,212-2", "SB203580",
  "CB 3717"), is a chemical;
* ``gazetteer``: a word in ``data/chemicals_gazetteer.json`` (one-word drug and chemical names; see its
  ``source`` and ``license``), a common name in ``data/chemicals_common_names.json`` (solvents, reagents,
  salts, natural products, one to three words; see its ``source`` and ``license``) or in the
  ``common_names`` of ``data/chemicals_rules.json`` is a chemical, and so is an ambiguous word of its
  ``ambiguous_names`` before a word that shows it as one ("lead acetate", not "lead to"); so is a reagent,
  catalyst, ligand, solvent, protecting-group or assay abbreviation of :mod:`chemref.nlp.reagents` ("MeOH",
  "SPhos", "HATU", "ABTS"; an ambiguous one such as "DCM" only in a synthesis context);
* ``boundaries``: a stereo or Greek-letter prefix written with a hyphen belongs to the name ("alpha -
  tocopherol", "cis - RA" when tokens are spaced), as does a one-letter (and digits) suffix after a
  lower-case name ("vitamin C", "mitomycin C", "coenzyme Q10");
* ``genes``: a mention whose context shows a gene or protein ("VEGF expression", "anti-VEGF antibody",
  "p53 mutation", "PARP inhibitor": the inhibitor's target) or that is a gene, protein, cytokine or
  receptor family name ("IL-6", "TNF-alpha", "E-cadherin"), or an enzyme ("-ase"), is dropped;
* ``traps``: mutation names ("Arg15Leu", "p.V600E"), cell lines ("HeLa", "MCF-7"), figure and table
  panels ("Fig. 2B"), country names and stereoselectivity ratios ("92% ee") are dropped;
* ``authors``: a one-token mention that is an author's name ("Li et al.", or inside a
  ``doc.spans["chemref_author_mentions"]`` span) is dropped;
* ``abbreviations``: a defined abbreviation takes the label of its long form ("dimethyl sulfoxide (DMSO)":
  later "DMSO" mentions in the same Doc are chemicals too; "parathyroid hormone (PTH)": "PTH" is not).
  Over a document given as several Docs (one per sentence), :func:`link_abbreviations` applies the
  definitions of every sentence to all of them.

    nlp = chemref.load(chemicals=True)          # or: nlp.add_pipe("chemref_chemicals")
    [e.text for e in nlp("Pd(PPh3)4 in DMSO").ents]

:func:`count_chemicals` counts mentions in a plain string with a small cached pipeline (tokenizer + this
component only).

The NER's loading and checks live in :mod:`chemref.nlp.components.chemical_model`, the rule layers in
:mod:`chemref.nlp.components.chemical_rules`; this module holds the component (windows over long Docs, the rules
run in order, serialisation) and the counting helpers.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from chemref.errors import InputError
from chemref.jsonl import check_schema, read_json
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.components.chemical_features import gazetteer_names
from chemref.nlp.components.chemical_model import (
    _CONFIG,
    _MAX_CONFIG_BYTES,
    _SAVED_CFG,
    _TAMPERED,
    LABEL,
    MODEL_DIR,
    _build_ner,
    _checked_config,
    _ner_from_config,
    model_meta,
)
from chemref.nlp.components.chemical_rules import (
    _STEPS,
    COMMON_NAMES_FILE,
    RULES,
    RULES_FILE,
    SPANS_KEY,
    abbreviation_definitions,
    common_names,
    link_abbreviations,
    rule_names,
)

__all__ = ["LABEL", "SPANS_KEY", "MODEL_DIR", "WINDOW_TOKENS", "RULES_FILE", "COMMON_NAMES_FILE", "RULES", "ChemicalsComponent",
           "count_chemicals", "count_chemicals_many", "gazetteer_names", "rule_names",
           "common_names", "model_meta", "link_abbreviations", "abbreviation_definitions"]

_SETTINGS = "chemref_chemicals.json"


class ChemicalsComponent(ChemrefPipe):
    """Chemical-mention recognizer: runs the packaged NER, then the rules named in the module docstring.
    Registered as ``chemref_chemicals`` in :mod:`chemref.nlp.components.factories`."""

    def __init__(self, nlp: Language, name: str = "chemref_chemicals", *, spans_key: str = SPANS_KEY,
                 model: str | None = None, abbreviations: bool = True, formulas: bool = True,
                 authors: bool = True, gazetteer: bool = True, boundaries: bool = True, genes: bool = True,
                 traps: bool = True) -> None:
        self.name = name
        self.nlp = nlp
        self.spans_key = spans_key
        self.abbreviations = abbreviations
        self.formulas = formulas
        self.authors = authors
        self.gazetteer = gazetteer
        self.boundaries = boundaries
        self.genes = genes
        self.traps = traps
        self.model_path = Path(model) if model else MODEL_DIR
        self.ner, self._config = _build_ner(nlp, self.model_path, name)

    # -- processing ---------------------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        return self._finish(self._tag(doc))

    def _tag(self, doc: Doc) -> Doc:
        """The NER on ``doc``; a Doc over :data:`WINDOW_TOKENS` tokens is tagged in windows, so memory stays
        bounded (the network needs about 17 kB per token of the Doc it is given)."""
        if len(doc) <= WINDOW_TOKENS:
            return self.ner(doc)
        ents: list[Span] = []
        for start, end in _windows(doc):
            tagged = self.ner(doc[start:end].as_doc())
            ents.extend(Span(doc, start + e.start, start + e.end, label=e.label) for e in tagged.ents)
        doc.ents = ents
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 256) -> Iterator[Doc]:
        # the NER runs a batch at a time, the rules a Doc at a time, both under spaCy's error handler

        handler = self.get_error_handler()
        for batch in minibatch(stream, size=batch_size):
            try:
                if any(len(doc) > WINDOW_TOKENS for doc in batch):
                    tagged = [self._tag(doc) for doc in batch]
                else:
                    tagged = list(self.ner.pipe(batch, batch_size=batch_size))
            except Exception as exc:
                handler(self.name, self, batch, exc)
                continue
            for doc in tagged:
                try:
                    yield self._finish(doc)
                except Exception as exc:
                    handler(self.name, self, [doc], exc)

    def _finish(self, doc: Doc) -> Doc:
        for rule in RULES:
            if getattr(self, rule):
                _STEPS[rule](doc)
        doc.spans[self.spans_key] = [ent for ent in doc.ents if ent.label_ == LABEL]
        return doc

    # -- serialisation (spaCy's own formats for the NER; JSON for the settings) ----------------------------
    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        self.ner.to_disk(path, exclude=("vocab",))
        self._config.to_disk(path / _CONFIG)
        (path / _SETTINGS).write_text(json.dumps(self._settings(), indent=1), encoding="utf-8")
        meta = self.model_path / "meta.json"
        if meta.is_file():
            (path / "meta.json").write_bytes(meta.read_bytes())

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "ChemicalsComponent":
        path = Path(path)
        self.ner, self._config = _build_ner(self.nlp, path, self.name)
        self.model_path = path
        settings = path / _SETTINGS
        if settings.is_file():
            data = read_json(settings, what="invalid chemicals component settings", schema=_SETTINGS_SCHEMA,
                             limit=_MAX_CONFIG_BYTES, hint=_TAMPERED)
            self._load_settings(data)
        return self

    def _settings(self) -> dict[str, Any]:
        return {"spans_key": self.spans_key, **{rule: getattr(self, rule) for rule in RULES}}

    def _load_settings(self, data: dict[str, Any]) -> None:
        self.spans_key = str(data.get("spans_key", self.spans_key))
        for key in RULES:
            setattr(self, key, bool(data.get(key, getattr(self, key))))

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        return srsly.msgpack_dumps({"ner": self.ner.to_bytes(exclude=("vocab",)), "config": self._config.to_str(),
                                    **self._settings()})

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> "ChemicalsComponent":
        try:
            msg = srsly.msgpack_loads(data)
            ner_bytes = msg["ner"]
            saved_cfg = srsly.json_loads(srsly.msgpack_loads(ner_bytes).get("cfg", b"{}"))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise InputError(f"the chemicals component's bytes cannot be read ({type(exc).__name__})",
                             hint=_TAMPERED) from None
        self._config = _checked_config(str(msg.get("config", "")), "<bytes>")
        check_schema(saved_cfg, _SAVED_CFG, what="invalid chemicals model settings", hint=_TAMPERED)
        check_schema(_settings_of(msg), _SETTINGS_SCHEMA, what="invalid chemicals component settings", hint=_TAMPERED)
        self.ner = _ner_from_config(self.nlp, self._config, self.name)
        self.ner.from_bytes(ner_bytes, exclude=("vocab",))
        self._load_settings(msg)
        return self


#: The most tokens the NER is given at once (a longer Doc is tagged in windows of about this many tokens).
WINDOW_TOKENS = 2000
_SENTENCE_ENDS = frozenset({".", "!", "?", ";"})


def _windows(doc: Doc) -> Iterator[tuple[int, int]]:
    """``(start, end)`` token windows covering ``doc``, each at most :data:`WINDOW_TOKENS` long, cut after a
    sentence end if there is one in a window's second half, else after a space, never inside a preset entity."""
    start, n = 0, len(doc)
    while start < n:
        end = min(start + WINDOW_TOKENS, n)
        if end < n:
            end = _cut(doc, start + WINDOW_TOKENS // 2, end)
        yield start, end
        start = end


def _cut(doc: Doc, low: int, high: int) -> int:
    spaced = None
    for i in range(high, low, -1):
        before = doc[i - 1]
        if doc[i].ent_iob_ == "I" or not before.whitespace_:
            continue
        if before.text in _SENTENCE_ENDS:
            return i
        spaced = spaced or i
    return spaced or high


#: chemref_chemicals.json: the span key and the rule switches
_SETTINGS_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {"spans_key": {"type": "string", "minLength": 1, "maxLength": 200},
                   **{rule: {"type": "boolean"} for rule in RULES}},
}


def _settings_of(msg: dict[str, Any]) -> dict[str, Any]:
    return {key: msg[key] for key in ("spans_key", *RULES) if key in msg}


@lru_cache(maxsize=1)
def _counter() -> Language:
    # chemref_chemicals and chemref.Tokenizer.v1 come from chemref's spacy_factories / spacy_tokenizers entry points
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "chemref.Tokenizer.v1"}}})
    nlp.add_pipe("chemref_chemicals")
    return nlp


def count_chemicals(text: str) -> int:
    """How many chemical mentions ``text`` holds.

    A tokenizer + ``chemref_chemicals`` pipeline is built on the first call (about 0.3 s); then a call costs
    about 3.5 ms for a 25-word sentence on one core (per-call model overhead dominates:
    :func:`count_chemicals_many` costs about 2.6 ms per such sentence).

    Args:
        text: Plain text.

    Returns:
        The number of ``CHEMICAL`` entities found.
    """
    return len(_counter()(text).ents)


def count_chemicals_many(texts: Iterable[str], batch_size: int = 256) -> list[int]:
    """:func:`count_chemicals` for many texts, batched (faster per text).

    Args:
        texts: Plain texts.
        batch_size: Texts the NER tags at once.

    Returns:
        The number of chemical mentions of each text, in order.
    """
    return [len(doc.ents) for doc in _counter().pipe(texts, batch_size=batch_size)]
