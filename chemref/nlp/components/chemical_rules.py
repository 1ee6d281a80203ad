"""The rule layers the ``chemref_chemicals`` component runs after its NER, in the order of :data:`RULES`: formulas
and code names, the gazetteer and common names, name boundaries, gene and protein mentions, traps (mutations,
cell lines, figure panels...), author names, and abbreviations (see :mod:`chemref.nlp.components.chemicals`).
Their tables come from ``data/chemicals_rules.json`` and the gazetteers, read and checked once."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from spacy.tokens import Doc, Span

from chemref.errors import InputError
from chemref.nlp.components.chemical_features import (
    _gazetteer_set,
    gazetteer_names,
    is_strong_formula,
    stereo_prefixes,
    token_classes,
)
from chemref.nlp.components.chemical_model import LABEL
from chemref.nlp.reagents import is_reagent_mention, mixture_partner, reagent_class

SPANS_KEY = "chemref_chemicals"
_MAX_ABBREV = 12
_DATA = Path(__file__).resolve().parents[1] / "data"
RULES_FILE = _DATA / "chemicals_rules.json"
COMMON_NAMES_FILE = _DATA / "chemicals_common_names.json"
#: The rules after the model, in the order they run (each a config switch of the component).
RULES = ("formulas", "gazetteer", "boundaries", "genes", "traps", "authors", "abbreviations")


def _set_ents(doc: Doc, ents: list[Span]) -> None:
    doc.ents = sorted(ents, key=lambda s: s.start)


_CODE_NAME = re.compile(r"[A-Z]{1,5}-?(?:\d{4,}|\d{2,3}(?:,\d{3})+(?:-\d{1,2})?)\Z")
# A locant before or after a hyphen ("1-", "2,4'-", "4a-", "-1"), matched in the reversed text: searched forwards,
# a run of digits not followed by a hyphen is rescanned from each of its digits (quadratic in its length).
_LOCANT_IN_NAME_REVERSED = re.compile(r"-[A-Za-z]?[\d,']*\d|\d-")


@lru_cache(maxsize=100_000)
def is_systematic_name(text: str) -> bool:
    """A one-token systematic (IUPAC-style) name: long, with locants, hyphens, balanced brackets and two
    or more systematic fragments ("1-[4-(benzyloxy)phenyl]ethan-1-one", "(1R,2S)-2-(methylamino)-1-
    phenylpropan-1-ol")."""
    return (len(text) >= 12 and "-" in text and " " not in text and _balanced(text)
            and bool(_LOCANT_IN_NAME_REVERSED.search(text[::-1])) and sum(c.isalpha() for c in text) >= len(text) / 2
            and token_classes(text)[0].split("|").count("SYS2") == 1)


_CODE_PREFIX = re.compile(r"(?:[A-Z]{1,4}|[A-Z][a-z]\d{1,3})\Z")
_CODE_NUMBER = re.compile(r"\d{3,6}\Z")
_YEAR = re.compile(r"(?:19|20)\d\d\Z")
_CAPITAL_WORDS = frozenset("a an at as by in is it of on or to up we and are for not the via per than from with "
                           "into over under after words page pages vol no nr".split())
_UNITS = frozenset("mg g kg µg ug mcg ng pg ml l µl ul dl mm µm um nm pm mol mmol µmol nmol m h hr hrs min s "
                   "sec d days weeks wk iu u % mg/kg words patients subjects cases rats mice".split())


def _code_name_end(doc: Doc, i: int) -> int:
    """The end of a drug code name written in two or three tokens from doc[i] ("CB 3717", "SM - 5887",
    "Ro15 - 1788"), or ``i`` when there is none; years ("WHO 2004") are not code numbers."""
    if not _CODE_PREFIX.match(doc[i].text):
        return i
    j = i + 1
    if j < len(doc) and doc[j].text in _HYPHENS and doc[j].whitespace_ == doc[i].whitespace_:
        j += 1
    if (j < len(doc) and _CODE_NUMBER.match(doc[j].text) and not _YEAR.match(doc[j].text)
            and doc[i].lower_ not in _CAPITAL_WORDS
            and not (j + 1 < len(doc) and doc[j + 1].lower_.rstrip(".") in _UNITS)):
        return j + 1
    return i


def _add_formulas(doc: Doc) -> None:
    """Tokens that can only be formulas, one-token systematic names and drug code names ("WIN55,212-2",
    "SB203580", "CB 3717") become chemicals (where no entity is yet)."""
    ents = list(doc.ents)
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    added = []
    for t in doc:
        if t.i in taken:
            continue
        if ((t.text[0].isupper() or t.text[0] == "[") and is_strong_formula(t.text)
                or is_systematic_name(t.text) or _CODE_NAME.match(t.text)):
            added.append(Span(doc, t.i, t.i + 1, label=LABEL))
            continue
        end = _code_name_end(doc, t.i)
        if end > t.i and not any(k in taken for k in range(t.i, end)) and (
                not added or added[-1].end <= t.i):
            added.append(Span(doc, t.i, end, label=LABEL))
            taken.update(range(t.i, end))
    if added:
        _set_ents(doc, ents + added)


@lru_cache(maxsize=1)
def rule_names() -> frozenset[str]:
    """The gazetteer names the rule adds.

    Returns:
        The ``names`` of ``data/chemicals_gazetteer.json`` minus its ``rule_stoplist`` (read once).
    """
    return gazetteer_names() - _gazetteer_set("rule_stoplist")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the chemicals rule data: {exc}", path=str(path),
                         hint="reinstall chemref") from exc
    if not isinstance(data, dict) or not isinstance(data.get("version"), int):
        raise InputError("not a chemicals rule file (a JSON object with an integer 'version')", path=str(path),
                         hint="reinstall chemref")
    return data


