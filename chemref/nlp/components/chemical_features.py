"""Token-level chemistry features for the ``chemref_chemicals`` NER model (pure Python word classes + one
spaCy architecture).

:func:`token_classes` maps a token's text to two strings the model embeds next to spaCy's usual NORM,
PREFIX, SUFFIX and SHAPE features:

* its *flags*: a formula ("H2O", "LiFePO4", "Pd(PPh3)4", "[Ru(bpy)3]2+"), an element symbol, an ion, an
  element name, systematic-name fragments ("chloro", "methyl", "pyrid"), a locant ("2,4", "3beta"), a
  stereo prefix ("L", "cis", "alpha"), a capitals-and-digits code ("FK506");
* the longest drug-name stem it ends with ("-azepam", "-olol", "-mycin"; INN-style stems).

The word lists live in ``data/chemicals_lexicon.json`` (element symbols in ``data/authors_elements.json``).
The architecture ``chemref.ChemHashEmbed.v1`` is spaCy's ``MultiHashEmbed`` with these two extra columns;
the values are computed once per distinct word form and cached.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, List

import numpy
from murmurhash.mrmr import hash_unicode
from spacy import registry
from spacy.attrs import ORTH, intify_attr
from thinc.api import HashEmbed, Maxout, Model, chain, concatenate, list2ragged, ragged2list, with_array

__all__ = ["LEXICON_FILE", "GAZETTEER_FILE", "lexicon_version", "is_formula", "is_strong_formula", "token_classes",
           "gazetteer_names", "stereo_prefixes", "ChemFeatureExtractor",
           "chem_hash_embed"]

_DATA = Path(__file__).resolve().parents[1] / "data"
LEXICON_FILE = _DATA / "chemicals_lexicon.json"


@lru_cache(maxsize=1)
def _lexicon() -> dict[str, Any]:
    with LEXICON_FILE.open(encoding="utf-8") as handle:
        lex = json.load(handle)
    with (_DATA / "authors_elements.json").open(encoding="utf-8") as handle:
        lex["element_symbols"] = json.load(handle)["symbols"]
    return lex


def stereo_prefixes() -> frozenset[str]:
    """Stereo and position prefixes of names ("L", "cis", "alpha", "tert")."""
    return _tables().stereo


def lexicon_version() -> int:
    """The version of the word lists the features are computed from (stored in the model's meta)."""
    return int(_lexicon()["version"])


class _Tables:
    """The compiled word classes (built once, on first use)."""

    def __init__(self) -> None:
        lex = _lexicon()
        self.symbols = frozenset(lex["element_symbols"])
        self.ligands = frozenset(lex["ligand_abbreviations"])
        self.names = frozenset(lex["element_names"])
        self.stereo = frozenset(lex["stereo_prefixes"])
        frags = sorted(lex["systematic_fragments"], key=len, reverse=True)
        self.fragments = re.compile("|".join(re.escape(f) for f in frags))
        stems = sorted(lex["drug_stems"], key=len, reverse=True)
        self.stem = re.compile("(?:" + "|".join(re.escape(s) for s in stems) + r")\Z")


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    return _Tables()


_PARTS = re.compile(r"[A-Z][a-z]?|[a-z]{2,4}|\d+|[()\[\]·•.]")
# A final charge: "+", "2-", "-2", "(2+)", "^3+". It is matched on the reversed text from its start: a search for a
# pattern anchored at the end tries every start and rescans a run of digits from each (quadratic in its length).
_CHARGE_REVERSED = tuple(re.compile(p) for p in (r"[+\-−]\d*", r"\d*[+\-−]", r"\)[+\-−]\d*\(", r"[+\-−]\d*\^"))
_CHARGE_LAST = frozenset("+-−)")


def _strip_charge(text: str) -> str:
    """``text`` without its final charge (the longest one written), in time linear in its length."""
    if not text or (text[-1] not in _CHARGE_LAST and not text[-1].isdecimal()):
        return text
    reversed_text = text[::-1]
    longest = max((m.end() for p in _CHARGE_REVERSED if (m := p.match(reversed_text))), default=0)
    return text[:len(text) - longest]
_LOCANT = re.compile(r"(?:\d+[A-Za-z]?'?(?:,\d+[A-Za-z]?'?)*|\d+(?:alpha|beta|[RSEZ]))\Z")
_CODE = re.compile(r"[A-Z]{1,5}-?\d{2,}[A-Za-z]?\Z")


def _formula_parts(body: str) -> int:
    """How many element symbols ``body`` is made of when it parses as a formula, else 0."""
    t = _tables()
    pos = depth = count = 0
    for match in _PARTS.finditer(body):
        if match.start() != pos:
            return 0
        part = match.group()
        pos = match.end()
        if part in "([":
            depth += 1
        elif part in ")]":
            depth -= 1
            if depth < 0:
                return 0
        elif part[0].isdigit() or part in "·•.":
            continue
        elif part in t.symbols:
            count += 1
        elif part not in t.ligands:
            return 0
    return count if pos == len(body) and depth == 0 else 0


@lru_cache(maxsize=200_000)
def is_formula(text: str) -> bool:
    """A molecular formula, salt or complex: "H2O", "NaCl", "LiFePO4", "Pd(PPh3)4", "[Ru(bpy)3]2+"."""
    body = _strip_charge(text) if len(text) > 1 else text
    n = _formula_parts(body)
    return n >= 2 or (n == 1 and any(c.isdigit() for c in body))


_TWO_LETTER = re.compile(r"[A-Z][a-z]")


@lru_cache(maxsize=200_000)
def is_strong_formula(text: str) -> bool:
    """A formula no English word or gene symbol looks like: two or more element symbols and a two-letter
    symbol, an inner digit, a bracket or a charge ("NaCl", "H2O", "Pd(PPh3)4", "Ca2+"); not "CO2"-like
    capitals with a final number, which gene symbols share ("NOS2", "HO1")."""
    body = _strip_charge(text) if len(text) > 1 else text
    if body != text and body and (body in _tables().symbols or is_formula(body)) and any(c.isalpha() for c in body):
        return True  # an ion: "Ca2+", "Fe3+", "SO4(2-)"
    if _formula_parts(body) < 2:
        return False
    return bool(_TWO_LETTER.search(body) and any(sym in _tables().symbols for sym in _TWO_LETTER.findall(body))
                or re.search(r"\d(?=\D)", body) or any(c in body for c in "()[]"))


GAZETTEER_FILE = _DATA / "chemicals_gazetteer.json"


@lru_cache(maxsize=1)
def _gazetteer() -> dict[str, Any]:
    with GAZETTEER_FILE.open(encoding="utf-8") as handle:
        return json.load(handle)


def gazetteer_names() -> frozenset[str]:
    """The lower-case one-word drug and chemical names of ``data/chemicals_gazetteer.json``."""
    return _gazetteer_set("names")


@lru_cache(maxsize=None)
def _gazetteer_set(key: str) -> frozenset[str]:
    return frozenset(_gazetteer()[key])


@lru_cache(maxsize=200_000)
def token_classes(text: str, gazetteer: bool = False) -> tuple[str, str]:
    """(flags, drug stem) for one token text; both "" for an ordinary word. ``gazetteer`` adds the flag GAZ
    for a word of :func:`gazetteer_names`."""
    t = _tables()
    flags: list[str] = []
    lower = text.lower()
    if text in t.symbols:
        flags.append("ELEM")
    elif is_formula(text):
        flags.append("FORMULA")
    body = _strip_charge(text)
    if body != text and body and (body in t.symbols or is_formula(body)):
        flags.append("ION")
    if lower in t.names:
        flags.append("ELNAME")
    n_frag = len(t.fragments.findall(lower)) if len(lower) > 3 else 0
    if n_frag:
        flags.append("SYS1" if n_frag == 1 else "SYS2")
    if _LOCANT.match(text):
        flags.append("LOC")
    if text in t.stereo or lower in t.stereo:
        flags.append("STEREO")
    if _CODE.match(text):
        flags.append("CODE")
    if gazetteer and lower in gazetteer_names():
        flags.append("GAZ")
    stem = t.stem.search(lower) if len(lower) > 4 else None
    return "|".join(flags), (stem.group() if stem else "")


# --- the spaCy architecture ------------------------------------------------------------------------------

def _hash(text: str) -> int:
    return hash_unicode(text) & 0xFFFFFFFFFFFFFFFF


def _hashed_classes(text: str, gazetteer: bool, affixes: bool) -> tuple[int, ...]:
    flags, stem = token_classes(text, gazetteer)
    if not affixes:
        return _hash("F:" + flags), _hash("S:" + stem)
    lower = text.lower()
    return _hash("F:" + flags), _hash("S:" + stem), _hash("P5:" + lower[:5]), _hash("S5:" + lower[-5:])


def ChemFeatureExtractor(attrs: List[str], gazetteer: bool = False, affixes: bool = False) -> Any:
    """A thinc layer: Docs -> one uint64 array per Doc, columns ``attrs`` (spaCy attributes) then the
    two chemref class columns (with the GAZ flag when ``gazetteer``), then, with ``affixes``, the lower-cased
    five-character prefix and suffix."""
    columns = [intify_attr(a) for a in attrs]
    by_orth: dict[int, tuple[int, ...]] = {}  # orth id -> hashed classes (ids are stable string hashes)
    n_extra = 4 if affixes else 2

    def classes(orth: int, strings: Any) -> tuple[int, ...]:
        value = by_orth.get(orth)
        if value is None:
            if len(by_orth) > 500_000:
                by_orth.clear()
            value = by_orth[orth] = _hashed_classes(strings[orth], gazetteer, affixes)
        return value

    def forward(model: Any, docs: list, is_train: bool) -> tuple[list, Callable]:
        out = []
        for doc in docs:
            base = doc.to_array(columns + [ORTH])
            table = numpy.empty((base.shape[0], len(columns) + n_extra), dtype="uint64")
            table[:, :len(columns)] = base[:, :-1]
            get = by_orth.get
            strings = doc.vocab.strings
            table[:, len(columns):] = [get(o) or classes(o, strings) for o in base[:, -1].tolist()] or \
                numpy.empty((0, n_extra), dtype="uint64")
            out.append(model.ops.asarray2i(table, dtype="uint64"))
        return out, lambda d_features: []

    return Model("chemref_chem_features", forward, attrs={"feature_names": list(attrs) + ["CHEM_FLAGS", "CHEM_STEM"]})


def chem_hash_embed(width: int, attrs: List[str], rows: List[int], class_rows: List[int],
                    gazetteer: bool = False) -> Any:
    """spaCy's ``MultiHashEmbed`` (no static vectors) plus hash embeddings of the two chemref class columns
    (``gazetteer``: the flags include GAZ for words of the gazetteer) and, when ``class_rows`` has four
    entries, of the lower-cased five-character prefix and suffix."""
    if len(rows) != len(attrs) or len(class_rows) not in (2, 4):
        raise ValueError(f"need one row count per attribute ({len(attrs)}) and two class_rows (four with "
                         "the five-character prefix and suffix columns)")
    affixes = len(class_rows) == 4
    all_rows = list(rows) + list(class_rows)
    embeddings = [HashEmbed(width, n, column=i, seed=8 + i, dropout=0.0) for i, n in enumerate(all_rows)]  # type: ignore[var-annotated]
    return chain(
        ChemFeatureExtractor(attrs, gazetteer, affixes),
        list2ragged(),
        with_array(concatenate(*embeddings)),
        with_array(Maxout(width, width * len(embeddings), nP=3, dropout=0.0, normalize=True)),
        ragged2list(),
    )


def register_architectures() -> None:
    """Register ``chemref.ChemHashEmbed.v1`` with spaCy's architectures registry (idempotent)."""
    if "chemref.ChemHashEmbed.v1" not in registry.architectures:
        registry.architectures.register("chemref.ChemHashEmbed.v1", func=chem_hash_embed)
