"""spaCy component ``chemref_chemicals``: chemical mentions as ``doc.ents`` (label ``CHEMICAL``) and as the
span group ``doc.spans["chemref_chemicals"]``.

The model is a spaCy NER (CNN tok2vec with chemistry features from :mod:`chemref.nlp.chemical_features`)
trained with ``training/chemicals/train.py`` on the BC5CDR chemical mentions (CC BY 4.0; see the README and
``data/chemicals_model/meta.json``). Its weights ship in ``chemref/nlp/data/chemicals_model``; nothing is
downloaded. After the model, five rules (each can be switched off in the config):

* ``formulas``: a token that can only be a formula ("NaCl", "H2O", "Pd(PPh3)4", "Ca2+") is a chemical;
* ``gazetteer``: a word in ``data/chemicals_gazetteer.json`` (one-word drug and chemical names; see its
  ``source`` and ``license``) is a chemical;
* ``boundaries``: a stereo or Greek-letter prefix written with a hyphen belongs to the name ("alpha -
  tocopherol", "cis - RA" when tokens are spaced), as does a one-letter (and digits) suffix after a
  lower-case name ("vitamin C", "mitomycin C", "coenzyme Q10");
* ``authors``: a one-token mention that is an author's name ("Li et al.", or inside a
  ``doc.spans["chemref_author_mentions"]`` span) is dropped;
* ``abbreviations``: a defined abbreviation takes the label of its long form ("dimethyl sulfoxide (DMSO)":
  later "DMSO" mentions in the same Doc are chemicals too).

    nlp = chemref.load(chemicals=True)          # or: nlp.add_pipe("chemref_chemicals")
    [e.text for e in nlp("Pd(PPh3)4 in DMSO").ents]

:func:`count_chemicals` counts mentions in a plain string with a small cached pipeline (tokenizer + this
component only).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import ensure_path

from chemref.errors import InputError
from chemref.nlp.components.base import ChemrefPipe
from chemref.nlp.chemical_features import (_gazetteer_set, gazetteer_names, is_strong_formula,
                                           register_architectures, stereo_prefixes)

__all__ = ["LABEL", "SPANS_KEY", "MODEL_DIR", "ChemicalsComponent",
           "count_chemicals", "count_chemicals_many", "gazetteer_names", "rule_names", "model_meta"]

LABEL = "CHEMICAL"
SPANS_KEY = "chemref_chemicals"
MODEL_DIR = Path(__file__).resolve().parent / "data" / "chemicals_model"
_CONFIG = "config.cfg"
_SETTINGS = "chemref_chemicals.json"
_MAX_ABBREV = 12


def model_meta(path: str | Path = MODEL_DIR) -> dict[str, Any]:
    """The model's meta (scores on devel, training data and its CC BY attribution)."""
    return json.loads((Path(path) / "meta.json").read_text(encoding="utf-8"))


def _build_ner(nlp: Language, path: Path, name: str) -> Any:
    """The trained spaCy ``ner`` pipe stored in ``path`` (its config block, weights and moves)."""
    from spacy.util import load_config

    if not (path / _CONFIG).is_file():
        raise InputError("no chemicals model here (config.cfg missing)", path=str(path),
                         hint="reinstall chemref, or save the pipeline again with nlp.to_disk()")
    config = load_config(path / _CONFIG, interpolate=True)
    ner = _ner_from_config(nlp, config, name)
    ner.from_disk(path, exclude=("vocab",))
    return ner, config


def _ner_from_config(nlp: Language, config: Any, name: str) -> Any:
    """An untrained ``ner`` pipe built from the ``[components.ner]`` block of a training config."""
    register_architectures()
    block = dict(config["components"]["ner"])
    factory = block.pop("factory")
    nlp.vocab.strings.add(LABEL)
    return nlp.create_pipe(factory, name=name + ".ner", config=block)