class _Rules:
    """The rule tables of ``data/chemicals_rules.json``, checked and compiled once."""

    _LISTS = ("gene_context_after", "gene_context_before", "gene_families", "not_chemical", "common_names")

    def __init__(self, path: Path = RULES_FILE) -> None:
        data = _read_json(path)
        for key in self._LISTS + ("gene_context_after_two",):
            value = data.get(key)
            if not isinstance(value, list) or not all(
                    isinstance(v, str) if key != "gene_context_after_two" else
                    (isinstance(v, list) and len(v) == 2 and all(isinstance(w, str) for w in v)) for v in value):
                raise InputError(f"'{key}' must be a list of {'word pairs' if key.endswith('two') else 'strings'}",
                                 path=str(path), hint="see the '_doc' of the shipped file")
        self.version = data["version"]
        self.after = frozenset(w.lower() for w in data["gene_context_after"])
        self.after_two = frozenset((a.lower(), b.lower()) for a, b in data["gene_context_after_two"])
        self.before = frozenset(w.lower() for w in data["gene_context_before"])
        try:
            self.families = re.compile("(?:" + "|".join(f"(?:{p})" for p in data["gene_families"]) + r")\Z")
        except re.error as exc:
            raise InputError(f"'gene_families' holds a bad regular expression: {exc}", path=str(path),
                             hint="fix the pattern") from exc
        self.not_chemical = frozenset(w.lower() for w in data["not_chemical"])
        ambiguous = data.get("ambiguous_names", {})
        if not isinstance(ambiguous, dict) or not all(
                isinstance(v, list) and all(isinstance(w, str) for w in v) for v in ambiguous.values()):
            raise InputError("'ambiguous_names' must map words to lists of the words that may follow them",
                             path=str(path), hint="see the '_doc' of the shipped file")
        self.ambiguous = {k.lower(): frozenset(w.lower() for w in v) for k, v in ambiguous.items()}
        self.common = frozenset(data["common_names"])


@lru_cache(maxsize=1)
def _rules() -> _Rules:
    return _Rules()


