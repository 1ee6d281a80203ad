"""Findability: how well an excerpt could identify one paper, as a documented score in [0, 1).

Most single-citation claims are too generic to point at one paper ("X is a major cause of death
worldwide [CITATION]"). The score adds points for specific content and subtracts for textbook
phrasing, counting each distinct match once and capping each feature:

| feature                                         | points each | cap  |
|-------------------------------------------------|-------------|------|
| chemical formula or ion (LiFePO4, H2O, Cu2+)     | 1.5         | 3    |
| systematic or class chemical name (2,4-dichloro-, N-methyl-, …ase, …ide, …ate) | 1.0 | 3 |
| number with a unit (5 mM, 373 K, 120 mAh g−1, 3-fold, 45%, 2 years, 81 nucleotides) | 1.0 | 3 |
| gene / protein / RNA symbol (TP53, BRCA1, IL-6, p53, HIF-1α, cGAS, E-cadherin, miR-21, CircHIPK2) | 1.0 | 3 |
| distinctive method (NMR, cryo-EM, DFT, CRISPR, voltammetry…) | 1.0 | 2 |
| other acronym, mid-sentence proper name or abbreviated species (Arabidopsis, PEDOT, E. coli) | 0.5 | 1.5 |
| claim verb (showed, demonstrated, identified, revealed…)    | 0.5 | 1 |
| generic phrase (worldwide, plays an important role, in recent years…) | −1.5 | −3 |

``findability = r / (r + 4)`` with ``r = max(0, total)``: 0 for a generic sentence, 0.5 at four
points, approaching 1 for dense, specific sentences. Rounded to 4 decimals so it is stable in JSON.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import AbstractSet, Iterator, Mapping

from chemref.nlp.prefilters import LONG_TEXT as _LONG_TEXT
from chemref.nlp.prefilters import Words, distinct_words, prefilter
from chemref.nlp.prefilters import lower_view as _lower_view
from chemref.nlp.wordlists import ELEMENT_SYMBOLS

__all__ = ["findability", "findability_features", "lower_view", "score_features", "WEIGHTS"]

#: feature -> (points per distinct match, cap on the feature's total)
WEIGHTS: dict[str, tuple[float, float]] = {
    "formula": (1.5, 3.0),
    "chemical_name": (1.0, 3.0),
    "number_unit": (1.0, 3.0),
    "gene_protein": (1.0, 3.0),
    "method": (1.0, 2.0),
    "named_entity": (0.5, 1.5),
    "claim_verb": (0.5, 1.0),
    "generic": (-1.5, -3.0),
}
_HALF_POINT = 4.0

_EL = "(?:" + "|".join(sorted(ELEMENT_SYMBOLS, key=len, reverse=True)) + ")"
_SUBSCRIPT = "[0-9\u2080-\u2089]*(?:\\.[0-9]+)?"
_CHARGE = "(?:[0-9]?[+\u207a\u2212\u207b-]|[\u00b2\u00b3\u00b9\u2070-\u2079]+[\u207a\u207b])?"
_GROUP = rf"(?:{_EL}{_SUBSCRIPT}|\((?:{_EL}{_SUBSCRIPT})+\){_SUBSCRIPT}|\[(?:{_EL}{_SUBSCRIPT})+\]{_SUBSCRIPT})"
_FORMULA_WHOLE = re.compile(rf"{_GROUP}+{_CHARGE}")
_ELEMENT = re.compile(_EL)
_COLUMN = re.compile(r"[A-Z]\d+")  # "C18", "S1", "P2": column names, figure panels
_TOKEN = re.compile(r"[A-Za-z0-9\u2080-\u2089\u00b2\u00b3\u00b9\u2070-\u2079\u207a\u207b()\[\]+\u2212·.-]+")

_CHEM_SYSTEMATIC_I = re.compile(
    r"\b(?:\d+(?:,\d+)*-|[NOSCP]-|(?:cis|trans|tert|sec|iso|neo|meta|ortho|para)-)"
    r"[a-z(\[]{3,}[\w(),\[\]-]*", re.IGNORECASE)
_CHEM_SYSTEMATIC = re.compile(_CHEM_SYSTEMATIC_I.pattern.replace("[NOSCP]", "[noscp]"))
# A stem inside a lower-case word standing alone (``\b[a-z]*(?:stem)[a-z]*\b``), found in two linear steps:
# the words, then the stems in each (one regex with a [a-z]* on either side of ~60 stems backtracks over
# every letter of a long word).
_LOWER_WORD = re.compile(r"(?<!\w)[a-z]++(?!\w)")
_CHEM_STEMS = re.compile(
    r"(?:methyl|ethyl|propyl|butyl|phenyl|benzyl|benzo|chloro|fluoro|bromo|iodo|hydroxy|amino|"
    r"nitro|carboxy|sulfon|sulfo|phospho|phosphat|oxo|cyano|acetyl|pyridin|pyrrol|imidazol|thiophen|"
    r"furan|indol|quinolin|piperidin|porphyrin|polymer|oxide|hydroxide|carbonate|nitrate|sulfate|"
    r"sulfide|chloride|fluoride|bromide|iodide|acetate|phosphate|perovskite|zeolite|graphene|fulleren|"
    r"nanotube|peptide|lipid|glycan|saccharide|ketone|aldehyde|ester|ether|amide|amine|alcohol|acid)")
_ENZYME = re.compile(r"\b[a-z]{3,}ases?\b")
_NOT_ENZYME = frozenset({"increase", "increases", "decrease", "decreases", "release", "releases",
                         "database", "databases", "disease", "diseases", "purchase", "phase", "phases",
                         "showcase", "please", "cease", "lease", "release", "erase", "crease", "chase",
                         "bases", "cases", "vases", "phrase", "phrases", "ukase"})
_NUMBER_UNIT = re.compile(
    r"(?<![\w.])[-−+±~≈<>]?\d++(?:[.,]\d++)?(?:\s?(?:×|x)\s?10[−-]?\d++)?\s?"
    r"(?:%|‰|°C|°|K\b|[mµμnpf]?M\b|[mµμn]?mol\b|[mµμnk]?g\b|[mµμ]?L\b|[nµμmck]?m\b|Å|[mk]?eV\b|[mkM]?V\b|"
    r"[mµμ]?A\b|[mkMG]?W\b|[kMG]?Hz\b|ppm\b|k?Da\b|h\b|min\b|[mnpf]?s\b|bar\b|[kMG]?Pa\b|[k]?J\b|kcal\b|"
    r"mAh\b|Wh\b|S\b|cm[−-]1|rpm\b|-fold\b|fold\b|wt\s?%|mol\s?%|equiv\b|atm\b|days?\b|weeks?\b|months?\b|"
    r"years?\b|hr\b|hours?\b|nt\b|bp\b|kb\b|nucleotides\b|residues\b|amino\s+acids\b)")
_GENE = re.compile(  # every alternative starts with a letter and holds a capital or a digit
    r"(?<![\w-])(?=[A-Za-z])(?:miR-\d+[a-z]?(?:[-/]\d+[a-z]?)*(?:-\d?[A-Z]{1,3})?(?:-[35]p)?|"  # microRNAs: miR-200a/141
    r"(?:[Cc]irc|[Ll]nc|LINC)(?!RNAs?\b)[A-Z][A-Za-z0-9-]*|"  # named circular / long non-coding RNAs: CircHIPK2
    r"(?:[a-z]{1,4}-)?(?!(?:m|si|sh|sg|mi|lnc|circ|t|r|sn|sno|pi|c|g|mt|ss|ds)(?:RNA|DNA)s?\b)[a-z]{1,3}[A-Z]{2,}[A-Za-z0-9]*|"
    r"[A-Z]-(?:cadherin|selectin|catenin|myc|ras)|"  # cGAS, mTOR, E-cadherin
    r"[A-Z][A-Za-z]{0,5}\d+[A-Za-z0-9]*|[A-Z]{2,6}-\d+[A-Za-zα-ω]*|[A-Z]{2,6}-?[αβγδκ]|"
    r"p\d{2,3}|[A-Z][A-Z0-9]{2,7}(?=\s+(?:gene|protein|kinase|receptor|expression|mutant|knockout|"
    r"deficient|signal(?:l)?ing|pathway|complex|domain|promoter|transcripts?|mRNA)))(?![\w+\u2212-])")
_METHOD = re.compile(
    r"\b(?:NMR|cryo-?EM|X-ray|crystallograph\w*|mass spectrometr\w*|MS/MS|LC-MS|GC-MS|HPLC|DFT|"
    r"density functional|molecular dynamics|ab initio|CRISPR\w*|RNA-seq|ChIP-seq|scRNA-seq|qPCR|RT-PCR|"
    r"PCR|XPS|XRD|EXAFS|XANES|EPR|ESR|FTIR|FT-IR|Raman|UV-vis|voltammetr\w*|impedance spectroscop\w*|"
    r"calorimetr\w*|ITC|SPR|FRET|AFM|STM|SEM|TEM|docking|mutagenesis|knock-?out|knock-?down|siRNA|shRNA|"
    r"GWAS|proteomic\w*|metabolomic\w*|transcriptomic\w*|spectroscop\w*|chromatograph\w*|electrophoresis|"
    r"microscop\w*|in situ hybridi[sz]ation|fluorescence|titration|electrospinning|sol-gel|hydrothermal|photolysis|catalys[ie]s)\b")
_CLAIM_VERB = re.compile(
    r"\b(?:show(?:s|ed|n)|demonstrat(?:e|es|ed)|reveal(?:s|ed)|identif(?:y|ies|ied)|discover(?:s|ed)|"
    r"establish(?:es|ed)|report(?:s|ed)|found|confirm(?:s|ed)|measur(?:e|es|ed)|determin(?:e|es|ed)|"
    r"observ(?:e|es|ed)|achiev(?:e|es|ed)|synthesi[sz](?:e|es|ed)|resolv(?:e|es|ed)|elucidat(?:e|es|ed))\b")
_CAPITAL_OR_DIGIT = re.compile("[A-Z0-9]")
_DIGIT = re.compile(r"\d")  # every number with a unit holds one
_CAPITAL = re.compile(r"(?<=[a-z,;:)]\s)([A-Z][a-z]{3,}|[A-Z]{3,}[a-z]?)\b")
_SPECIES = re.compile(r"(?<![\w.])([A-Z]\.\s?[a-z]{3,})\b")  # abbreviated binomial: S. zeamais, E. coli
_NOT_NAMED = frozenset({"However", "Although", "These", "This", "Those", "There", "Their", "Here",
                        "Figure", "Table", "Fig", "Supplementary", "CITATION", "The", "When", "While",
                        "Because", "Moreover", "Furthermore", "Thus", "Therefore", "Since", "Both",
                        "DNA", "RNA", "USA", "UK", "WHO"})
_GENERIC = re.compile(
    r"\b(?:worldwide|world-wide|global(?:ly)? (?:health|burden|problem)|public health|"
    r"(?:major|leading|main|common) cause|plays? (?:an? )?(?:important|key|crucial|critical|central|vital|"
    r"essential|major|pivotal|significant) roles?|(?:has|have) (?:attracted|received|gained|drawn) "
    r"(?:\w+ )?(?:attention|interest)|in recent years|over the (?:past|last) (?:few |several |two )?decades?|"
    r"one of the most|(?:is|are) (?:widely|commonly|extensively|frequently) (?:used|studied|applied)|"
    r"(?:is|are) well[- ]known|it is known that|a (?:wide|broad) (?:range|variety) of|numerous studies|"
    r"many studies|(?:is|are) essential for|great potential|promising candidates?|"
    r"(?:has|have) been (?:widely|extensively) (?:studied|investigated|used|reported))\b")
_GENERIC_I = re.compile(_GENERIC.pattern, re.IGNORECASE)
# The case-insensitive patterns (``*_I``) are searched case-sensitively in the lower-cased text, several
# times faster with the same matches, unless the text holds a letter whose case folding re.IGNORECASE
# treats differently from str.lower(): dotless i, long s, or one that lowers to two characters.
_FOLDS_APART = re.compile("[\u0131\u017f]")


def lower_view(text: str) -> str | None:
    """``text.lower()`` when it matches lower-case patterns exactly where re.IGNORECASE matches ``text``."""
    return _lower_view(text, _FOLDS_APART)


#: longest token read as a formula (the longest in real prose are ~40 characters: Mg0.5Ce0.2Zr1.8(PO4)3)
_MAX_FORMULA = 100


def _formulas(text: str) -> set[str]:
    found = set()
    for token in set(_TOKEN.findall(text)):  # each distinct token once: the outcome depends on its text alone
        token = token.strip(".-()[]")
        # a formula starts with an element symbol (the strip leaves no bracket first): an upper-case letter
        if not "A" <= token[:1] <= "Z" or not 2 <= len(token) <= _MAX_FORMULA or not _FORMULA_WHOLE.fullmatch(token):
            continue
        elements = _ELEMENT.findall(token)
        has_digit = any(ch.isdigit() or "\u2080" <= ch <= "\u2089" for ch in token)
        has_charge = token[-1] in "+-\u2212\u207a\u207b"
        # a formula needs a count, a charge, or a two-letter element among several (NaCl, but not "CO" or "NO")
        if has_digit and len(elements) >= 1 and not token.isdigit() and any(c.isalpha() for c in token) \
                and (len(elements) >= 2 or has_charge or token[0].isalpha()):
            if len(elements) == 1 and not has_charge and _COLUMN.fullmatch(token):
                continue  # "C18", "S1", "P2": column names, figure panels, not formulas
            found.add(token)
        elif has_charge and elements:
            found.add(token)
        elif len(elements) >= 2 and any(len(e) == 2 for e in elements) and any(c.islower() for c in token):
            found.add(token)
    return found


def findability_features(text: str) -> dict[str, set[str]]:
    """The distinct matches of each feature in ``text`` (the ``[CITATION]`` marker is ignored)."""
    return {name: set(found) for name, found in _features(text).items()}


@lru_cache(maxsize=16)
def _features(text: str) -> dict[str, frozenset[str]]:
    """:func:`findability_features`, remembered for the last texts (the builder scores an excerpt's
    findability, then the selector reads its entities)."""
    return {name: frozenset(found) for name, found in _find(text).items()}


def _find(text: str) -> dict[str, set[str]]:
    text = text.replace("[CITATION]", " ")
    lower = lower_view(text)
    long = len(text) >= _LONG_TEXT  # the words of a long text rule most patterns out without a scan
    words = distinct_words(text) if long else None
    chemical = _chemical_names(text, lower)
    generic = _generic(text, lower)
    genes = {m.group(0) for m in _GENE.finditer(text)} if _CAPITAL_OR_DIGIT.search(text) else set()
    formulas = _formulas(text)
    methods = {m.group(0).lower() for m in _matches(_METHOD, text, words)}
    return {
        "formula": formulas,
        "chemical_name": chemical,
        "number_unit": {m.group(0).strip() for m in _NUMBER_UNIT.finditer(text)} if _DIGIT.search(text) else set(),
        "gene_protein": {g for g in genes if g not in formulas and not any(f.startswith(g) for f in formulas)},
        "method": methods,
        "named_entity": _named(text, genes, formulas, methods),
        "claim_verb": {m.group(0).lower() for m in _matches(_CLAIM_VERB, text, words)},
        "generic": generic,
    }


def _chemical_names(text: str, lower: str | None) -> set[str]:
    """Systematic chemical names, words with a chemical stem, and enzyme names (``lower``: the lower view of
    ``text``, None when its letters need the case-insensitive patterns themselves)."""
    if lower is None:
        chemical = {m.group(0) for m in _matches(_CHEM_SYSTEMATIC_I, text)}
    else:
        chemical = {text[m.start():m.end()] for m in _matches(_CHEM_SYSTEMATIC, lower)}
    chemical |= {word for word in set(_LOWER_WORD.findall(text)) if _CHEM_STEMS.search(word)}
    if "ase" in text:  # every enzyme name holds it
        chemical |= {m.group(0) for m in _ENZYME.finditer(text) if m.group(0) not in _NOT_ENZYME}
    return chemical


def _generic(text: str, lower: str | None) -> set[str]:
    """Generic background phrases, lower-cased."""
    if lower is None:
        return {m.group(0).lower() for m in _matches(_GENERIC_I, text)}
    return {m.group(0) for m in _matches(_GENERIC, lower)}


def _named(text: str, genes: set[str], formulas: set[str], methods: set[str]) -> set[str]:
    """Capitalised names and abbreviated binomials that are no gene, formula or method."""
    named = ({m.group(1) for m in _CAPITAL.finditer(text)} | {m.group(1) for m in _SPECIES.finditer(text)}) \
        - _NOT_NAMED - genes - formulas
    return {n for n in named if n.lower() not in methods}


def _matches(pattern: "re.Pattern[str]", text: str, words: Words | None = None) -> "Iterator[re.Match[str]]":
    """``pattern.finditer(text)``; on a long text (:data:`chemref.nlp.prefilters.LONG_TEXT`) from where the first
    match can start at the earliest (a search for the strings every match starts with, or a test on the
    ``words`` of ``text``: :func:`chemref.nlp.prefilters.prefilter`), none when there can be none. A short
    text is scanned at once: the search for the strings would cost as much as the scan (each pattern starts
    with ``\\b``, which rules out most places cheaply; the search tries every place)."""
    if len(text) < _LONG_TEXT:
        return pattern.finditer(text)
    plan = prefilter(pattern)
    start = 0 if plan is None else plan.start(text, words)
    return iter(()) if start < 0 else pattern.finditer(text, start)


def findability(text: str) -> float:
    """The findability score of an excerpt or sentence (see the module docstring for the weights)."""
    return score_features(_features(text))


def score_features(features: Mapping[str, AbstractSet[str]]) -> float:
    """The findability score of the :func:`findability_features` of a text."""
    total = 0.0
    for name, matches in features.items():
        if not matches:
            continue
        points, cap = WEIGHTS[name]
        value = points * len(matches)
        total += max(value, cap) if points < 0 else min(value, cap)
    raw = max(total, 0.0)
    return round(raw / (raw + _HALF_POINT), 4)