class ChemicalsComponent(ChemrefPipe):
    """Chemical-mention recognizer: runs the packaged NER, then the rules named in the module docstring.
    Registered as ``chemref_chemicals`` in :mod:`chemref.nlp.components.factories`."""

    def __init__(self, nlp: Language, name: str = "chemref_chemicals", *, spans_key: str = SPANS_KEY,
                 model: str | None = None, abbreviations: bool = True, formulas: bool = True,
                 authors: bool = True, gazetteer: bool = True, boundaries: bool = True) -> None:
        self.name = name
        self.nlp = nlp
        self.spans_key = spans_key
        self.abbreviations = abbreviations
        self.formulas = formulas
        self.authors = authors
        self.gazetteer = gazetteer
        self.boundaries = boundaries
        self.model_path = Path(model) if model else MODEL_DIR
        self.ner, self._config = _build_ner(nlp, self.model_path, name)

    # -- processing ---------------------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        return self._finish(self.ner(doc))

    def pipe(self, stream: Iterable[Doc], batch_size: int = 256) -> Iterator[Doc]:
        # the NER runs a batch at a time, the rules a Doc at a time, both under spaCy's error handler
        from spacy.util import minibatch

        handler = self.get_error_handler()
        for batch in minibatch(stream, size=batch_size):
            try:
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
        if self.formulas:
            _add_formulas(doc)
        if self.gazetteer:
            _add_gazetteer_names(doc)
        if self.boundaries:
            _fix_boundaries(doc)
        if self.authors:
            _drop_author_names(doc)
        if self.abbreviations:
            _propagate_abbreviations(doc)
        doc.spans[self.spans_key] = [ent for ent in doc.ents if ent.label_ == LABEL]
        return doc

    # -- serialisation (spaCy's own formats for the NER; JSON for the settings) ----------------------------
    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        self.ner.to_disk(path, exclude=("vocab",))
        self._config.to_disk(path / _CONFIG)
        (path / _SETTINGS).write_text(json.dumps(self._settings(), indent=1), encoding="utf-8")
        meta = self.model_path / "meta.json"
        if meta.is_file():
            (path / "meta.json").write_bytes(meta.read_bytes())

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "ChemicalsComponent":
        path = ensure_path(path)
        self.ner, self._config = _build_ner(self.nlp, path, self.name)
        self.model_path = path
        settings = path / _SETTINGS
        if settings.is_file():
            data = json.loads(settings.read_text(encoding="utf-8"))
            self._load_settings(data)
        return self

    def _settings(self) -> dict[str, Any]:
        return {"spans_key": self.spans_key, "abbreviations": self.abbreviations, "formulas": self.formulas,
                "authors": self.authors, "gazetteer": self.gazetteer, "boundaries": self.boundaries}

    def _load_settings(self, data: dict[str, Any]) -> None:
        self.spans_key = str(data.get("spans_key", self.spans_key))
        for key in ("abbreviations", "formulas", "authors", "gazetteer", "boundaries"):
            setattr(self, key, bool(data.get(key, getattr(self, key))))

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        import srsly

        return srsly.msgpack_dumps({"ner": self.ner.to_bytes(exclude=("vocab",)), "config": self._config.to_str(),
                                    **self._settings()})

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> "ChemicalsComponent":
        import srsly
        from thinc.api import Config

        msg = srsly.msgpack_loads(data)
        self._config = Config().from_str(msg["config"])
        self.ner = _ner_from_config(self.nlp, self._config, self.name)
        self.ner.from_bytes(msg["ner"], exclude=("vocab",))
        self._load_settings(msg)
        return self


def _set_ents(doc: Doc, ents: list[Span]) -> None:
    doc.ents = sorted(ents, key=lambda s: s.start)


def _add_formulas(doc: Doc) -> None:
    """Tokens that can only be formulas become chemicals (where no entity is yet)."""
    ents = list(doc.ents)
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    added = [Span(doc, t.i, t.i + 1, label=LABEL) for t in doc
             if t.i not in taken and (t.text[0].isupper() or t.text[0] == "[") and is_strong_formula(t.text)]
    if added:
        _set_ents(doc, ents + added)


@lru_cache(maxsize=1)
def rule_names() -> frozenset[str]:
    """The gazetteer names the rule adds: ``names`` minus ``rule_stoplist`` of ``data/chemicals_gazetteer.json``."""
    return gazetteer_names() - _gazetteer_set("rule_stoplist")


def _add_gazetteer_names(doc: Doc) -> None:
    """Words of the gazetteer become chemicals (where no entity is yet)."""
    names = rule_names()
    ents = list(doc.ents)
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    added = [Span(doc, t.i, t.i + 1, label=LABEL) for t in doc if t.i not in taken and t.lower_ in names]
    if added:
        _set_ents(doc, ents + added)


_GREEK = frozenset({"alpha", "beta", "gamma", "delta", "epsilon", "kappa", "omega", "α", "β", "γ", "δ", "ε", "ω"})
_LETTER_SUFFIX = re.compile(r"[A-Z]\d{0,2}\Z")
_HYPHENS = frozenset({"-", "‐", "‑"})