@lru_cache(maxsize=1)
def common_names() -> frozenset[str]:
    """Common chemical names the gazetteer rule adds.

    Returns:
        Lower-case names, words separated by one space: the names of ``data/chemicals_common_names.json`` and
        the ``common_names`` of ``data/chemicals_rules.json``, minus the former's ``rule_stoplist`` (read once).

    Raises:
        InputError: A rule file cannot be read or is not a chemicals rule file.
    """
    data = _read_json(COMMON_NAMES_FILE)
    return (frozenset(data["names"]) | _rules().common) - frozenset(data["rule_stoplist"])


@lru_cache(maxsize=1)
def _phrases() -> tuple[frozenset[str], dict[str, int], int]:
    """(one-word names, first word of a longer name -> its most words, most words of any name)."""
    one = set(rule_names())
    firsts: dict[str, int] = {}
    for name in common_names():
        words = name.split(" ")
        if len(words) == 1:
            one.add(name)
        else:
            firsts[words[0]] = max(firsts.get(words[0], 0), len(words))
    return frozenset(one - _rules().not_chemical), firsts, max(firsts.values(), default=1)


def _next_word(doc: Doc, i: int) -> str:
    """The lower-case word after doc[i], past a hyphen ("lead - induced" -> "induced")."""
    j = i + 2 if i + 1 < len(doc) and doc[i + 1].text in _HYPHENS else i + 1
    return doc[j].lower_ if j < len(doc) else ""


def _add_gazetteer_names(doc: Doc) -> None:
    """Names of the gazetteer and common names become chemicals where no entity is yet (longest match), and
    so do ambiguous names ("lead") before a word that shows them as chemicals ("lead acetate")."""
    one, firsts, _ = _phrases()
    names = common_names()
    ambiguous = _rules().ambiguous
    ents = list(doc.ents)
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    added: list[Span] = []
    texts: list[str] = []
    i, n = 0, len(doc)
    while i < n:
        lower = doc[i].lower_
        most = firsts.get(lower, 0)
        hit = (_name_at(doc, i, min(most, n - i), names) if most > 1 else 0) or _word_at(doc, i, lower, one, ambiguous)
        if not hit and (reagent_class(doc[i].text) or lower in _mixture_words()):
            texts = texts or [t.text for t in doc]
            hit = _reagent_at(texts, i, lower, taken, added)
        if hit and _free_for(ents, taken, i, hit):
            ents = [e for e in ents if not (i <= e.start and e.end <= i + hit)]  # "dimethyl [sulfoxide]"
            added.append(Span(doc, i, i + hit, label=LABEL))
            i += hit
        else:
            i += 1
    if added:
        _set_ents(doc, ents + added)


def _name_at(doc: Doc, i: int, most: int, names: frozenset[str]) -> int:
    """The words of the longest name of ``names`` (of at most ``most`` words, two or more) at ``doc[i]``, else 0."""
    for k in range(most, 1, -1):
        if " ".join(t.lower_ for t in doc[i:i + k]) in names:
            return k
    return 0


def _word_at(doc: Doc, i: int, lower: str, one: frozenset[str], ambiguous: dict[str, frozenset[str]]) -> int:
    """1 for a one-word name at ``doc[i]``, or an ambiguous one before a word that shows it a chemical, else 0."""
    return int(lower in one or (lower in ambiguous and _next_word(doc, i) in ambiguous[lower]))


def _reagent_at(texts: list[str], i: int, lower: str, taken: set[int], added: list[Span]) -> int:
    """1 for a reagent mention at token ``i``, or a solvent word as one side of a mixture, else 0."""
    return int(is_reagent_mention(texts, i, taken) or (
        lower in _mixture_words() and mixture_partner(texts, i, taken | {a.start for a in added})))


def _free_for(ents: list[Span], taken: set[int], i: int, hit: int) -> bool:
    """May a name take tokens ``i``..``i + hit``: none is in an entity yet, or a longer name covers whole
    entities only ("dimethyl [sulfoxide]")?"""
    return not any(j in taken for j in range(i, i + hit)) or (
        hit > 1 and all(i <= e.start and e.end <= i + hit for e in ents if e.start < i + hit and e.end > i))


@lru_cache(maxsize=1)
def _mixture_words() -> frozenset[str]:
    """One-word solvent names, stoplisted ones included ("water"): chemicals as one side of a mixture."""
    return frozenset(n for n in _rules().common if " " not in n)


_GREEK = frozenset({"alpha", "beta", "gamma", "delta", "epsilon", "kappa", "omega", "α", "β", "γ", "δ", "ε", "ω"})
_LETTER_SUFFIX = re.compile(r"[A-Z]\d{0,2}\Z")
_HYPHENS = frozenset({"-", "‐", "‑"})
_OPEN, _CLOSE = "([{", ")]}"


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _fix_boundaries(doc: Doc) -> None:
    """Take a hyphenated stereo/Greek prefix into the name on the left, a letter suffix on the right
    ("vitamin C", "Coenzyme Q10"); a name with an unclosed bracket ("L-[3H") runs to the word after the
    closing one ("L-[3H]nicotine" written with spaces) or loses the bracketed part."""
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
            last = doc[end - 1]
            if (end < len(doc) and end not in taken and (last.is_lower or (end - start == 1 and last.is_title))
                    and last.is_alpha and len(last) > 2 and _LETTER_SUFFIX.match(doc[end].text)):
                end += 1
            if not _balanced(doc[start:end].text):
                start, end = _bracket_fix(doc, start, end, taken)
        changed = changed or (start, end) != (ent.start, ent.end)
        if end > start:
            out.append(Span(doc, start, end, label=ent.label_) if (start, end) != (ent.start, ent.end) else ent)
    if changed:
        doc.ents = out


def _bracket_fix(doc: Doc, start: int, end: int, taken: set[int]) -> tuple[int, int]:
    """Bounds of a mention whose brackets do not balance: extend over the closing bracket and one more word
    when those are free, else cut the mention before its unclosed bracket."""
    depth = sum(1 if t.text in _OPEN else -1 if t.text in _CLOSE else 0 for t in doc[start:end])
    if depth > 0:
        j = end
        while j < len(doc) and j - end < 4 and j not in taken and depth > 0:
            depth += 1 if doc[j].text in _OPEN else -1 if doc[j].text in _CLOSE else 0
            j += 1
        if depth == 0 and j < len(doc) and j not in taken and doc[j].is_alpha and doc[j].is_lower:
            return start, j + 1
        for k in range(end - 1, start - 1, -1):
            if doc[k].text in _OPEN:
                cut = k - 1 if k - 1 >= start and doc[k - 1].text in _HYPHENS else k
                return start, cut
    return start, end


def _gene_context(doc: Doc, start: int, end: int) -> bool:
    """The words around doc[start:end] show a gene or protein: "X expression", "X-positive cells",
    "anti-X antibody", "X inhibitor"."""
    rules = _rules()
    j = end + 1 if end < len(doc) and doc[end].text in _HYPHENS else end
    if j < len(doc):
        word = doc[j].lower_
        if word in rules.after or (j + 1 < len(doc) and (word, doc[j + 1].lower_) in rules.after_two):
            return True
    if start >= 1:
        prev = doc[start - 1]
        k = start - 2 if prev.text in _HYPHENS and start >= 2 else start - 1
        if doc[k].lower_ in rules.before and end < len(doc) and doc[end].lower_ in ("antibody", "antibodies",
                                                                                   "serum", "antiserum"):
            return True
    return False


def _drop_gene_mentions(doc: Doc) -> None:
    """Drop mentions of genes and proteins: a gene or protein context, a family name (IL-6, TNF-alpha,
    E-cadherin), an enzyme ("-ase")."""
    families = _rules().families
    keep = []
    for ent in doc.ents:
        if ent.label_ == LABEL:
            last = doc[ent.end - 1].lower_
            text = ent.text.replace(" ", "")
            if (_gene_context(doc, ent.start, ent.end) or families.match(text)
                    or (len(last) > 5 and last.endswith(("ase", "ases")))):
                continue
        keep.append(ent)
    if len(keep) != len(doc.ents):
        doc.ents = keep