def _fix_boundaries(doc: Doc) -> None:
    """Take a hyphenated stereo/Greek prefix into the name on the left, a letter suffix on the right."""
    ents = list(doc.ents)
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    prefixes = _GREEK | stereo_prefixes()
    out = []
    changed = False
    for ent in ents:
        start, end = ent.start, ent.end
        if ent.label_ == LABEL:
            if (start >= 2 and doc[start - 1].text in _HYPHENS and doc[start - 2].text in prefixes
                    and start - 1 not in taken and start - 2 not in taken):
                start -= 2
            if (end < len(doc) and end not in taken and doc[end - 1].is_lower
                    and _LETTER_SUFFIX.match(doc[end].text)):
                end += 1
        changed = changed or (start, end) != (ent.start, ent.end)
        out.append(Span(doc, start, end, label=ent.label_) if (start, end) != (ent.start, ent.end) else ent)
    if changed:
        doc.ents = out


_AUTHOR_NEXT = frozenset({"et", "and", "&", "'s", "’s"})
_AUTHOR_AFTER = frozenset({"al", "al.", "co-workers", "coworkers", "colleagues", "group"})


def _drop_author_names(doc: Doc) -> None:
    """Drop one-token chemicals that name an author: "Li et al.", "Li and co-workers", or any mention inside
    an author-mention span found by ``chemref_author_mentions``."""
    authors = doc.spans["chemref_author_mentions"] if "chemref_author_mentions" in doc.spans else ()
    in_author = {i for span in authors for i in range(span.start, span.end)}
    keep = []
    changed = False
    for ent in doc.ents:
        drop = False
        if ent.label_ == LABEL and len(ent) == 1 and ent.text[:1].isupper():
            nxt = doc[ent.end:ent.end + 3]
            words = [t.lower_ for t in nxt]
            drop = ent.start in in_author or (
                len(words) >= 2 and words[0] in _AUTHOR_NEXT and any(w in _AUTHOR_AFTER for w in words[1:]))
        if drop:
            changed = True
        else:
            keep.append(ent)
    if changed:
        doc.ents = keep


def _letters_match(short: str, long: str) -> bool:
    """Schwartz-Hearst: the abbreviation's letters occur in order in the long form, the first at a word start."""
    letters = [c.lower() for c in short if c.isalnum()]
    text = long.lower()
    if not letters or letters[0] not in text:
        return False
    pos = len(text)
    for i, ch in enumerate(reversed(letters)):
        first = i == len(letters) - 1
        pos = text.rfind(ch, 0, pos)
        while first and pos > 0 and text[pos - 1].isalnum():
            pos = text.rfind(ch, 0, pos)
        if pos < 0:
            return False
    return True


def _propagate_abbreviations(doc: Doc) -> None:
    """"LONG (ABBR)" with LONG a chemical: ABBR there and everywhere else in the Doc becomes a chemical."""
    ents = list(doc.ents)
    if not ents:
        return
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    short_forms: set[str] = set()
    for ent in ents:
        j = ent.end
        if ent.label_ == LABEL and j + 2 < len(doc) and doc[j].text == "(" and doc[j + 2].text == ")":
            short = doc[j + 1].text
            if (1 < len(short) <= _MAX_ABBREV and any(c.isupper() for c in short)
                    and _letters_match(short, ent.text)):
                short_forms.add(short)
    if not short_forms:
        return
    added = [Span(doc, t.i, t.i + 1, label=LABEL) for t in doc if t.text in short_forms and t.i not in taken]
    if added:
        _set_ents(doc, ents + added)


@lru_cache(maxsize=1)
def _counter() -> Language:
    import spacy

    import chemref.nlp.components.factories  # noqa: F401  (registers chemref_chemicals, chemref.Tokenizer.v1)

    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "chemref.Tokenizer.v1"}}})
    nlp.add_pipe("chemref_chemicals")
    return nlp


def count_chemicals(text: str) -> int:
    """How many chemical mentions ``text`` holds. A tokenizer + ``chemref_chemicals`` pipeline is built on
    the first call (about 0.3 s); then a call costs about 3.5 ms for a 25-word sentence on one core (per-call
    model overhead dominates: :func:`count_chemicals_many` costs about 2.6 ms per such sentence)."""
    return len(_counter()(text).ents)


def count_chemicals_many(texts: Iterable[str], batch_size: int = 256) -> list[int]:
    """:func:`count_chemicals` for many texts, batched (faster per text)."""
    return [len(doc.ents) for doc in _counter().pipe(texts, batch_size=batch_size)]