_MUTATION = re.compile(r"(?:p\.|c\.)?(?:(?:Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|"
                       r"Tyr|Val)\d+(?:Ala|Arg|Asn|Asp|Cys|Gln|Glu|Gly|His|Ile|Leu|Lys|Met|Phe|Pro|Ser|Thr|Trp|Tyr|"
                       r"Val|Ter|X|\*|del|fs)|[ACDEFGHIKLMNPQRSTVWY]\d{2,4}[ACDEFGHIKLMNPQRSTVWYX*]|"
                       r"\d+[ACGT]>[ACGT]|rs\d{3,})\Z")
_CELL_LINE = re.compile(r"(?:MDA-MB-\d+|HEK-?293T?|NIH-?3T3|HL-?60|K-?562|U-?\d{3}(?:MG)?|SK-[A-Z]+-?\d*|"
                        r"HT-?\d{2,4}|SW-?\d{3,4}|T-?47D|BT-?\d{3}|A\d{3,4}|PC-?\d{1,2}|DU-?145|LNCaP|HCT-?\d{2,3}|"
                        r"Caco-?2|THP-?1|RAW ?264\.7|COS-?[17]|CHO(?:-K1)?|MDCK|Vero|HeLa|HepG2|Jurkat|MCF-?\d+[A-Z]?|"
                        r"SH-?SY5Y|U2OS|3T3(?:-L1)?|L-?1210|P-?388|B16(?:-?F\d+)?|CT-?26|4T1)\Z")
_PANEL_WORDS = frozenset({"fig", "figs", "figure", "figures", "table", "tables", "scheme", "panel", "panels",
                          "eq", "equation"})


#: Stereoselectivity measures written after a number ("92% ee", "10:1 dr"); "EE" (ethinyl estradiol) stays.
_STEREO_RATIOS = frozenset({"ee", "de", "dr", "er"})


def _drop_traps(doc: Doc) -> None:
    """Drop mutation names, cell lines, figure and table panels, country names and "ee"-like ratios."""
    not_chemical = _rules().not_chemical
    keep = []
    for ent in doc.ents:
        if ent.label_ == LABEL:
            text = ent.text.replace(" ", "")
            k = ent.start - 1
            while k >= 0 and doc[k].text in (".", "(", "[") and ent.start - k < 3:
                k -= 1
            if (_MUTATION.match(text) or _CELL_LINE.match(text) or ent.text.lower() in not_chemical
                    or (k >= 0 and doc[k].lower_.rstrip(".") in _PANEL_WORDS)
                    or (ent.text in _STEREO_RATIOS and ent.start > 0 and (doc[ent.start - 1].text == "%"
                                                                          or doc[ent.start - 1].like_num))):
                continue
        keep.append(ent)
    if len(keep) != len(doc.ents):
        doc.ents = keep


_AUTHOR_NEXT = frozenset({"et", "and", "&", "'s", "’s"})
_AUTHOR_AFTER = frozenset({"al", "al.", "co-workers", "coworkers", "colleagues", "group"})


def _drop_author_names(doc: Doc) -> None:
    """Drop one-token chemicals that name an author: "Li et al.", "Li and co-workers", or any mention inside
    an author-mention span found by ``chemref_author_mentions`` (but not a reagent word: "SPhos and XPhos")."""
    authors = doc.spans["chemref_author_mentions"] if "chemref_author_mentions" in doc.spans else ()
    in_author = {i for span in authors for i in range(span.start, span.end)}
    keep = []
    changed = False
    for ent in doc.ents:
        drop = False
        if ent.label_ == LABEL and len(ent) == 1 and ent.text[:1].isupper() and not reagent_class(ent.text):
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


def abbreviation_definitions(doc: Doc) -> tuple[frozenset[str], frozenset[str]]:
    """The abbreviations ``doc`` defines, split into chemical and other short forms.

    "LONG (ABBR)": ABBR is a chemical when a chemical mention ends just before the bracket and its letters
    give ABBR (one letter: the name's first, "testosterone (T)"); ABBR is not a chemical when the words
    before the bracket give its letters ("parathyroid hormone (PTH)") and no chemical mention ends there or
    covers ABBR.

    Args:
        doc: A Doc already through ``chemref_chemicals`` (its ``CHEMICAL`` entities are read).

    Returns:
        ``(chemical, other)``: the short forms defined as chemicals, and those defined as something else.
    """
    chemical: set[str] = set()
    other: set[str] = set()
    ends = {ent.end: ent for ent in doc.ents if ent.label_ == LABEL}
    covered = {i for ent in doc.ents if ent.label_ == LABEL for i in range(ent.start, ent.end)}
    n = len(doc)
    for tok in doc:
        j = tok.i
        if tok.text != "(" or j + 2 >= n or doc[j + 2].text != ")":
            continue
        short = doc[j + 1].text
        if len(short) > _MAX_ABBREV or not any(c.isupper() for c in short):
            continue
        ent = ends.get(j)
        if ent is not None:
            if (short.lower() == ent.text[0].lower() if len(short) == 1 else _letters_match(short, ent.text)):
                chemical.add(short)
        elif (len(short) > 1 and j > 0 and j + 1 not in covered and not doc[j - 1].is_punct
              and _letters_match(short, doc[max(0, j - len(short) - 3):j].text)):
            other.add(short)
    return frozenset(chemical), frozenset(other - chemical)


def _apply_abbreviations(doc: Doc, chemical: frozenset[str], other: frozenset[str]) -> bool:
    """Tag every free occurrence of a ``chemical`` short form, drop one-token mentions of ``other`` ones."""
    if not chemical and not other:
        return False
    ents = list(doc.ents)
    keep = [ent for ent in ents if not (len(ent) == 1 and ent.text in other)]
    taken = {i for ent in keep for i in range(ent.start, ent.end)}
    added = [Span(doc, t.i, t.i + 1, label=LABEL) for t in doc if t.text in chemical and t.i not in taken]
    if not added and len(keep) == len(ents):
        return False
    _set_ents(doc, keep + added)
    return True


def _propagate_abbreviations(doc: Doc) -> None:
    """"LONG (ABBR)" with LONG a chemical: ABBR there and everywhere else in the Doc becomes a chemical (and
    an abbreviation defined by a name that is not a chemical is not one)."""
    if len(doc.ents) or "(" in doc.text:
        _apply_abbreviations(doc, *abbreviation_definitions(doc))


def link_abbreviations(docs: Iterable[Doc], spans_key: str = SPANS_KEY) -> list[Doc]:
    """Apply the abbreviations defined anywhere in ``docs`` to all of them.

    "dimethyl sulfoxide (DMSO)" in the first sentence makes "DMSO" a chemical in the fifth::

        docs = link_abbreviations(nlp.pipe(sentences_of_one_abstract))

    Args:
        docs: The sentences of one document, each already through ``chemref_chemicals``.
        spans_key: The span group to update beside ``doc.ents``.

    Returns:
        The Docs, their ``doc.ents`` and ``doc.spans[spans_key]`` updated in place.
    """
    docs = list(docs)
    chemical: set[str] = set()
    other: set[str] = set()
    for doc in docs:
        pos, neg = abbreviation_definitions(doc)
        chemical |= pos
        other |= neg
    frozen_chemical, frozen_other = frozenset(chemical), frozenset(other - chemical)
    for doc in docs:
        if _apply_abbreviations(doc, frozen_chemical, frozen_other):
            doc.spans[spans_key] = [ent for ent in doc.ents if ent.label_ == LABEL]
    return docs


_STEPS = {"formulas": _add_formulas, "gazetteer": _add_gazetteer_names, "boundaries": _fix_boundaries,
          "genes": _drop_gene_mentions, "traps": _drop_traps, "authors": _drop_author_names,
          "abbreviations": _propagate_abbreviations}
